package main

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// Webhook is an event Podium sent (Standard Webhooks: https://www.standardwebhooks.com).
type Webhook struct {
	ID        string    `json:"-"` // the webhook-id header: the same on every retry
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"` // when the change happened
	Data      struct {
		ObjectID string `json:"objectId"`
		// Sequence grows by one with each event of the object; 0 for a ping.
		Sequence int64 `json:"sequence"`
		Livemode bool  `json:"livemode"`
		// Object is the object as the organizer API shows it after the change.
		Object json.RawMessage `json:"object"`
	} `json:"data"`
}

const (
	maxBody   = 4 << 20
	queueSize = 1024
	// keepIDs is how long a webhook-id is remembered: longer than Podium retries (3 days).
	// A delivery retried by hand after that is still stopped by its sequence.
	keepIDs = 7 * 24 * time.Hour
)

// Receiver answers Podium's webhooks and hands each new, verified event to apply, one at a
// time in the order they arrived. It answers as soon as the event is queued (Podium waits 15 s
// at most and retries what it does not see answered 2xx), acknowledges a webhook-id it already
// queued without queueing it again, and drops an event older (by sequence) than one applied
// to the same object: each event carries the whole object, so the newest wins.
//
// Ids, sequences and the queue live in memory here; a real backend stores the event in its
// database (webhook-id unique) before answering, and applies it from there.
type Receiver struct {
	verifier *standardwebhooks.Webhook
	apply    func(Webhook)
	now      func() time.Time
	queue    chan Webhook
	done     chan struct{}

	mu       sync.Mutex
	seen     map[string]time.Time // webhook-id → when it was queued
	forgotAt time.Time
	// applied is the highest sequence applied per object; read by Process only.
	applied map[string]int64
}

// NewReceiver verifies with secret (whsec_…) and applies events with apply.
func NewReceiver(secret string, apply func(Webhook)) (*Receiver, error) {
	if strings.TrimPrefix(secret, "whsec_") == "" {
		return nil, errors.New("no webhook secret")
	}
	v, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return nil, err
	}
	return &Receiver{
		verifier: v, apply: apply, now: time.Now, queue: make(chan Webhook, queueSize), done: make(chan struct{}),
		seen: map[string]time.Time{}, applied: map[string]int64{},
	}, nil
}

// ServeHTTP verifies the raw body against the signature headers, then queues the event.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxBody))
	if err != nil {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	// Verify the bytes as received: decoding and encoding again would change them.
	if err := r.verifier.Verify(body, req.Header); err != nil {
		status := http.StatusUnauthorized
		if errors.Is(err, standardwebhooks.ErrRequiredHeaders) || errors.Is(err, standardwebhooks.ErrInvalidHeaders) {
			status = http.StatusBadRequest
		}
		http.Error(w, "webhook not verified", status)
		return
	}
	var hook Webhook
	if err := json.Unmarshal(body, &hook); err != nil {
		http.Error(w, "body is not a webhook", http.StatusBadRequest)
		return
	}
	hook.ID = req.Header.Get(standardwebhooks.HeaderWebhookID)
	if !r.enqueue(hook) {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// enqueue queues hook unless its id was queued before; it reports false when the queue is
// full (the id is not remembered, so Podium's retry is taken).
func (r *Receiver) enqueue(hook Webhook) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if at, ok := r.seen[hook.ID]; ok && now.Sub(at) < keepIDs {
		return true
	}
	select {
	case r.queue <- hook:
	default:
		return false
	}
	r.forget(now)
	r.seen[hook.ID] = now
	return true
}

// forget drops the ids older than keepIDs, at most once an hour.
func (r *Receiver) forget(now time.Time) {
	if now.Sub(r.forgotAt) < time.Hour {
		return
	}
	r.forgotAt = now
	for id, at := range r.seen {
		if now.Sub(at) >= keepIDs {
			delete(r.seen, id)
		}
	}
}

// Process applies queued events until Close; run it in one goroutine.
func (r *Receiver) Process() {
	defer close(r.done)
	for hook := range r.queue {
		if hook.Data.Sequence > 0 {
			if hook.Data.Sequence <= r.applied[hook.Data.ObjectID] {
				continue // stale: a newer state of the object was applied
			}
			r.applied[hook.Data.ObjectID] = hook.Data.Sequence
		}
		r.apply(hook)
	}
}

// Close stops taking events once the server has stopped calling ServeHTTP, and waits for
// Process to apply the queued ones.
func (r *Receiver) Close() {
	close(r.queue)
	<-r.done
}
