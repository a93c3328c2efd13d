package checkouttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// readSettled answers a read of one Checkout Session (stripe-mock's fixture) with the fields
// List gave the session of that id, as Stripe would.
func (s *Stripe) readSettled(res *http.Response) error {
	id, ok := strings.CutPrefix(res.Request.URL.Path, "/v1/checkout/sessions/")
	if res.Request.Method != http.MethodGet || !ok || strings.Contains(id, "/") || res.StatusCode != http.StatusOK {
		return nil
	}
	s.mu.Lock()
	var fields map[string]any
	for _, f := range s.listed {
		if f["id"] == id {
			fields = f
		}
	}
	s.mu.Unlock()
	if fields == nil {
		return nil
	}
	return rewriteJSON(res, func(session map[string]any) { maps.Copy(session, fields) })
}

// refundMade remembers a refund Stripe made, with the payment intent and metadata it was asked
// for (stripe-mock keeps neither), so that the payment's refunds list it.
func (s *Stripe) refundMade(res *http.Response) error {
	if res.Request.Method+" "+res.Request.URL.Path != RouteRefunds || res.StatusCode != http.StatusOK {
		return nil
	}
	form, _ := res.Request.Context().Value(formKey{}).(url.Values)
	return rewriteJSON(res, func(refund map[string]any) {
		meta := map[string]any{}
		for k, v := range form {
			if name, ok := strings.CutPrefix(k, "metadata["); ok && len(v) > 0 {
				meta[strings.TrimSuffix(name, "]")] = v[0]
			}
		}
		refund["payment_intent"], refund["metadata"] = form.Get("payment_intent"), meta
		s.AddRefund(maps.Clone(refund))
	})
}

// AddRefund makes Stripe list a refund with fields (id, payment_intent, amount, status,
// created, metadata) among its payment intent's refunds, as one made in Stripe's dashboard.
func (s *Stripe) AddRefund(fields map[string]any) {
	pi, _ := fields["payment_intent"].(string)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refunds[pi] = append(s.refunds[pi], fields)
}

// listRefunds adds to stripe-mock's answer to a list of a payment intent's refunds (its fixture
// refund, of no payment intent: Stripe itself would list only the payment's) the refunds Stripe
// made for that payment intent, each over the fixture.
func (s *Stripe) listRefunds(res *http.Response) error {
	if res.Request.Method+" "+res.Request.URL.Path != RouteListRefunds || res.StatusCode != http.StatusOK {
		return nil
	}
	s.mu.Lock()
	made := s.refunds[res.Request.URL.Query().Get("payment_intent")]
	s.mu.Unlock()
	return rewriteJSON(res, func(list map[string]any) {
		data, _ := list["data"].([]any)
		if len(data) == 0 {
			return
		}
		fixture, _ := data[0].(map[string]any)
		for _, fields := range made {
			r := maps.Clone(fixture)
			maps.Copy(r, fields)
			data = append(data, r)
		}
		list["data"], list["has_more"] = data, false
	})
}

// rewriteJSON replaces the JSON object res answers with what edit makes of it.
func rewriteJSON(res *http.Response, edit func(map[string]any)) error {
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	_ = res.Body.Close()
	var obj map[string]any
	if err := json.Unmarshal(answer, &obj); err != nil {
		return fmt.Errorf("checkouttest: stripe-mock's answer to %s %s: %w", res.Request.Method, res.Request.URL.Path, err)
	}
	edit(obj)
	body, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}
