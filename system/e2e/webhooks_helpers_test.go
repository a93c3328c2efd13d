package e2e

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/podiumhq/podium/system/stack"
)

// endpoints is the organizer API's collection of webhook endpoints; parts name what is under it.
func endpoints(parts ...string) string {
	return gw("/organizer/webhook-endpoints" + strings.Join(append([]string{""}, parts...), "/"))
}

// webhookEndpoint is an endpoint as the organizer API shows it.
type webhookEndpoint struct {
	ID                      string   `json:"id"`
	URL                     string   `json:"url"`
	EventTypes              []string `json:"eventTypes"`
	Status                  string   `json:"status"`
	Secret                  string   `json:"secret"`
	PreviousSecretExpiresAt *string  `json:"previousSecretExpiresAt"`
}

// webhookDelivery is a delivery as the organizer API shows it; the delivery read adds its
// attempts.
type webhookDelivery struct {
	ID             string  `json:"id"`
	EndpointID     string  `json:"endpointId"`
	MessageID      string  `json:"messageId"`
	Type           string  `json:"type"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	LastStatusCode *int    `json:"lastStatusCode"`
	LastLatencyMs  *int    `json:"lastLatencyMs"`
	LastError      *string `json:"lastError"`
	NextAttemptAt  *string `json:"nextAttemptAt"`
	FinishedAt     *string `json:"finishedAt"`
	AttemptLog     []struct {
		N          int     `json:"n"`
		StatusCode *int    `json:"statusCode"`
		LatencyMs  int     `json:"latencyMs"`
		Error      *string `json:"error"`
	} `json:"attemptLog"`
}

type page[T any] struct {
	Data  []T `json:"data"`
	Total int `json:"total"`
}

// startReceiver starts a loopback receiver registered as an endpoint of the key's organizer
// for every event type; it is closed when the test ends.
func startReceiver(t *testing.T, key string) (*stack.Receiver, stack.WebhookEndpoint) {
	t.Helper()
	r, e, err := sys.StartWebhookReceiver(t.Context(), stack.ReceiverOptions{}, key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r, e
}

// hook is a webhook's body as the organizer's receiver reads it.
type hook struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		ObjectID string          `json:"objectId"`
		Sequence int64           `json:"sequence"`
		Livemode bool            `json:"livemode"`
		Object   json.RawMessage `json:"object"`
	} `json:"data"`
}

// waitHook waits for the receiver's first webhook of type typ about objectID, checks it
// (wantHook) and returns it with its body.
func waitHook(t *testing.T, r *stack.Receiver, typ, objectID string) (stack.Webhook, hook) {
	t.Helper()
	return waitFor(t, r, typ+" webhook about "+objectID, func(w stack.Webhook, b hook) bool {
		return w.Type == typ && b.Data.ObjectID == objectID
	})
}

// waitMessage waits for the receiver's first webhook with webhook-id messageID, checks it
// (wantHook) and returns it with its body.
func waitMessage(t *testing.T, r *stack.Receiver, messageID string) (stack.Webhook, hook) {
	t.Helper()
	return waitFor(t, r, "webhook "+messageID, func(w stack.Webhook, _ hook) bool { return w.ID == messageID })
}

// waitFor waits for the receiver's first webhook that match accepts, checks it (wantHook) and
// returns it with its body.
func waitFor(t *testing.T, r *stack.Receiver, what string, match func(stack.Webhook, hook) bool) (stack.Webhook, hook) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), eventTravel)
	defer cancel()
	w, err := r.Wait(ctx, func(w stack.Webhook) bool {
		var b hook
		return json.Unmarshal(w.Body, &b) == nil && match(w, b)
	})
	if err != nil {
		t.Fatalf("no %s: %v; received %d:\n%s", what, err, len(r.Webhooks()), received(r))
	}
	return w, wantHook(t, w)
}

// received lists what a receiver took, for a failure's message.
func received(r *stack.Receiver) string {
	var out []string
	for _, w := range r.Webhooks() {
		out = append(out, w.ID+" "+string(w.Body))
	}
	return strings.Join(out, "\n")
}

// wantHook checks a webhook is a Standard Webhooks request the reference library verified
// with the endpoint's secret, its body exactly {type, timestamp, data: {objectId, sequence,
// livemode, object}} as the OpenAPI document's webhooks section gives its type, and returns
// the body.
func wantHook(t *testing.T, w stack.Webhook) hook {
	t.Helper()
	if !w.Verified {
		t.Fatalf("webhook %s did not verify with the reference library: %s", w.ID, w.VerifyError)
	}
	h := w.Header
	if !strings.HasPrefix(w.ID, "msg_") || h.Get("webhook-timestamp") == "" || !strings.HasPrefix(h.Get("webhook-signature"), "v1,") ||
		h.Get("content-type") != "application/json" || h.Get("user-agent") != "Podium-Webhooks/1" {
		t.Fatalf("webhook headers %v", h)
	}
	var shape struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(w.Body, &top) != nil || json.Unmarshal(w.Body, &shape) != nil {
		t.Fatalf("webhook body %s is not a JSON object", w.Body)
	}
	if got := slices.Sorted(maps.Keys(top)); !slices.Equal(got, []string{"data", "timestamp", "type"}) {
		t.Fatalf("webhook body has members %v, want type, timestamp and data: %s", got, w.Body)
	}
	if got := slices.Sorted(maps.Keys(shape.Data)); !slices.Equal(got, []string{"livemode", "object", "objectId", "sequence"}) {
		t.Fatalf("webhook data has members %v, want objectId, sequence, livemode and object: %s", got, w.Body)
	}
	v, err := document()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateWebhook(w.Type, w.Body); err != nil {
		t.Fatalf("%s webhook does not match the document's webhooks section: %v\n%s", w.Type, err, w.Body)
	}
	var b hook
	if err := json.Unmarshal(w.Body, &b); err != nil {
		t.Fatal(err)
	}
	if _, err := time.Parse(time.RFC3339Nano, b.Timestamp); err != nil {
		t.Fatalf("webhook timestamp %q (%v)", b.Timestamp, err)
	}
	return b
}

// verifiesWith reports whether the reference library verifies w with the signing secret key
// alone.
func verifiesWith(t *testing.T, w stack.Webhook, key string) bool {
	t.Helper()
	v, err := standardwebhooks.NewWebhook(key)
	if err != nil {
		t.Fatal(err)
	}
	return v.Verify(w.Body, w.Header) == nil
}

// object decodes a webhook's data.object.
func object[T any](t *testing.T, b hook) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b.Data.Object, &v); err != nil {
		t.Fatalf("%s object %s: %v", b.Type, b.Data.Object, err)
	}
	return v
}

// sendPing asks for a test event to the endpoint and returns the queued delivery.
func sendPing(t *testing.T, key, endpointID string) webhookDelivery {
	t.Helper()
	res := send(t, req{"POST", endpoints(endpointID, "test"), secret(key), nil})
	var queued struct {
		Delivery webhookDelivery `json:"delivery"`
	}
	decodeOK(t, res, 202, "organizerTestWebhookEndpoint", &queued)
	if d := queued.Delivery; d.EndpointID != endpointID || d.Type != "ping" || d.Status != "pending" || !strings.HasPrefix(d.ID, "wd_") || !strings.HasPrefix(d.MessageID, "msg_") {
		t.Fatalf("test answered %s", res.body)
	}
	return queued.Delivery
}
