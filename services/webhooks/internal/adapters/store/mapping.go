package store

import (
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

func toEndpoint(r db.Endpoint) domain.Endpoint {
	return domain.Endpoint{
		ID: r.ID, OrganizerID: r.OrganizerID, Livemode: r.Livemode, URL: r.Url, Description: r.Description,
		EventTypes: r.EventTypes, Status: r.Status, DisabledReason: deref(r.DisabledReason), DisabledAt: utc(r.DisabledAt),
		FailingSince: utc(r.FailingSince), NotifiedAt: utc(r.NotifiedAt), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

func toDelivery(d db.Delivery, typ string) domain.Delivery {
	return domain.Delivery{
		ID: d.ID, EndpointID: d.EndpointID, MessageID: d.MessageID, Type: typ, Status: d.Status, Attempts: int(d.Attempts),
		LastStatusCode: toInt(d.LastStatusCode), LastLatencyMs: toInt(d.LastLatencyMs), LastError: deref(d.LastError),
		NextAttemptAt: utc(d.NextAttemptAt), CreatedAt: d.CreatedAt.UTC(), FinishedAt: utc(d.FinishedAt),
	}
}

func toAttempt(a db.Attempt) domain.Attempt {
	return domain.Attempt{N: int(a.N), StartedAt: a.StartedAt.UTC(), StatusCode: toInt(a.StatusCode), LatencyMs: int(a.LatencyMs), Error: a.Error}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func orNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func toInt(v *int32) *int {
	if v == nil {
		return nil
	}
	n := int(*v)
	return &n
}
