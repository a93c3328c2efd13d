package api

import (
	"time"

	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// The admin API's views are exported for its client, the operator CLI (internal/cli).

// OrganizerView is an organizer as the admin API returns it.
type OrganizerView struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// CreatedOrganizerView is a new organizer with its first owner, when one was given.
type CreatedOrganizerView struct {
	OrganizerView
	Owner *MemberView `json:"owner,omitempty"`
}

// MemberView is a member of an organization.
type MemberView struct {
	ID          string    `json:"id"`
	OrganizerID string    `json:"organizerId"`
	Email       string    `json:"email"`
	Role        string    `json:"role"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// KeyView is a key as listed: never the key itself, only its prefix and last four characters.
type KeyView struct {
	ID             string     `json:"id"`
	OrganizerID    string     `json:"organizerId"`
	Type           string     `json:"type"`
	Mode           string     `json:"mode"`
	Name           string     `json:"name"`
	Prefix         string     `json:"prefix"`
	Last4          string     `json:"last4"`
	Scopes         []string   `json:"scopes"`
	AllowedOrigins []string   `json:"allowedOrigins"`
	CreatedAt      time.Time  `json:"createdAt"`
	LastUsedAt     *time.Time `json:"lastUsedAt"`
	ExpiresAt      *time.Time `json:"expiresAt"`
	RevokedAt      *time.Time `json:"revokedAt"`
}

// CreatedKeyView is a new key: the listing fields plus the full key, shown this once.
type CreatedKeyView struct {
	Key string `json:"key"`
	KeyView
}

// verifiedKeyView is what the gateway needs to authenticate a request with a key.
type verifiedKeyView struct {
	ID             string     `json:"id"`
	OrganizerID    string     `json:"organizerId"`
	Type           string     `json:"type"`
	Mode           string     `json:"mode"`
	Scopes         []string   `json:"scopes"`
	AllowedOrigins []string   `json:"allowedOrigins"`
	ExpiresAt      *time.Time `json:"expiresAt"`
	RevokedAt      *time.Time `json:"revokedAt"`
}

// AuditEntryView is one recorded change of an organization.
type AuditEntryView struct {
	ID          int64     `json:"id"`
	OrganizerID string    `json:"organizerId"`
	Actor       string    `json:"actor"`
	Address     string    `json:"address"`
	Action      string    `json:"action"`
	SubjectID   string    `json:"subjectId"`
	Detail      string    `json:"detail"`
	At          time.Time `json:"at"`
}

// ListView is a page of a list.
type ListView[T any] struct {
	Data   []T `json:"data"`
	Total  int `json:"total"`
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

func newOrganizerView(o domain.Organizer) OrganizerView {
	return OrganizerView{ID: o.ID, Name: o.Name, CreatedAt: o.CreatedAt.UTC()}
}

func newCreatedOrganizerView(o app.CreatedOrganizer) CreatedOrganizerView {
	v := CreatedOrganizerView{OrganizerView: newOrganizerView(o.Organizer)}
	if o.Owner != nil {
		owner := newMemberView(*o.Owner)
		v.Owner = &owner
	}
	return v
}

func newMemberView(m domain.Member) MemberView {
	return MemberView{ID: m.ID, OrganizerID: m.OrganizerID, Email: m.Email, Role: string(m.Role), CreatedAt: m.CreatedAt.UTC(), UpdatedAt: m.UpdatedAt.UTC()}
}

func newAuditEntryView(e domain.AuditEntry) AuditEntryView {
	return AuditEntryView{
		ID: e.ID, OrganizerID: e.OrganizerID, Actor: e.Actor.Email, Address: e.Actor.Address,
		Action: string(e.Action), SubjectID: e.SubjectID, Detail: e.Detail, At: e.At.UTC(),
	}
}

func newKeyView(k domain.Key) KeyView {
	return KeyView{
		ID: k.ID, OrganizerID: k.OrganizerID, Type: string(k.Type), Mode: string(k.Mode), Name: k.Name, Prefix: k.Prefix(), Last4: k.Last4,
		Scopes: orEmpty(k.Scopes), AllowedOrigins: orEmpty(k.AllowedOrigins), CreatedAt: k.CreatedAt.UTC(),
		LastUsedAt: utc(k.LastUsedAt), ExpiresAt: utc(k.ExpiresAt), RevokedAt: utc(k.RevokedAt),
	}
}

func newCreatedKeyView(k app.CreatedKey) CreatedKeyView {
	return CreatedKeyView{Key: k.Secret, KeyView: newKeyView(k.Key)}
}

func newVerifiedKeyView(k domain.Key) verifiedKeyView {
	return verifiedKeyView{
		ID: k.ID, OrganizerID: k.OrganizerID, Type: string(k.Type), Mode: string(k.Mode),
		Scopes: orEmpty(k.Scopes), AllowedOrigins: orEmpty(k.AllowedOrigins),
		ExpiresAt: utc(k.ExpiresAt), RevokedAt: utc(k.RevokedAt),
	}
}

func mapAll[T, V any](in []T, f func(T) V) []V {
	out := make([]V, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
