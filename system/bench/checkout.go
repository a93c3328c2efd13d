package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/system/stack"
)

// Rates of the checkout scenario. A new session costs several milliseconds of CPU across the
// gateway, checkout, catalog, registration, stripe-mock and Postgres, so it runs at a busy
// sale's pace; a replay is one indexed read behind the gateway and runs faster.
const (
	sessionRate = 50
	replayRate  = 200
)

// Checkout measures checkout-session creation through the gateway against stripe-mock (each
// request a new purchase: no idempotencyKey, so every one holds a place and opens a Stripe
// session) and the idempotent replay of one created session (same key and body: the stored
// answer, no hold, no Stripe call), with the replay sent straight to checkout as its baseline,
// alternating rounds; then both replays closed-loop, for their CPU cost. Target: replay p99
// <= 2 ms through the gateway. The gateway must run with its checkout-session limits off
// (cmd/bench does).
func Checkout(ctx context.Context, s *stack.Stack, d *stack.Demo, o RunOptions, out io.Writer) error {
	p, err := newCheckoutPaths(ctx, s, d)
	if err != nil {
		return err
	}
	procs := map[string]int{"gateway": s.PID("gateway"), "checkout": s.PID("checkout")}
	runs, err := alternate(ctx, []Target{p.create, p.replay, p.direct}, o, procs)
	if err != nil {
		return err
	}
	// CPU per request is a cost under load (see GatewayOverhead): the replays closed-loop.
	loaded := o
	loaded.Rate = 0
	replay, direct := p.replay, p.direct
	replay.Rate, direct.Rate = 0, 0
	sat, err := alternate(ctx, []Target{replay, direct}, loaded, procs)
	if err != nil {
		return err
	}
	// The replays answered what the first request did (the same order): nothing was bought again.
	last, err := post(ctx, p.replay)
	if err != nil {
		return fmt.Errorf("bench: replay after the runs: %w", err)
	}
	if !bytes.Equal(last, p.first) {
		return fmt.Errorf("bench: the replay answered %s, the first request %s", last, p.first)
	}

	fmt.Fprintf(out, "\nCheckout sessions (stripe-mock), %d-byte bodies: %d new sessions at %d/s, %d replays per path at %d/s\n",
		len(p.replay.Body), runs[0].Requests, sessionRate, runs[1].Requests, replayRate)
	for _, r := range runs {
		fmt.Fprintf(out, "  %-32s p50 %8s   p99 %8s\n", r.Target, ms(r.Quantile(0.5)), ms(r.Quantile(0.99)))
	}
	fmt.Fprintf(out, "  under load (%d concurrent requests):\n", o.Workers)
	for _, r := range sat {
		fmt.Fprintf(out, "  %-32s %6.0f req/s   checkout CPU %6s/req   gateway CPU %6s/req\n",
			r.Target, r.Throughput(), us(r.CPUPerRequest("checkout")), us(r.CPUPerRequest("gateway")))
	}
	p99 := runs[1].Quantile(0.99)
	fmt.Fprintf(out, "  replay through the gateway: p99 %s (target <= 2ms: %s)\n", ms(p99), verdict(p99 <= 2*time.Millisecond))
	return nil
}

// checkoutPaths are the measured requests and the answer every replay must repeat.
type checkoutPaths struct {
	create, replay, direct Target
	first                  []byte
}

// newCheckoutPaths imports the bench event and creates the session the replays repeat.
func newCheckoutPaths(ctx context.Context, s *stack.Stack, d *stack.Demo) (checkoutPaths, error) {
	ev, err := s.ImportEventDoc(ctx, d.OrganizerID, benchEvent())
	if err != nil {
		return checkoutPaths{}, err
	}
	const path = "/external/v1/browser/checkout/registration/session"
	url := s.GatewayURL() + path
	headers := map[string]string{"x-publishable-key": d.Publishable.Key, "Origin": stack.DemoOrigin}
	purchase := benchPurchase(ev)
	create, err := json.Marshal(purchase)
	if err != nil {
		return checkoutPaths{}, err
	}
	purchase["idempotencyKey"] = "bench-replay-0001"
	replay, err := json.Marshal(purchase)
	if err != nil {
		return checkoutPaths{}, err
	}
	viaGateway := Target{Name: "replay through the gateway", Method: "POST", URL: url, Headers: headers, Body: replay, Status: 201, Rate: replayRate}
	first, err := post(ctx, viaGateway)
	if err != nil {
		return checkoutPaths{}, err
	}
	// The baseline: the same replay sent straight to checkout with the identity the gateway
	// would mint, so the gateway's share of the replay's latency shows.
	token, err := s.IdentityToken(identity.Checkout, identity.Principal{
		OrganizerID: d.OrganizerID, KeyID: d.Publishable.ID, KeyType: identity.Publishable, Origin: stack.DemoOrigin,
	})
	if err != nil {
		return checkoutPaths{}, err
	}
	direct := map[string]string{identity.Header: token, identity.HeaderClientIP: "127.0.0.1"}
	return checkoutPaths{
		create: Target{Name: "new session through the gateway", Method: "POST", URL: url, Headers: headers, Body: create, Status: 201, Rate: sessionRate},
		replay: viaGateway,
		direct: Target{Name: "replay straight to checkout", Method: "POST", URL: s.URLs["checkout"] + path,
			Headers: direct, Body: replay, Status: 201, Rate: replayRate},
		first: first,
	}, nil
}

// benchEvent is a published event whose category has no quota, so sessions never run out of
// places, with a required waiver (every purchase carries a legal signature) and a service fee.
func benchEvent() map[string]any {
	return map[string]any{
		"externalId": "bench-checkout", "name": "Bench Open", "status": "PUBLISHED",
		"startDate": "2027-09-18", "endDate": "2027-09-19", "timezone": "Europe/Madrid", "currency": "EUR",
		"categories": []any{map[string]any{"key": "open", "name": "Open", "basePrice": 4500}},
		"waivers":    []any{map[string]any{"key": "liability", "title": "Liability", "text": "I take part at my own risk."}},
		"fees":       []any{map[string]any{"key": "service", "name": "Service fee", "percent": 5}},
	}
}

// benchPurchase is a checkout-session body for one athlete, with a legal signature of three
// strokes of 60 points (a short signature on a pad; the body is about 6 KB).
func benchPurchase(ev stack.Event) map[string]any {
	w := ev.Waivers[0]
	strokes := make([]any, 3)
	for s := range strokes {
		stroke := make([]any, 60)
		for i := range stroke {
			stroke[i] = map[string]any{"x": float64(i) / 60, "y": 0.3 + float64(s)/10, "t": i * 12}
		}
		strokes[s] = stroke
	}
	return map[string]any{
		"eventId": ev.ID, "categoryId": ev.Category("open"), "teamName": "Bench Team",
		"athletes": []any{map[string]any{"fullname": "Ana Atleta", "idNumber": "X1234567", "email": "ana@example.com",
			"phone": "+34600111222", "gender": "FEMALE", "birthDate": "1990-04-01"}},
		"waiversAccepted": map[string]any{w.ID: true},
		"legalSignature": map[string]any{"signerName": "Ana Atleta", "signerIdNumber": "X1234567", "authorityAccepted": true,
			"waiverVersions": []any{map[string]any{"waiverId": w.ID, "version": w.Version}}, "strokes": strokes},
		"termsAccepted": true, "purchaserEmail": "ana@example.com", "purchaserName": "Ana Atleta",
		"successUrl": stack.DemoOrigin + "/thanks", "cancelUrl": stack.DemoOrigin + "/cart",
	}
}

// post sends t once and returns its 201 answer.
func post(ctx context.Context, t Target) ([]byte, error) {
	status, raw, err := send(ctx, t, t.Body)
	if err == nil && status != http.StatusCreated {
		err = fmt.Errorf("bench: session: %d %s", status, raw)
	}
	return raw, err
}
