package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/contracttest"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// webhookSeeds are valid bodies that reach past the schema to the service's rules.
var webhookSeeds = map[string][]map[string]any{
	"organizerCreateWebhookEndpoint": {{"url": "https://10.0.0.1/", "eventTypes": []string{domain.OrderCompleted}},
		{"url": "https://hooks.example.com/#x", "eventTypes": []string{domain.OrderCompleted, domain.OrderCompleted}, "description": "a\u202eb"}},
	"organizerUpdateWebhookEndpoint":    {{"enabled": false}, {"enabled": true, "url": "https://localhost/"}},
	"organizerRecoverWebhookDeliveries": {{"since": "2999-01-01T00:00:00Z"}, {"since": "2000-01-01T00:00:00Z"}},
}

// FuzzExternalBodies sends arbitrary bodies to every webhook endpoint operation of the
// document, as the gateway forwards them: every answer must hold the document (Env.Do checks
// it): never a 5xx, a refusal in the standard error format with a status the document gives
// the operation, a success of the body it describes.
func FuzzExternalBodies(f *testing.F) {
	e := webhookstest.Start(f, webhookstest.Options{})
	c := client{t: f, e: e, m: mounts[0], org: orgA}
	endpoint := c.create("https://hooks.example.com/", domain.OrderCompleted).Body["id"].(string)
	ping := c.do(http.MethodPost, "/"+endpoint+"/test", nil).Body["delivery"].(map[string]any)["id"].(string)
	params := map[string]string{"endpointId": endpoint, "deliveryId": ping}
	var ops []apispec.Operation
	for _, op := range apispec.Operations() {
		if strings.HasPrefix(contracttest.BasePath+op.Path, api.ExternalBase) {
			ops = append(ops, op)
		}
	}
	if len(ops) != 11 {
		f.Fatalf("%d webhook endpoint operations in the document, want 11", len(ops))
	}
	for i, op := range ops {
		for _, seed := range contracttest.Seeds(op.ID, webhookSeeds[op.ID]...) {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := ops[int(opIndex)%len(ops)]
		e.Do(t, op.Method, contracttest.Path(op, params), body, e.Secret(t, orgA))
	})
}
