package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func TestKeyByHashAndRecordKeyUses(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	org := organizer(t, repo, t0).ID
	a, b := key(t, repo, org, secretReq, t0), key(t, repo, org, publicReq("https://shop.example"), t0)
	got, err := repo.KeyByHash(t.Context(), a.Hash)
	if err != nil || got.ID != a.ID || got.LastUsedAt != nil {
		t.Fatalf("KeyByHash = %+v, %v", got, err)
	}
	if _, err := repo.KeyByHash(t.Context(), "0000000000000000000000000000000000000000000000000000000000000000"); !errors.Is(err, domain.ErrKeyNotFound) {
		t.Fatalf("unknown hash: %v", err)
	}
	used := t0.Add(3 * time.Hour)
	if err := repo.RecordKeyUses(t.Context(), map[string]time.Time{a.ID: used, b.ID: used.Add(time.Minute), "key_gone": used}); err != nil {
		t.Fatal(err)
	}
	// A use older than the one stored (a flush retried after a later one) changes nothing.
	if err := repo.RecordKeyUses(t.Context(), map[string]time.Time{a.ID: used.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]time.Time{a.Hash: used, b.Hash: used.Add(time.Minute)} {
		got, err := repo.KeyByHash(t.Context(), k)
		if err != nil || got.LastUsedAt == nil || !got.LastUsedAt.Equal(want) {
			t.Fatalf("key %s lastUsedAt %v (%v), want %v", got.ID, got.LastUsedAt, err, want)
		}
	}
}

func TestOriginAllowed(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	org := organizer(t, repo, t0)
	key(t, repo, org.ID, publicReq("https://a.example", "https://b.example"), t0)
	revoked := key(t, repo, org.ID, publicReq("https://revoked.example"), t0)
	if _, err := repo.RevokeKey(t.Context(), operator, "", revoked.ID, t0); err != nil {
		t.Fatal(err)
	}
	expiring := publicReq("https://expiring.example")
	expiring.ExpiresAt = t0.Add(time.Hour).Format(time.RFC3339)
	key(t, repo, org.ID, expiring, t0)

	for origin, want := range map[string]bool{
		"https://a.example": true, "https://b.example": true, "https://c.example": false,
		"https://revoked.example": false, "https://expiring.example": true,
	} {
		if got, err := repo.OriginAllowed(t.Context(), origin, t0); err != nil || got != want {
			t.Errorf("OriginAllowed(%s) = %v, %v; want %v", origin, got, err, want)
		}
	}
	if got, _ := repo.OriginAllowed(t.Context(), "https://expiring.example", t0.Add(time.Hour)); got {
		t.Error("an origin of an expired key is allowed")
	}
}
