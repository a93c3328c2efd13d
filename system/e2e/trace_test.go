package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/testkit"
)

// TestOneTraceSpansGatewayAndOwner follows a routed request, by its request id, in the spans the
// services export; they name its route, never its path.
func TestOneTraceSpansGatewayAndOwner(t *testing.T) {
	marker, _ := apikey.Generate(apikey.Secret, apikey.Live) // any unique string
	eventID := "evt_trace" + marker[len(marker)-10:]
	res := do(t, req{"GET", gw("/organizer/events/" + eventID), secret(demo.SecretAll.Key), nil})
	if res.status != 404 {
		t.Fatalf("routed request: %d %s", res.status, res.body)
	}
	id := res.header.Get("X-Request-Id")
	spans := otlp.waitFor(t, 2, func(s span) bool {
		return s.attrs["http.request.id"] == id && (s.service == "gateway" || s.service == "catalog")
	})
	for _, s := range spans {
		if s.mentions(eventID) || !strings.HasSuffix(s.name, "/organizer/events/:eventId") {
			t.Errorf("%s span %q names the request's path, not its route: %v", s.service, s.name, s.attrs)
		}
	}
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

// TestOnePurchaseIsTwoTiedTraces follows one purchase in the spans the services export. The
// session request is one trace: gateway, checkout, the catalog reads, registration's hold,
// Stripe, and the places event catalog counts. Stripe's webhook is another request, so
// another trace: gateway, checkout, the payment event registration confirms the order with,
// and the events that follow it to catalog, back to checkout and to webhooks (which consumes
// the payment, order and registration events alike). The checkout spans of both name the
// order (docs/adr/0007).
func TestOnePurchaseIsTwoTiedTraces(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	// The summary warms the gateway's key and origin caches: the session request then makes
	// no lookup of its own, so its tree does not depend on them.
	if res := s.post(t, "summary", map[string]any{"categoryId": s.cat, "purchaserEmail": "ana@example.com"}); res.status != 201 {
		t.Fatalf("summary: %d %s", res.status, res.body)
	}
	a := s.open(t, s.purchase("Team Traced"))
	s.wantPlaces(t, 0, 1)
	payload := stripeEvent(t, "checkout.session.completed", stripeSessionOf(t, s.org, a.OrderID), a.SessionID)
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	s.wantPlaces(t, 1, 0)

	session := orderTrace(t, a.OrderID, "/session")
	wantTree(t, session, sessionTree)
	webhook := orderTrace(t, a.OrderID, "/webhooks/stripe")
	spans := wantTree(t, webhook, webhookTree)
	if session == webhook {
		t.Fatalf("the session and its webhook share trace %s; the webhook is Stripe's own request", session)
	}
	// Database spans say what they do: sqlc's query name, else the operation and its table.
	for _, name := range []string{"GetOrderForUpdate", "INSERT inbox"} {
		if !slices.ContainsFunc(spans, func(s span) bool { return s.service == "registration" && isStore(s) && s.name == name }) {
			t.Errorf("registration's confirmation has no database span %q", name)
		}
	}
}

// The trees the purchase's traces must have: one line per span ("service kind name"),
// children indented under their parent, subtrees sorted; database and Redis spans are left
// out. The gateway forwards with its server span's context (no client span of its own); the
// childless client span is checkout's call to Stripe.
const (
	sessionTree = `
gateway server POST /external/v1/browser/checkout/registration/session
  checkout server POST /external/v1/browser/checkout/registration/session
    checkout client HTTP GET
      catalog server GET /internal/events/:eventId
    checkout client HTTP POST
    checkout client HTTP POST
      registration server POST /internal/holds
        registration client HTTP GET
          catalog server GET /internal/events/:eventId
        registration producer create registration.places.v1
          catalog consumer process registration.places.v1
`
	webhookTree = `
gateway server POST /webhooks/stripe
  checkout server POST /webhooks/stripe
    checkout producer create checkout.payments.v1
      registration consumer process checkout.payments.v1
        registration producer create registration.orders.v1
          checkout consumer process registration.orders.v1
          webhooks consumer process registration.orders.v1
        registration producer create registration.places.v1
          catalog consumer process registration.places.v1
        registration producer create registration.registrations.v1
          webhooks consumer process registration.registrations.v1
      webhooks consumer process checkout.payments.v1
`
)

// orderTrace returns the trace of checkout's server span whose route ends with route and that
// names the order.
func orderTrace(t *testing.T, orderID, route string) string {
	t.Helper()
	found := otlp.waitFor(t, 1, func(s span) bool {
		return s.service == "checkout" && strings.HasSuffix(s.name, route) && s.attrs["podium.order.id"] == orderID
	})
	return found[0].traceID
}

// wantTree waits until the trace's spans form the tree want, checks every database span
// hangs under a span of its own service and returns the spans.
func wantTree(t *testing.T, traceID, want string) []span {
	t.Helper()
	var spans []span
	testkit.Eventually(t, eventTravel, func() string {
		spans = otlp.trace(traceID)
		if got := renderTree(spans); got != strings.TrimSpace(want) {
			return fmt.Sprintf("trace %s is\n%s\nwant\n%s", traceID, got, strings.TrimSpace(want))
		}
		return ""
	})
	byID := map[string]span{}
	for _, s := range spans {
		byID[s.spanID] = s
	}
	for _, s := range spans {
		if p, ok := byID[s.parentID]; isStore(s) && (!ok || p.service != s.service) {
			t.Errorf("%s span %q has parent %q of %s, want a span of its own service", s.service, s.name, p.name, p.service)
		}
	}
	return spans
}

// renderTree draws the spans other than database and Redis calls as an indented tree, each
// span's subtrees sorted.
func renderTree(spans []span) string {
	children := map[string][]span{}
	for _, s := range spans {
		if !isStore(s) {
			children[s.parentID] = append(children[s.parentID], s)
		}
	}
	var draw func(parent string, depth int) string
	draw = func(parent string, depth int) string {
		var blocks []string
		for _, c := range children[parent] {
			line := fmt.Sprintf("%s%s %s %s\n", strings.Repeat("  ", depth), c.service, kindName(c), c.name)
			blocks = append(blocks, line+draw(c.spanID, depth+1))
		}
		slices.Sort(blocks)
		return strings.Join(blocks, "")
	}
	return strings.TrimSpace(draw("", 0))
}

// isStore reports whether s is a database or Redis call.
func isStore(s span) bool {
	_, sql := s.attrs["db.system.name"]
	_, redis := s.attrs["db.system"]
	return sql || redis
}

func kindName(s span) string {
	return strings.ToLower(strings.TrimPrefix(s.kind.String(), "SPAN_KIND_"))
}
