package testkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
)

// StripeSessionList rewrites stripe-mock's answer to a Checkout Session list, whose data is one
// fixture session whatever was asked, into a list of sessions: each is the fixture with the
// fields of one element of sessions set (id, status, payment_status, metadata,
// client_reference_id, payment_intent, amount_total, currency, created...). stripe-mock still
// validated the request's parameters; the list is complete (has_more false).
func StripeSessionList(answer []byte, sessions []map[string]any) ([]byte, error) {
	var list struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(answer, &list); err != nil {
		return nil, fmt.Errorf("testkit: stripe-mock's session list: %w", err)
	}
	if len(list.Data) == 0 {
		return nil, errors.New("testkit: stripe-mock's session list has no fixture session")
	}
	data := make([]map[string]any, 0, len(sessions))
	for _, fields := range sessions {
		s := maps.Clone(list.Data[0])
		maps.Copy(s, fields)
		data = append(data, s)
	}
	return json.Marshal(map[string]any{"object": "list", "url": "/v1/checkout/sessions", "has_more": false, "data": data})
}
