package edge

import (
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/apispectest"
	"github.com/podiumhq/podium/libs/apispec/contracttest"
)

// fuzzAddr is the client address of the fuzz tests: no limit applies to it (Limits{}).
const fuzzAddr = "10.9.9.9"

// credentials are the headers of a request with the harness's key for the operation's surface.
func (h *harness) credentials(op apispec.Operation) map[string]string {
	headers := map[string]string{"X-Forwarded-For": fuzzAddr}
	if op.Surface == apispec.Browser {
		headers["X-Publishable-Key"], headers["Origin"] = h.key, site
	} else {
		headers["Authorization"] = "Bearer " + h.secret
	}
	return headers
}

// onSite is the operation's minimal body with its redirect URLs, if it has any, on the site.
func onSite(operationID string) map[string]any {
	body := apispectest.Minimal(operationID)
	if _, ok := body["successUrl"]; ok {
		body["successUrl"], body["cancelUrl"] = site+"/done", site+"/cart"
	}
	return body
}

// FuzzOperationBodies sends arbitrary bodies to every operation of the document that takes one,
// through the whole gateway with a valid key: the answer is never a 5xx; a refusal is the
// standard error body with a status the document gives the operation; and only a body the
// operation's schema accepts reaches the owner.
func FuzzOperationBodies(f *testing.F) {
	h := newHarness(f, Limits{})
	ops := contracttest.WithBody(contracttest.Served(h.srv.App))
	for i, op := range ops {
		for _, seed := range contracttest.Seeds(op.ID, onSite(op.ID)) {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := ops[int(opIndex)%len(ops)]
		params := map[string]string{"eventId": apispectest.ID("evt_", 1)}
		a := contracttest.Send(t, h.srv.App, op.Method, contracttest.Path(op, params), h.credentials(op), body)
		if a.Status < http.StatusMultipleChoices {
			if err := h.gw.Validator.ValidateRequest(op.ID, body); err != nil {
				t.Fatalf("%s: a body the schema refuses reached the owner (%v): %q", op.ID, err, body)
			}
			return
		}
		if err := contracttest.Check(h.gw.Validator, op.ID, a); err != nil {
			t.Fatalf("%s %q: %v", op.ID, body, err)
		}
	})
}

// FuzzKeyHeaders sends arbitrary credentials in each header a key travels in, with a valid
// body: only a header carrying one of the harness's keys is admitted; anything else is a 401 or 403 in the
// standard error format, never a 5xx.
func FuzzKeyHeaders(f *testing.F) {
	h := newHarness(f, Limits{})
	flipped := h.secret[:20] + "x" + h.secret[21:]
	for _, value := range []string{h.secret, h.key, flipped, "Bearer " + h.secret, "bearer  " + h.secret + " ", "Basic " + h.secret,
		apikey.SecretPrefix, strings.Repeat("pdm_sk_live_", 5), "", "\xff\xfe", h.secret + "\t"} {
		for header := range uint8(4) {
			f.Add(header, value)
		}
	}
	ops := map[apispec.Surface]apispec.Operation{}
	for _, op := range contracttest.WithBody(contracttest.Served(h.srv.App)) {
		ops[op.Surface] = op
	}
	f.Fuzz(func(t *testing.T, header uint8, value string) {
		if !sendable(value) {
			t.Skip("not a value one header line can carry")
		}
		name := []string{"Authorization", "Authorization", "X-Api-Key", "X-Publishable-Key"}[header%4]
		op := ops[apispec.Organizer]
		headers := map[string]string{"X-Forwarded-For": fuzzAddr, name: value}
		if name == "Authorization" && header%4 == 0 {
			headers[name] = "Bearer " + value
		}
		if name == "X-Publishable-Key" {
			op, headers["Origin"] = ops[apispec.Browser], site
		}
		a := contracttest.Send(t, h.srv.App, op.Method, contracttest.Path(op, nil), headers, apispectest.Encode(onSite(op.ID)))
		admitted := a.Status < http.StatusMultipleChoices
		if admitted && !strings.Contains(headers[name], h.secret) && !strings.Contains(headers[name], h.key) {
			t.Fatalf("%s: %q admitted", name, headers[name])
		}
		if !admitted {
			if a.Status != http.StatusUnauthorized && a.Status != http.StatusForbidden {
				t.Fatalf("%s: %q answered %d: %s", name, headers[name], a.Status, a.Body)
			}
			if err := contracttest.Check(h.gw.Validator, op.ID, a); err != nil {
				t.Fatalf("%s %q: %v", name, headers[name], err)
			}
		}
	})
}

// sendable reports whether v can be sent as a header value: no control characters but tab.
func sendable(v string) bool {
	for i := range len(v) {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
