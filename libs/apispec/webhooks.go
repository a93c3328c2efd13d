package apispec

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/podiumhq/podium/libs/fault"
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
// document's webhooks section gives it, its type member included (types of one object share
// a schema). It returns nil, a *ValidationError, or an error naming a type the section does
// not have.
func (v *Validator) ValidateWebhook(eventType string, body []byte) error {
	schema, ok := v.webhooks[eventType]
	if !ok {
		return fmt.Errorf("apispec: unknown webhook type %q", eventType)
	}
	if err := v.validate(schema, body); err != nil {
		return err
	}
	var b struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return err
	}
	if b.Type != eventType {
		return &ValidationError{Problems: []fault.Problem{{Path: "type", Code: codeNotAllowed, Message: "type must be " + eventType}}}
	}
	return nil
}
