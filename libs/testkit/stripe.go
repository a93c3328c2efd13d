package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
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

// StripeIdempotency answers, in front of a Stripe double (next), as Stripe does to a request
// whose Idempotency-Key it answered before: Stripe keeps its first answer to a key (for 24
// hours), failures included (a 400, a 500), and gives it again, with Idempotent-Replayed:
// true, to every later request with the key. Answers Stripe does not keep (409, a request
// with the key in flight; 429, rate limited) are not kept either; requests of one key wait for
// each other, and those without a key always reach next.
func StripeIdempotency(next http.Handler) http.Handler {
	type answer struct {
		mu     sync.Mutex
		kept   bool
		status int
		header http.Header
		body   []byte
	}
	var mu sync.Mutex
	keys := map[string]*answer{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			next.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		a, ok := keys[key]
		if !ok {
			a = &answer{}
			keys[key] = a
		}
		mu.Unlock()
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.kept {
			maps.Copy(w.Header(), a.header)
			w.Header().Set("Idempotent-Replayed", "true")
			w.WriteHeader(a.status)
			_, _ = w.Write(a.body)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusConflict && res.StatusCode != http.StatusTooManyRequests {
			a.kept, a.status, a.header, a.body = true, res.StatusCode, res.Header.Clone(), body
		}
		maps.Copy(w.Header(), res.Header)
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(body)
	})
}
