package e2e

import (
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
)

// TestOneTraceSpansGatewayAndOwner follows a routed request in the spans the services export.
func TestOneTraceSpansGatewayAndOwner(t *testing.T) {
	marker, _ := apikey.Generate(apikey.Secret) // any unique string
	eventID := "evt_trace" + marker[len(marker)-10:]
	res := do(t, req{"GET", gw("/organizer/events/" + eventID), secret(demo.SecretAll.Key), nil})
	if res.status != 404 {
		t.Fatalf("routed request: %d %s", res.status, res.body)
	}
	spans := otlp.waitFor(t, 2, func(s span) bool {
		return strings.Contains(s.attrs, eventID) && (s.service == "gateway" || s.service == "catalog")
	})
	traces := map[string]map[string]bool{}
	for _, s := range spans {
		if traces[s.traceID] == nil {
			traces[s.traceID] = map[string]bool{}
		}
		traces[s.traceID][s.service] = true
	}
	if len(traces) != 1 {
		t.Fatalf("the request's spans belong to %d traces, want 1: %+v", len(traces), spans)
	}
	for id, services := range traces {
		if !services["gateway"] || !services["catalog"] {
			t.Fatalf("trace %s has spans of %v, want the gateway and the catalog", id, services)
		}
	}
}
