package apispec

import (
	"fmt"
	"maps"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// WebhookTypes returns the types of the document's webhooks section (the events an endpoint
// may subscribe to, and ping), sorted.
func WebhookTypes() []string {
	hooks, _ := spec.tree["webhooks"].(map[string]any)
	return slices.Sorted(maps.Keys(hooks))
}

// compileWebhooks compiles the body schema of every webhook of the document.
func (v *Validator) compileWebhooks(c *jsonschema.Compiler) error {
	v.webhooks = map[string]*jsonschema.Schema{}
	for _, typ := range WebhookTypes() {
		ptr := "/webhooks/" + escapePointer(typ) + "/post/requestBody"
		raw, err := lookupPointer(spec.tree, ptr)
		if err != nil {
			return err
		}
		body, _ := raw.(map[string]any)
		if v.webhooks[typ], err = compileMedia(c, body, ptr); err != nil {
			return fmt.Errorf("webhook %s: %w", typ, err)
		}
	}
	return nil
}

// ValidateWebhook checks the body of a webhook of the given type against the schema the
// document's webhooks section gives it. It returns nil, a *ValidationError, or an error
// naming a type the section does not have.
func (v *Validator) ValidateWebhook(eventType string, body []byte) error {
	schema, ok := v.webhooks[eventType]
	if !ok {
		return fmt.Errorf("apispec: unknown webhook type %q", eventType)
	}
	return v.validate(schema, body)
}
