package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/apispectest"
	"github.com/podiumhq/podium/system/stack"
)

// hostileOp is the browser operation that accepts the largest body.
const hostileOp = "browserCheckoutSession"

// noncePrefix starts the member each request adds to its body, a counter in 16 hex digits, so
// that its bytes are its own: the gateway remembers large bodies that passed validation by
// digest and would not validate a repeat.
const noncePrefix = `"benchNonce":"`

// nonceSize is the bytes the member adds.
const nonceSize = len(noncePrefix) + 16 + len(`",`)

// HostileBodies measures the gateway's CPU per request for the largest body a browser route
// accepts (the checkout session's byte limit), closed-loop: a benign body, the largest
// legitimate session grown to the limit, next to one hostile body per check on a body, each
// built to be the worst case for it (apispectest.Hostile). Target: each hostile body costs at
// most 3 times the benign one. Every body names an event that does not exist, on the demo
// key's origin, so that one that passes the gateway gets a fast 404 from checkout (no hold, no
// payment session).
func HostileBodies(ctx context.Context, s *stack.Stack, d *stack.Demo, o RunOptions, out io.Writer) error {
	limit := 0
	for _, op := range apispec.Operations() {
		if op.ID == hostileOp {
			limit = op.MaxBodyBytes
		}
	}
	if limit != apispec.MaxBodyBytes() {
		return fmt.Errorf("bench: %s does not take the largest body (%d of %d bytes)", hostileOp, limit, apispec.MaxBodyBytes())
	}
	size := limit - nonceSize
	overrides := map[string]any{"eventId": "evt_benchNoSuchEvent0000", "successUrl": stack.DemoOrigin + "/thanks",
		"cancelUrl": stack.DemoOrigin + "/cart"}
	// Without an idempotency key checkout claims nothing before it asks the catalog for the event.
	benign := apispectest.Largest(hostileOp, overrides)
	delete(benign, "idempotencyKey")
	bodies := []apispectest.Body{{Check: "benign: the largest legitimate session",
		JSON: apispectest.Pad(apispectest.Encode(benign), size), Valid: true}}
	bodies = append(bodies, apispectest.Hostile(hostileOp, size, overrides)...)

	url := s.GatewayURL() + "/external/v1/browser/checkout/registration/session"
	headers := map[string]string{"x-publishable-key": d.Publishable.Key, "Origin": stack.DemoOrigin}
	targets := make([]Target, len(bodies))
	for i, b := range bodies {
		t := Target{Name: b.Check, Method: "POST", URL: url, Headers: headers, NextBody: withNonces(b.JSON)}
		status, problems, err := probe(ctx, t)
		if err != nil {
			return err
		}
		// A body the validator accepts reaches checkout, which knows no such event, or may
		// refuse to decode it (it reads integers of at most 64 characters); one it refuses gets
		// the gateway's list of problems.
		if b.Valid == problems {
			return fmt.Errorf("bench: %s: the gateway answered %d, listing problems: %v, to a body the validator accepts: %v",
				b.Check, status, problems, b.Valid)
		}
		t.Status = status
		targets[i] = t
	}
	loaded := o
	loaded.Rate, loaded.Workers = 0, 4
	runs, err := alternate(ctx, targets, loaded, map[string]int{"gateway": s.PID("gateway")})
	if err != nil {
		return err
	}
	report(out, bodies, targets, runs, limit)
	return nil
}

// withNonces returns a NextBody giving body with a member of its own first, a counter.
func withNonces(body []byte) func() []byte {
	var n atomic.Uint64
	return func() []byte {
		out := make([]byte, 0, len(body)+nonceSize)
		out = append(out, '{')
		out = append(out, noncePrefix...)
		out = fmt.Appendf(out, "%016x", n.Add(1))
		out = append(out, `",`...)
		return append(out, body[1:]...)
	}
}

// ownerDecodeRefusal is checkout's answer to a body the schema accepts that its decoder cannot
// read, such as an integer written with an exponent (299999000e-3).
const ownerDecodeRefusal = "body must be a valid JSON object of the documented shape"

// probe sends one request of t and returns its status, 400 or 404, and whether the answer lists
// the gateway's problems with the body (not the owner's refusal to decode it).
func probe(ctx context.Context, t Target) (int, bool, error) {
	status, raw, err := send(ctx, t, t.NextBody())
	if err != nil {
		return 0, false, err
	}
	var answer struct {
		Message any `json:"message"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return 0, false, fmt.Errorf("bench: %s: status %d: %w", t.Name, status, err)
	}
	if status != http.StatusBadRequest && status != http.StatusNotFound {
		return 0, false, fmt.Errorf("bench: %s: status %d: %v", t.Name, status, answer.Message)
	}
	list, problems := answer.Message.([]any)
	if problems && len(list) == 1 && list[0] == ownerDecodeRefusal {
		problems = false
	}
	return status, problems, nil
}

// report prints each body's gateway CPU per request and its ratio to the benign body's.
func report(out io.Writer, bodies []apispectest.Body, targets []Target, runs []Result, limit int) {
	fmt.Fprintf(out, "\nHostile bodies: POST %s of up to %d bytes (its byte limit, the largest of the browser routes), closed-loop, %d requests per body\n",
		hostileOp, limit, runs[0].Requests)
	benign := runs[0].CPUPerRequest("gateway")
	worst := 0.0
	for i, r := range runs {
		cpu := r.CPUPerRequest("gateway")
		ratio := float64(cpu) / float64(benign)
		if i > 0 {
			worst = max(worst, ratio)
		}
		fmt.Fprintf(out, "  %-42s %9d bytes  %d  gateway CPU %8s/req  %5.2fx\n",
			bodies[i].Check, len(bodies[i].JSON)+nonceSize, targets[i].Status, ms(cpu), ratio)
	}
	fmt.Fprintf(out, "  the costliest hostile body / the benign one: %.2fx (target <= 3x: %s)\n", worst, verdict(worst <= 3))
}
