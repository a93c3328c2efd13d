package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// clashingRepo is a Repository whose key inserts clash on the hash a given number of times.
// Only the methods CreateKey, RevokeOrganizerKey and OriginAllowed use are implemented.
type clashingRepo struct {
	app.Repository
	clashes  int
	inserts  int
	lookups  int
	revokes  int
	orgFound bool
}

func (r *clashingRepo) Organizer(context.Context, string) (domain.Organizer, error) {
	if !r.orgFound {
		return domain.Organizer{}, domain.ErrOrganizerNotFound
	}
	return domain.Organizer{ID: "org_1"}, nil
}

func (r *clashingRepo) CreateKey(context.Context, domain.Actor, domain.Key) error {
	r.inserts++
	if r.inserts <= r.clashes {
		return domain.ErrDuplicateKeyHash
	}
	return nil
}

func (r *clashingRepo) RevokeKey(context.Context, domain.Actor, string, string, time.Time) (domain.Key, error) {
	r.revokes++
	return domain.Key{}, nil
}

func (r *clashingRepo) OriginAllowed(context.Context, string, time.Time) (bool, error) {
	r.lookups++
	return true, nil
}

var operator = domain.OperatorActor("198.51.100.7")

var secret = domain.KeyRequest{Type: "secret", Name: "backend", Scopes: []string{"events:read"}}

// clock is the service's clock in these tests: a fixed instant, as none of them is about time.
func clock() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) }

func TestCreateKeyRetriesAHashClash(t *testing.T) {
	repo := &clashingRepo{clashes: 2, orgFound: true}
	k, err := app.New(repo, clock).CreateKey(t.Context(), operator, "org_1", secret)
	if err != nil || repo.inserts != 3 || k.Secret == "" {
		t.Fatalf("CreateKey = %v after %d inserts", err, repo.inserts)
	}
	repo = &clashingRepo{clashes: 3, orgFound: true}
	if _, err := app.New(repo, clock).CreateKey(t.Context(), operator, "org_1", secret); !errors.Is(err, domain.ErrDuplicateKeyHash) || repo.inserts != 3 {
		t.Fatalf("CreateKey = %v after %d inserts; want to give up after 3", err, repo.inserts)
	}
}

func TestCreateKeyChecksTheOrganizerFirst(t *testing.T) {
	repo := &clashingRepo{}
	_, err := app.New(repo, clock).CreateKey(t.Context(), operator, "org_missing", domain.KeyRequest{})
	if !errors.Is(err, domain.ErrOrganizerNotFound) || repo.inserts != 0 {
		t.Fatalf("CreateKey = %v", err)
	}
}

// TestRevokeOrganizerKeyNeedsAnOrganizer checks that an empty organizer id, which the
// repository reads as any organizer, finds no key.
func TestRevokeOrganizerKeyNeedsAnOrganizer(t *testing.T) {
	repo := &clashingRepo{}
	if _, err := app.New(repo, clock).RevokeOrganizerKey(t.Context(), operator, "", "key_1"); !errors.Is(err, domain.ErrKeyNotFound) || repo.revokes != 0 {
		t.Fatalf("RevokeOrganizerKey without an organizer = %v after %d revocations", err, repo.revokes)
	}
}

func TestOriginAllowedSkipsTheLookupForMalformedOrigins(t *testing.T) {
	repo := &clashingRepo{}
	svc := app.New(repo, clock)
	for _, origin := range []string{"null", "https://shop.example/", "http://shop.example"} {
		if ok, err := svc.OriginAllowed(t.Context(), origin); ok || err != nil {
			t.Fatalf("OriginAllowed(%q) = %v, %v", origin, ok, err)
		}
	}
	if ok, _ := svc.OriginAllowed(t.Context(), "https://SHOP.example"); !ok || repo.lookups != 1 {
		t.Fatalf("a valid origin was not looked up (%d lookups)", repo.lookups)
	}
}
