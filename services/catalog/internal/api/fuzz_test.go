package api_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/contracttest"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

// fuzzEnv is a running catalog with a published event and a draft of org A, and the
// operations the service routes.
type fuzzEnv struct {
	*catalogtest.Env
	v       *apispec.Validator
	ops     []apispec.Operation
	eventID string
	preview string
}

func startFuzz(f *testing.F) fuzzEnv {
	v, err := contract()
	if err != nil {
		f.Fatal(err)
	}
	env := catalogtest.Start(f, catalogtest.Options{})
	tiers := `categories:
  - key: rx
    name: RX
    basePrice: 8500
    quota: 10
    tiers:
      - {key: early, name: Early bird, price: 6500, until: 2027-02-01}
      - {key: first, name: First five, price: 7000, upToPlaces: 5}`
	published := env.Import(f, orgA, catalogtest.Event("fuzz-open", "Fuzz Open", "PUBLISHED", false, tiers)).Body
	env.Import(f, orgA, catalogtest.Event("fuzz-draft", "Fuzz Draft", "DRAFT", true))
	return fuzzEnv{Env: env, v: v, ops: contracttest.Served(env.App), eventID: published["id"].(string), preview: published["previewToken"].(string)}
}

// send sends a request to the operation of org A as the gateway forwards it, with a token of
// the surface's key with every scope, and fails the test unless the answer holds the contract.
func (e fuzzEnv) send(t *testing.T, op apispec.Operation, path string, body []byte) {
	headers := e.Publishable(t, orgA)
	if op.Surface == apispec.Organizer {
		headers = e.Secret(t, orgA, scopeEvents, scopePricing)
	}
	a := contracttest.Send(t, e.App, op.Method, path, headers, body)
	if err := contracttest.Check(e.v, op.ID, a); err != nil {
		t.Fatalf("%s %s %q: %v", op.ID, path, body, err)
	}
}

const (
	scopeEvents  = "events:read"
	scopePricing = "pricing:read"
)

// FuzzSearchBodies sends arbitrary bodies to the event searches of both surfaces (every
// operation with a body the catalog routes), with a valid identity token, through the
// service's Fiber app: never a 5xx; a refusal is the standard error body with a status the
// document gives the operation; a success is the page the document describes.
func FuzzSearchBodies(f *testing.F) {
	e := startFuzz(f)
	ops := contracttest.WithBody(e.ops)
	for i, op := range ops {
		for _, seed := range contracttest.Seeds(op.ID, map[string]any{"search": "fuzz", "status": "PUBLISHED", "limit": 100, "offset": 0},
			map[string]any{"search": "%_\\", "limit": 1, "offset": 9007199254740991}, map[string]any{"search": "ópen"},
			// PostgreSQL refuses U+0000 in text: this answered 500 before the search refused it.
			map[string]any{"search": "a\u0000"}) {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := ops[int(opIndex)%len(ops)]
		e.send(t, op, contracttest.Path(op, nil), body)
	})
}

// FuzzEventReads reads the event detail and pricing cards of both surfaces (every operation
// without a body the catalog routes) with arbitrary event ids and query parameters (the
// preview token among them): never a 5xx, and the answer is the contract's.
func FuzzEventReads(f *testing.F) {
	e := startFuzz(f)
	var ops []apispec.Operation
	for _, op := range e.ops {
		if !op.HasBody {
			ops = append(ops, op)
		}
	}
	for i := range ops {
		for _, seed := range [][3]string{{e.eventID, "previewToken", e.preview}, {e.eventID, "previewToken", ""}, {e.eventID, "x", "y"},
			{"evt_00000000000000000000", "previewToken", e.preview}, {"", "previewToken", "%"}, {"evt_1/pricing-cards", "previewToken", "\x00"}} {
			f.Add(uint8(i), seed[0], seed[1], seed[2])
		}
	}
	f.Fuzz(func(t *testing.T, opIndex uint8, eventID, param, value string) {
		op := ops[int(opIndex)%len(ops)]
		path := contracttest.Path(op, map[string]string{"eventId": eventID}) + "?" + url.Values{param: {value}}.Encode()
		if op.Method != http.MethodGet {
			t.Fatalf("%s is a %s", op.ID, op.Method)
		}
		e.send(t, op, path, nil)
	})
}
