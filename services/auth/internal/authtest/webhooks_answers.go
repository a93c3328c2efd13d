package authtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// answerFunc answers one operation of the webhooks contract for the organizer.
type answerFunc func(w *Webhooks, org string, r *http.Request, body []byte) (int, any)

// answers are the double's answers by operation id; each runs holding w.mu.
var answers = map[string]answerFunc{
	"listWebhookEndpoints":        listEndpoints,
	"createWebhookEndpoint":       createEndpoint,
	"getWebhookEndpoint":          withEndpoint(func(_ *Webhooks, e *HookEndpoint, _ *http.Request, _ []byte) (int, any) { return http.StatusOK, e }),
	"updateWebhookEndpoint":       withEndpoint(updateEndpoint),
	"deleteWebhookEndpoint":       withEndpoint(deleteEndpoint),
	"rotateWebhookEndpointSecret": withEndpoint(rotateSecret),
	"testWebhookEndpoint":         withEnabled(sendTest),
	"listWebhookDeliveries":       withEndpoint(listDeliveries),
	"getWebhookDelivery":          withEndpoint(withDelivery(getDelivery)),
	"retryWebhookDelivery":        withEnabled(withDelivery(retryDelivery)),
	"recoverWebhookDeliveries":    withEnabled(recoverDeliveries),
	// Only registration deletes test data: the service refuses auth's tokens there.
	"deleteOrganizerTestData": func(*Webhooks, string, *http.Request, []byte) (int, any) {
		return http.StatusForbidden, errorBody(http.StatusForbidden, "only registration deletes test data")
	},
}

func (w *Webhooks) answer(opID, org string, r *http.Request, body []byte) (int, any) {
	return answers[opID](w, org, r, body)
}

// segment returns the i-th segment of the path (/internal/v1/webhook-endpoints/{4}/deliveries/{6}).
func segment(r *http.Request, i int) string {
	parts := strings.Split(r.URL.Path, "/")
	if i < len(parts) {
		return parts[i]
	}
	return ""
}

// endpointAnswer answers an operation on one of the organizer's endpoints.
type endpointAnswer func(w *Webhooks, e *HookEndpoint, r *http.Request, body []byte) (int, any)

func withEndpoint(f endpointAnswer) answerFunc {
	return func(w *Webhooks, org string, r *http.Request, body []byte) (int, any) {
		e := w.endpoint(org, segment(r, 4))
		if e == nil {
			return notFound("webhook endpoint")
		}
		return f(w, e, r, body)
	}
}

// withEnabled answers as the service does on an endpoint that must be enabled: 409
// webhook_endpoint_disabled for a disabled one.
func withEnabled(f endpointAnswer) answerFunc {
	return withEndpoint(func(w *Webhooks, e *HookEndpoint, r *http.Request, body []byte) (int, any) {
		if e.Status != "enabled" {
			b := errorBody(http.StatusConflict, "the webhook endpoint is disabled; enable it with an update first")
			b["code"] = "webhook_endpoint_disabled"
			return http.StatusConflict, b
		}
		return f(w, e, r, body)
	})
}

func withDelivery(f func(w *Webhooks, d *HookDelivery) (int, any)) endpointAnswer {
	return func(w *Webhooks, e *HookEndpoint, r *http.Request, _ []byte) (int, any) {
		for _, d := range w.deliveries[e.ID] {
			if d.ID == segment(r, 6) {
				return f(w, d)
			}
		}
		return notFound("delivery")
	}
}

// page reads limit and offset as the service does (limit 1..100, default 50).
func page(query string) (limit, offset int, problems []string) {
	limit = 50
	for part := range strings.SplitSeq(query, "&") {
		name, value, _ := strings.Cut(part, "=")
		n, err := strconv.Atoi(value)
		switch {
		case name == "limit" && (err != nil || n < 1 || n > 100):
			problems = append(problems, "limit must be an integer from 1 to 100")
		case name == "limit":
			limit = n
		case name == "offset" && (err != nil || n < 0 || n > 1_000_000):
			problems = append(problems, "offset must be an integer from 0 to 1000000")
		case name == "offset":
			offset = n
		}
	}
	return limit, offset, problems
}

// listPage answers a page of items, newest first.
func listPage[T any](items []T, query string) (int, any) {
	limit, offset, problems := page(query)
	if problems != nil {
		return http.StatusBadRequest, errorBody(http.StatusBadRequest, problems)
	}
	newest := append([]T{}, items...)
	slices.Reverse(newest)
	data := newest[min(offset, len(newest)):min(offset+limit, len(newest))]
	return http.StatusOK, map[string]any{"data": data, "total": len(items), "limit": limit, "offset": offset}
}

func listEndpoints(w *Webhooks, org string, r *http.Request, _ []byte) (int, any) {
	var mine []*HookEndpoint
	for _, e := range w.endpoints {
		if e.OrganizerID == org {
			mine = append(mine, e)
		}
	}
	return listPage(mine, r.URL.RawQuery)
}

// maxEndpoints is the double's MAX_ENDPOINTS.
const maxEndpoints = 16

func createEndpoint(w *Webhooks, org string, _ *http.Request, body []byte) (int, any) {
	var req struct {
		URL         string   `json:"url"`
		EventTypes  []string `json:"eventTypes"`
		Description string   `json:"description"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return http.StatusBadRequest, errorBody(http.StatusBadRequest, []string{err.Error()})
	}
	if !strings.HasPrefix(req.URL, "https://") || len(req.URL) <= len("https://") {
		return http.StatusBadRequest, errorBody(http.StatusBadRequest, []string{"url must be an https URL"})
	}
	if len(req.EventTypes) == 0 {
		return http.StatusBadRequest, errorBody(http.StatusBadRequest, []string{"eventTypes must have at least 1 item"})
	}
	n := 0
	for _, e := range w.endpoints {
		if e.OrganizerID == org {
			n++
		}
	}
	if n >= maxEndpoints {
		b := errorBody(http.StatusConflict, "the organization has 16 webhook endpoints, as many as it may; delete one first")
		b["code"] = "webhook_endpoint_limit"
		return http.StatusConflict, b
	}
	e := w.addEndpoint(org, req.URL, req.EventTypes, req.Description)
	return http.StatusCreated, withSecret(e, nil)
}

// withSecret is the endpoint with its current secret, and the end of the previous one.
func withSecret(e *HookEndpoint, previousExpiresAt *time.Time) any {
	raw, _ := json.Marshal(e)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	m["secret"] = e.Secrets[0]
	if previousExpiresAt != nil {
		m["previousSecretExpiresAt"] = previousExpiresAt
	}
	return m
}

func updateEndpoint(w *Webhooks, e *HookEndpoint, _ *http.Request, body []byte) (int, any) {
	var req struct {
		Enabled *bool `json:"enabled"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return http.StatusBadRequest, errorBody(http.StatusBadRequest, []string{err.Error()})
	}
	now := w.clock.Now()
	switch {
	case req.Enabled == nil:
	case *req.Enabled:
		e.Status, e.DisabledReason, e.DisabledAt, e.FailingSince = "enabled", nil, nil, nil
	case e.Status == "enabled":
		reason := "organizer"
		e.Status, e.DisabledReason, e.DisabledAt = "disabled", &reason, &now
	}
	e.UpdatedAt = now
	return http.StatusOK, e
}

// deleteEndpoint removes the endpoint with its deliveries and answers it as it was.
func deleteEndpoint(w *Webhooks, e *HookEndpoint, _ *http.Request, _ []byte) (int, any) {
	w.endpoints = slices.DeleteFunc(w.endpoints, func(x *HookEndpoint) bool { return x == e })
	delete(w.deliveries, e.ID)
	return http.StatusOK, e
}

func rotateSecret(w *Webhooks, e *HookEndpoint, _ *http.Request, _ []byte) (int, any) {
	e.Secrets = append([]string{newSecret(w.t)}, e.Secrets[0])
	expires := w.clock.Now().Add(24 * time.Hour)
	return http.StatusOK, withSecret(e, &expires)
}

func sendTest(w *Webhooks, e *HookEndpoint, _ *http.Request, _ []byte) (int, any) {
	return http.StatusAccepted, map[string]any{"delivery": w.addDelivery(e.ID, "ping")}
}

func listDeliveries(w *Webhooks, e *HookEndpoint, r *http.Request, _ []byte) (int, any) {
	return listPage(w.deliveries[e.ID], r.URL.RawQuery)
}

func getDelivery(_ *Webhooks, d *HookDelivery) (int, any) {
	raw, _ := json.Marshal(d)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	m["attemptLog"] = d.AttemptLog
	if d.AttemptLog == nil {
		m["attemptLog"] = []HookAttempt{}
	}
	return http.StatusOK, m
}

func retryDelivery(w *Webhooks, d *HookDelivery) (int, any) {
	now := w.clock.Now()
	d.Status, d.NextAttemptAt, d.FinishedAt = "pending", &now, nil
	return http.StatusAccepted, d
}

func recoverDeliveries(w *Webhooks, e *HookEndpoint, _ *http.Request, body []byte) (int, any) {
	var req struct {
		Since time.Time `json:"since"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return http.StatusBadRequest, errorBody(http.StatusBadRequest, []string{err.Error()})
	}
	n := 0
	for _, d := range w.deliveries[e.ID] {
		if d.Status == "failed" && !d.CreatedAt.Before(req.Since) {
			_, _ = retryDelivery(w, d)
			n++
		}
	}
	return http.StatusAccepted, map[string]any{"recovered": n}
}
