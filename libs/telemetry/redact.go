package telemetry

import (
	"context"
	"net/url"
	"slices"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Redacted replaces the value of each query parameter in the URLs spans carry.
const Redacted = "REDACTED"

// urlKeys are the attributes of OpenTelemetry's HTTP conventions that hold a URL or its query
// (otelhttp records url.full on every client span).
var urlKeys = map[attribute.Key]bool{"url.full": true, "url.query": true}

// redactingExporter exports spans with the values of every URL query replaced by Redacted: a
// query may carry a token (a preview token, a signed link), and whoever reads traces must not
// be able to use it. The parameters' names stay, which is what reading a trace needs.
type redactingExporter struct{ sdktrace.SpanExporter }

func (e redactingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	var out []sdktrace.ReadOnlySpan
	for i, s := range spans {
		attrs, changed := redactAttributes(s.Attributes())
		if !changed {
			continue
		}
		if out == nil {
			out = slices.Clone(spans)
		}
		out[i] = redactedSpan{ReadOnlySpan: s, attrs: attrs}
	}
	if out == nil {
		out = spans
	}
	return e.SpanExporter.ExportSpans(ctx, out)
}

// redactedSpan is a span whose attributes were redacted.
type redactedSpan struct {
	sdktrace.ReadOnlySpan
	attrs []attribute.KeyValue
}

func (s redactedSpan) Attributes() []attribute.KeyValue { return s.attrs }

// redactAttributes returns attrs with the query values of their URLs redacted, and whether any was.
func redactAttributes(attrs []attribute.KeyValue) ([]attribute.KeyValue, bool) {
	var out []attribute.KeyValue
	for i, a := range attrs {
		if !urlKeys[a.Key] || a.Value.Type() != attribute.STRING {
			continue
		}
		r, ok := redactQuery(a.Key, a.Value.AsString())
		if !ok {
			continue
		}
		if out == nil {
			out = append([]attribute.KeyValue(nil), attrs...)
		}
		out[i] = attribute.String(string(a.Key), r)
	}
	return out, out != nil
}

// redactQuery returns v (a URL, or a bare query for url.query) with each query value redacted,
// and whether it had any. A URL that does not parse is redacted whole.
func redactQuery(key attribute.Key, v string) (string, bool) {
	raw := v
	var u *url.URL
	if key == "url.full" {
		var err error
		if u, err = url.Parse(v); err != nil {
			return Redacted, true
		}
		raw = u.RawQuery
	}
	if raw == "" {
		return v, false
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return Redacted, true
	}
	for k, vs := range q {
		for i := range vs {
			vs[i] = Redacted
		}
		q[k] = vs
	}
	if u == nil {
		return q.Encode(), true
	}
	u.RawQuery = q.Encode()
	return u.String(), true
}
