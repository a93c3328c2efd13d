package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// receiverPath is where a Receiver takes webhooks; its pages are at / and /events.
const receiverPath = "/hooks"

// receiverBodyLimit bounds the body a Receiver reads of one request.
const receiverBodyLimit = 1 << 20

// Webhook is one request a Receiver took: what arrived, as it arrived, and whether its signature
// verifies with the receiver's secret (the Standard Webhooks reference library's Verify, which
// also wants the timestamp within five minutes of the receiver's clock unless
// ReceiverOptions.IgnoreTimestamp).
type Webhook struct {
	ID         string      `json:"id"`
	Type       string      `json:"type"`
	ReceivedAt time.Time   `json:"receivedAt"`
	Header     http.Header `json:"headers"`
	// Body is the request body, byte for byte as signed.
	Body        []byte `json:"-"`
	Verified    bool   `json:"verified"`
	VerifyError string `json:"verifyError,omitempty"`
	// Status is what the receiver answered.
	Status int `json:"status"`
}

// MarshalJSON shows the body as JSON when it is, else as a string.
func (w Webhook) MarshalJSON() ([]byte, error) {
	type plain Webhook
	body := json.RawMessage(w.Body)
	if !json.Valid(w.Body) {
		b, err := json.Marshal(string(w.Body))
		if err != nil {
			return nil, err
		}
		body = b
	}
	return json.Marshal(struct {
		plain
		Body json.RawMessage `json:"body"`
	}{plain(w), body})
}

// ReceiverOptions configures a Receiver.
type ReceiverOptions struct {
	// Status decides the answer to each webhook (default 200); it may block, as a slow
	// receiver would.
	Status func(Webhook) int
	// OnWebhook, when set, is told of each webhook once it is kept.
	OnWebhook func(Webhook)
	// IgnoreTimestamp verifies signatures without the library's five-minute window around the
	// receiver's clock (VerifyIgnoringTimestamp), for tests whose webhooks service runs on a
	// clock of their own.
	IgnoreTimestamp bool
}

// Receiver is a webhook receiver on a loopback port: it takes webhooks at EndpointURL, verifies
// each with the Standard Webhooks reference library, keeps every request (headers and raw body)
// and lists them at URL (a page, newest first) and URL/events (JSON, oldest first).
type Receiver struct {
	// URL is the receiver's base URL (its page).
	URL  string
	opts ReceiverOptions
	srv  *http.Server

	mu       sync.Mutex
	verifier *standardwebhooks.Webhook
	received []Webhook
	// arrived is closed, and replaced, at each arrival.
	arrived chan struct{}
}

// StartReceiver starts a receiver listening on addr, which must be a loopback address
// ("127.0.0.1:0" for any free port).
func StartReceiver(addr string, o ReceiverOptions) (*Receiver, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("stack: receiver address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("stack: receiver address %q is not on the loopback", addr)
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("stack: receiver: %w", err)
	}
	r := &Receiver{URL: "http://" + ln.Addr().String(), opts: o, arrived: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+receiverPath, r.take)
	mux.HandleFunc("GET /events", r.events)
	mux.HandleFunc("GET /{$}", r.page)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// EndpointURL is the address to register as a webhook endpoint.
func (r *Receiver) EndpointURL() string { return r.URL + receiverPath }

// SetSecret sets the endpoint's signing secret (whsec_…) that later webhooks are verified with.
func (r *Receiver) SetSecret(secret string) error {
	v, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return fmt.Errorf("stack: receiver secret: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.verifier = v
	return nil
}

// Webhooks returns every webhook received, oldest first.
func (r *Receiver) Webhooks() []Webhook {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.received)
}

// Arrived returns a channel closed when the next webhook arrives.
func (r *Receiver) Arrived() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.arrived
}

// Wait returns the first webhook, received already or to come, that match accepts; it gives up
// when ctx ends.
func (r *Receiver) Wait(ctx context.Context, match func(Webhook) bool) (Webhook, error) {
	seen := 0
	for {
		r.mu.Lock()
		fresh, arrived := r.received[seen:], r.arrived
		seen = len(r.received)
		r.mu.Unlock()
		for _, w := range fresh {
			if match(w) {
				return w, nil
			}
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return Webhook{}, fmt.Errorf("stack: waiting for a webhook: %w", ctx.Err())
		}
	}
}

// Close stops the receiver.
func (r *Receiver) Close() error { return r.srv.Close() }

func (r *Receiver) take(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, receiverBodyLimit))
	if err != nil {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	hook := Webhook{ID: req.Header.Get(standardwebhooks.HeaderWebhookID), ReceivedAt: time.Now().UTC(), Header: req.Header.Clone(), Body: body}
	var envelope struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(body, &envelope) == nil {
		hook.Type = envelope.Type
	}
	r.mu.Lock()
	verifier := r.verifier
	r.mu.Unlock()
	if err := verify(verifier, body, req.Header, r.opts.IgnoreTimestamp); err != nil {
		hook.VerifyError = err.Error()
	} else {
		hook.Verified = true
	}
	hook.Status = http.StatusOK
	if r.opts.Status != nil {
		hook.Status = r.opts.Status(hook)
	}
	r.record(hook)
	if r.opts.OnWebhook != nil {
		r.opts.OnWebhook(hook)
	}
	w.WriteHeader(hook.Status)
}

func verify(v *standardwebhooks.Webhook, body []byte, h http.Header, ignoreTimestamp bool) error {
	switch {
	case v == nil:
		return errors.New("no secret set")
	case ignoreTimestamp:
		return v.VerifyIgnoringTimestamp(body, h)
	default:
		return v.Verify(body, h)
	}
}

func (r *Receiver) record(hook Webhook) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.received = append(r.received, hook)
	close(r.arrived)
	r.arrived = make(chan struct{})
}

func (r *Receiver) events(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string][]Webhook{"data": r.Webhooks()})
}

// pageRow is one webhook as the page shows it.
type pageRow struct {
	Webhook
	Pretty string
}

func (r *Receiver) page(w http.ResponseWriter, _ *http.Request) {
	hooks := r.Webhooks()
	rows := make([]pageRow, 0, len(hooks))
	for _, h := range slices.Backward(hooks) {
		pretty := string(h.Body)
		var buf bytes.Buffer
		if json.Indent(&buf, h.Body, "", "  ") == nil {
			pretty = buf.String()
		}
		rows = append(rows, pageRow{Webhook: h, Pretty: pretty})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = receiverPage.Execute(w, struct {
		Endpoint string
		Rows     []pageRow
	}{r.EndpointURL(), rows})
}

var receiverPage = template.Must(template.New("receiver").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Webhooks received</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ddd;padding:.4rem .6rem;text-align:left;vertical-align:top}
pre{margin:0;font-size:.85rem;white-space:pre-wrap}
.no{color:#b00020}.yes{color:#1b7f3b}
</style></head><body>
<h1>Webhooks received</h1>
<p>Endpoint <code>{{.Endpoint}}</code>, newest first; reload to see new ones (JSON: <a href="/events">/events</a>).</p>
{{if .Rows}}<table>
<tr><th>webhook-id</th><th>type</th><th>received</th><th>verified</th><th>body</th></tr>
{{range .Rows}}<tr>
<td><code>{{.ID}}</code></td><td>{{.Type}}</td><td>{{.ReceivedAt.Format "2006-01-02 15:04:05Z07:00"}}</td>
<td>{{if .Verified}}<span class="yes">yes</span>{{else}}<span class="no">no</span> {{.VerifyError}}{{end}}</td>
<td><pre>{{.Pretty}}</pre></td>
</tr>{{end}}
</table>{{else}}<p>Nothing yet.</p>{{end}}
</body></html>
`))
