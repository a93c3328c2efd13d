package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
)

// ListStripeSessions rewrites stripe-mock's answer res to a list of Checkout Sessions (GET
// /v1/checkout/sessions, whose data is one fixture session whatever was asked) into a list of
// sessions, for a proxy's ModifyResponse: each is the fixture with the fields of one element of
// sessions set (id, status, payment_status, metadata, client_reference_id, payment_intent,
// amount_total, currency...). stripe-mock still validated the request's parameters; the list
// is complete (has_more false). Other answers are left as they are.
func ListStripeSessions(res *http.Response, sessions []map[string]any) error {
	if res.Request.Method != http.MethodGet || res.Request.URL.Path != "/v1/checkout/sessions" || res.StatusCode != http.StatusOK {
		return nil
	}
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	_ = res.Body.Close()
	var list struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(answer, &list); err != nil {
		return fmt.Errorf("testkit: stripe-mock's session list: %w", err)
	}
	if len(list.Data) == 0 {
		return errors.New("testkit: stripe-mock's session list has no fixture session")
	}
	data := make([]map[string]any, 0, len(sessions))
	for _, fields := range sessions {
		s := maps.Clone(list.Data[0])
		maps.Copy(s, fields)
		data = append(data, s)
	}
	body, err := json.Marshal(map[string]any{"object": "list", "url": "/v1/checkout/sessions", "has_more": false, "data": data})
	if err != nil {
		return err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}
