package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/system/stack"
)

// CatalogReads compares the public reads a busy event page makes (browser events search and
// pricing cards), through the gateway and straight to the catalog, closed-loop: throughput and
// p99 of each, and the gateway's share of the direct throughput (target at least 0.7).
func CatalogReads(ctx context.Context, s *stack.Stack, d *stack.Demo, o RunOptions, out io.Writer) error {
	ev, ok := d.Events["summer-throwdown"]
	if !ok {
		return fmt.Errorf("bench: the demo event summer-throwdown was not seeded")
	}
	token, err := s.IdentityToken(identity.Catalog, identity.Principal{
		OrganizerID: d.OrganizerID, KeyID: d.Publishable.ID, KeyType: identity.Publishable, Origin: stack.DemoOrigin,
	})
	if err != nil {
		return err
	}
	direct := map[string]string{identity.Header: token, identity.HeaderClientIP: "127.0.0.1"}
	viaGateway := map[string]string{"x-publishable-key": d.Publishable.Key, "Origin": stack.DemoOrigin}
	reads := []struct {
		name, method, path string
		body               []byte
		status             int
	}{
		{"browser events search", "POST", "/external/v1/browser/events/search", []byte(`{"search":"throwdown","limit":10}`), 201},
		{"browser pricing cards", "GET", "/external/v1/browser/events/" + ev.ID + "/pricing-cards", nil, 200},
	}
	procs := map[string]int{"gateway": s.PID("gateway"), "catalog": s.PID("catalog")}
	loaded := o
	loaded.Rate = 0
	fmt.Fprintf(out, "\nCatalog public reads, closed-loop with %d concurrent requests (target: through the gateway >= 0.7 of direct throughput)\n", o.Workers)
	for _, r := range reads {
		targets := []Target{
			{Name: "direct to catalog", Method: r.method, URL: s.URLs["catalog"] + r.path, Body: r.body, Status: r.status, Headers: direct},
			{Name: "through the gateway", Method: r.method, URL: s.GatewayURL() + r.path, Body: r.body, Status: r.status, Headers: viaGateway},
		}
		runs, err := alternate(ctx, targets, loaded, procs)
		if err != nil {
			return err
		}
		dr, gr := runs[0], runs[1]
		ratio := gr.Throughput() / dr.Throughput()
		fmt.Fprintf(out, "  %s: %s %s\n", r.name, r.method, r.path)
		for _, res := range runs {
			fmt.Fprintf(out, "    %-22s %7.0f req/s   p50 %8s   p99 %8s   catalog CPU %6s/req   gateway CPU %6s/req\n",
				res.Target, res.Throughput(), us(res.Quantile(0.5)), us(res.Quantile(0.99)),
				us(res.CPUPerRequest("catalog")), us(res.CPUPerRequest("gateway")))
		}
		fmt.Fprintf(out, "    through the gateway / direct: %.2f of the throughput (target >= 0.70: %s), p99 +%s\n",
			ratio, verdict(ratio >= 0.7), us(max(gr.Quantile(0.99)-dr.Quantile(0.99), time.Duration(0))))
	}
	return nil
}
