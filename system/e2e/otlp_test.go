package e2e

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/podiumhq/podium/libs/testkit"
)

// span is what the tests need of an exported span.
type span struct {
	service  string
	traceID  string
	spanID   string
	parentID string // "" for a root
	name     string
	kind     tracev1.Span_SpanKind
	attrs    map[string]string // string values only
	links    []string          // the trace ids the span links to
}

// mentions reports whether one of the span's attribute values contains v.
func (s span) mentions(v string) bool {
	for _, a := range s.attrs {
		if strings.Contains(a, v) {
			return true
		}
	}
	return false
}

// otlpReceiver accepts OTLP/HTTP trace exports from the services under test.
type otlpReceiver struct {
	url   string
	mu    sync.Mutex
	spans []span
}

func startOTLPReceiver() (*otlpReceiver, func(), error) {
	r := &otlpReceiver{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(r.export), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	r.url = "http://" + ln.Addr().String()
	return r, func() { srv.Close() }, nil
}

func (r *otlpReceiver) export(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	var msg collectortrace.ExportTraceServiceRequest
	if err != nil || proto.Unmarshal(body, &msg) != nil {
		http.Error(w, "bad export", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range msg.ResourceSpans {
		service := ""
		for _, a := range rs.Resource.GetAttributes() {
			if a.Key == "service.name" {
				service = a.Value.GetStringValue()
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.spans = append(r.spans, toSpan(service, s))
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(nil)
}

// waitFor returns the spans matching pred once at least n have arrived, or fails the test.
func (r *otlpReceiver) waitFor(t *testing.T, n int, pred func(span) bool) []span {
	t.Helper()
	var out []span
	testkit.Eventually(t, 20*time.Second, func() string {
		r.mu.Lock()
		defer r.mu.Unlock()
		out = out[:0]
		for _, s := range r.spans {
			if pred(s) {
				out = append(out, s)
			}
		}
		if len(out) < n {
			return fmt.Sprintf("only %d matching spans exported within 20s, want %d", len(out), n)
		}
		return ""
	})
	return out
}

// trace returns the spans of a trace exported so far.
func (r *otlpReceiver) trace(traceID string) []span {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []span
	for _, s := range r.spans {
		if s.traceID == traceID {
			out = append(out, s)
		}
	}
	return out
}

func toSpan(service string, s *tracev1.Span) span {
	out := span{
		service: service, traceID: hexID(s.TraceId), spanID: hexID(s.SpanId), parentID: hexID(s.ParentSpanId),
		name: s.Name, kind: s.Kind, attrs: map[string]string{},
	}
	for _, a := range s.Attributes {
		out.attrs[a.Key] = a.Value.GetStringValue()
	}
	for _, l := range s.Links {
		out.links = append(out.links, hexID(l.TraceId))
	}
	return out
}

func hexID(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}
