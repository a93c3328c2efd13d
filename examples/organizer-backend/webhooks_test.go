package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// secret is a whsec_ secret as Podium issues them: base64 of 32 random bytes.
func secret(b byte) string {
	return "whsec_" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32))
}

// delivery is one POST as Podium makes it: the id, the attempt's timestamp and the body,
// signed by each secret (several while one rotates); sent, when set, replaces the body after
// signing.
type delivery struct {
	id      string
	at      time.Time
	body    []byte
	secrets []string
	sent    []byte
}

func payload(typ, objectID string, seq int64) []byte {
	return fmt.Appendf(nil, `{"type":%q,"timestamp":"2026-05-09T18:03:21.447Z","data":{"objectId":%q,"sequence":%d,"livemode":true,"object":{"orderId":%q,"status":"COMPLETED"}}}`,
		typ, objectID, seq, objectID)
}

func (d delivery) post(t *testing.T, url string) int {
	t.Helper()
	var sigs []string
	for _, s := range d.secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := wh.Sign(d.id, d.at, d.body)
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, sig)
	}
	sent := d.body
	if d.sent != nil {
		sent = d.sent
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("webhook-id", d.id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(d.at.Unix(), 10))
	req.Header.Set("webhook-signature", strings.Join(sigs, " "))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	return res.StatusCode
}

// TestReceiverAppliesVerifiedFreshEventsOnce: signed deliveries are answered 2xx before they
// are applied; a bad signature, a tampered body, an old timestamp, missing headers and a
// body that is no webhook are refused; a replayed webhook-id is acknowledged and not applied again; an event older by
// sequence than one applied to its object is acknowledged and dropped; during a rotation
// either secret verifies.
func TestReceiverAppliesVerifiedFreshEventsOnce(t *testing.T) {
	current, other := secret(1), secret(2)
	release := make(chan struct{})
	applied := make(chan Webhook, 16)
	r, err := NewReceiver(current, func(h Webhook) {
		<-release
		applied <- h
	})
	if err != nil {
		t.Fatal(err)
	}
	go r.Process()
	srv := httptest.NewServer(r)
	now := time.Now() // the reference library checks the timestamp against the wall clock

	// Answered while the first event waits to be applied.
	first := delivery{id: "msg_1", at: now, body: payload("order.completed", "ord_1", 1), secrets: []string{current}}
	if got := first.post(t, srv.URL); got != http.StatusNoContent {
		t.Fatalf("a signed event: %d", got)
	}
	close(release)
	if h := <-applied; h.ID != "msg_1" || h.Type != "order.completed" || h.Data.ObjectID != "ord_1" || h.Data.Sequence != 1 || !h.Data.Livemode {
		t.Fatalf("applied %+v", h)
	}

	tampered := first
	tampered.id, tampered.sent = "msg_t", bytes.Replace(first.body, []byte(`"sequence":1`), []byte(`"sequence":9`), 1)
	for name, c := range map[string]struct {
		d    delivery
		want int
	}{
		"another secret":   {delivery{id: "msg_x", at: now, body: payload("order.completed", "ord_1", 5), secrets: []string{other}}, http.StatusUnauthorized},
		"no signature":     {delivery{id: "msg_y", at: now, body: payload("order.completed", "ord_1", 5)}, http.StatusBadRequest},
		"old timestamp":    {delivery{id: "msg_z", at: now.Add(-6 * time.Minute), body: payload("order.completed", "ord_1", 5), secrets: []string{current}}, http.StatusUnauthorized},
		"future timestamp": {delivery{id: "msg_f", at: now.Add(6 * time.Minute), body: payload("order.completed", "ord_1", 5), secrets: []string{current}}, http.StatusUnauthorized},
		"tampered body":    {tampered, http.StatusUnauthorized},
		"signed, not JSON": {delivery{id: "msg_j", at: now, body: []byte("ok"), secrets: []string{current}}, http.StatusBadRequest},
		"retry of msg_1":   {delivery{id: "msg_1", at: now.Add(time.Second), body: first.body, secrets: []string{current}}, http.StatusNoContent},
		"stale sequence":   {delivery{id: "msg_2", at: now, body: payload("order.completed", "ord_1", 1), secrets: []string{current}}, http.StatusNoContent},
	} {
		if got := c.d.post(t, srv.URL); got != c.want {
			t.Errorf("%s: %d, want %d", name, got, c.want)
		}
	}

	// Newer events apply, in the order they came; a rotating endpoint signs with both secrets.
	for _, d := range []delivery{
		{id: "msg_3", at: now, body: payload("order.refunded", "ord_1", 3), secrets: []string{current}},
		{id: "msg_4", at: now, body: payload("order.updated", "ord_1", 2), secrets: []string{current}},
		{id: "msg_5", at: now, body: payload("order.completed", "ord_2", 1), secrets: []string{current, other}},
		{id: "msg_6", at: now, body: payload("ping", "we_1", 0), secrets: []string{other, current}},
	} {
		if got := d.post(t, srv.URL); got != http.StatusNoContent {
			t.Fatalf("%s: %d", d.id, got)
		}
	}
	srv.Close()
	r.Close()
	close(applied)
	var ids []string
	for h := range applied {
		ids = append(ids, h.ID)
	}
	if want := []string{"msg_3", "msg_5", "msg_6"}; !slices.Equal(ids, want) {
		t.Fatalf("applied %v after msg_1, want %v", ids, want)
	}
}

// TestReceiverRefusesAnEmptySecret: an unset secret would verify anything signed with no key.
func TestReceiverRefusesAnEmptySecret(t *testing.T) {
	for _, s := range []string{"", "whsec_"} {
		if _, err := NewReceiver(s, func(Webhook) {}); err == nil {
			t.Errorf("secret %q accepted", s)
		}
	}
}

// TestReceiverForgetsIDsAfterAWeek: a webhook-id is taken once for a week, then forgotten, so
// the memory of ids stays bounded (an event sent again after that meets its sequence).
func TestReceiverForgetsIDsAfterAWeek(t *testing.T) {
	r, err := NewReceiver(secret(1), func(Webhook) {})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC)
	r.now = func() time.Time { return now }
	hook := Webhook{ID: "msg_1"}
	for _, step := range []struct {
		after  time.Duration
		queued int
	}{{0, 1}, {time.Hour, 1}, {keepIDs - 2*time.Hour, 1}, {2 * time.Hour, 2}, {time.Minute, 2}} {
		now = now.Add(step.after)
		if !r.enqueue(hook) || len(r.queue) != step.queued {
			t.Fatalf("after %v more: %d queued, want %d", step.after, len(r.queue), step.queued)
		}
	}
	if len(r.seen) != 1 {
		t.Fatalf("%d ids remembered", len(r.seen))
	}
}
