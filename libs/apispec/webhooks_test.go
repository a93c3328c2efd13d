package apispec

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestWebhookTypesAreTheSubscribableOnesAndPing: the webhooks section has one entry per event
// type an endpoint may subscribe to (the WebhookEventType enum), and ping.
func TestWebhookTypesAreTheSubscribableOnesAndPing(t *testing.T) {
	raw, err := lookupPointer(spec.tree, "/components/schemas/WebhookEventType/enum")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range raw.([]any) {
		want = append(want, e.(string))
	}
	want = append(want, "ping")
	slices.Sort(want)
	if got := WebhookTypes(); !slices.Equal(got, want) {
		t.Errorf("webhooks section has %v, want %v", got, want)
	}
}

// TestEveryWebhookExampleMatchesItsSchema: each webhook has an example of its own type, which
// its schema accepts, and the schema refuses the example of another type.
func TestEveryWebhookExampleMatchesItsSchema(t *testing.T) {
	v := validator(t)
	bodies := map[string][]byte{}
	for _, typ := range WebhookTypes() {
		ptr := "/webhooks/" + escapePointer(typ) + "/post/requestBody"
		exs := examples(t, mustLookup(t, ptr), ptr)
		if len(exs) != 1 {
			t.Errorf("%s has %d examples, want 1", typ, len(exs))
		}
		for name, ex := range exs {
			var body struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(ex, &body); err != nil || body.Type != typ {
				t.Errorf("%s example %q has type %q", typ, name, body.Type)
			}
			if err := v.ValidateWebhook(typ, ex); err != nil {
				t.Errorf("%s example %q: %v", typ, name, err)
			}
			bodies[typ] = ex
		}
	}
	if err := v.ValidateWebhook("order.completed", bodies["registration.created"]); err == nil {
		t.Error("a registration body passes as order.completed")
	}
	if err := v.ValidateWebhook("order.failed", bodies["order.completed"]); err == nil || !strings.Contains(err.Error(), "type must be order.failed") {
		t.Errorf("an order.completed body as order.failed: %v", err)
	}
	if err := v.ValidateWebhook("order.shipped", bodies["order.completed"]); err == nil ||
		!strings.Contains(err.Error(), "unknown webhook type") {
		t.Errorf("an unknown type: %v", err)
	}
}

// TestWebhooksDocumentTheStandardHeadersAndAnswers: every webhook names the Standard Webhooks
// headers and the answers the sender acts on.
func TestWebhooksDocumentTheStandardHeadersAndAnswers(t *testing.T) {
	for _, typ := range WebhookTypes() {
		post := mustLookup(t, "/webhooks/"+escapePointer(typ)+"/post").(map[string]any)
		var headers []string
		for _, p := range post["parameters"].([]any) {
			param, _, err := resolveRef(spec.tree, p, "")
			if err != nil {
				t.Fatal(err)
			}
			if param["in"] == "header" {
				headers = append(headers, param["name"].(string))
			}
		}
		if want := []string{"webhook-id", "webhook-timestamp", "webhook-signature"}; !slices.Equal(headers, want) {
			t.Errorf("%s headers %v, want %v", typ, headers, want)
		}
		responses := post["responses"].(map[string]any)
		for _, code := range []string{"2XX", "410", "429", "503", "default"} {
			if _, ok := responses[code]; !ok {
				t.Errorf("%s does not document the answer %s", typ, code)
			}
		}
	}
}

func mustLookup(t *testing.T, ptr string) any {
	t.Helper()
	node, err := lookupPointer(spec.tree, ptr)
	if err != nil {
		t.Fatal(err)
	}
	return node
}
