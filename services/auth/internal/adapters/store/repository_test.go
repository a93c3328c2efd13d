package store_test

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// operator is the actor of the changes these tests make.
var operator = domain.OperatorActor("198.51.100.7")

func organizer(t *testing.T, repo *store.Repository, at time.Time) domain.Organizer {
	t.Helper()
	o, err := domain.NewOrganizer("Trail Club", at)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.CreateOrganizer(t.Context(), operator, o); err != nil {
		t.Fatal(err)
	}
	return o
}

func key(t *testing.T, repo *store.Repository, orgID string, r domain.KeyRequest, at time.Time) domain.Key {
	t.Helper()
	k, _, err := domain.NewKey(orgID, r, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.CreateKey(t.Context(), operator, k); err != nil {
		t.Fatal(err)
	}
	return k
}

var secretReq = domain.KeyRequest{Type: "secret", Name: "backend", Scopes: []string{"events:read"}}

func publicReq(origins ...string) domain.KeyRequest {
	return domain.KeyRequest{Type: "publishable", Name: "site", AllowedOrigins: origins}
}

// outboxTypes returns the CloudEvents type of each outbox row for key id, in order.
func outboxTypes(t *testing.T, pool *pgxpool.Pool, id string) []string {
	t.Helper()
	rows, err := pool.Query(t.Context(), `SELECT headers->>'ce_type' FROM outbox WHERE key = $1 ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// auditActions returns the audit actions and actors about subject id, in order.
func auditActions(t *testing.T, pool *pgxpool.Pool, id string) []string {
	t.Helper()
	rows, err := pool.Query(t.Context(), `SELECT action || ' by ' || actor FROM audit_log WHERE subject_id = $1 ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestOrganizers(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	a := organizer(t, repo, t0)
	b := organizer(t, repo, t0.Add(time.Second))

	got, err := repo.Organizer(t.Context(), a.ID)
	if err != nil || got != a {
		t.Fatalf("Organizer = %+v, %v; want %+v", got, err, a)
	}
	if _, err := repo.Organizer(t.Context(), "org_missing"); !errors.Is(err, domain.ErrOrganizerNotFound) {
		t.Fatalf("unknown organizer: %v", err)
	}
	list, total, err := repo.Organizers(t.Context(), domain.Page{Limit: 1, Offset: 0})
	if err != nil || total != 2 || len(list) != 1 || list[0] != b {
		t.Fatalf("first page = %+v, total %d, %v; want the newest", list, total, err)
	}
	list, _, _ = repo.Organizers(t.Context(), domain.Page{Limit: 10, Offset: 1})
	if len(list) != 1 || list[0] != a {
		t.Fatalf("second page = %+v", list)
	}
}

func TestCreateAndListKeys(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	org := organizer(t, repo, t0)
	other := organizer(t, repo, t0)
	sk := key(t, repo, org.ID, domain.KeyRequest{Type: "secret", Name: "backend", Scopes: []string{"events:read", "pricing:read"}, ExpiresAt: "2027-01-01T00:00:00Z"}, t0)
	pk := key(t, repo, org.ID, publicReq("https://shop.example"), t0.Add(time.Second))
	key(t, repo, other.ID, secretReq, t0)

	list, total, err := repo.Keys(t.Context(), org.ID, "", domain.Page{Limit: 10})
	if err != nil || total != 2 || len(list) != 2 {
		t.Fatalf("Keys = %d of %d, %v", len(list), total, err)
	}
	if list[0].ID != pk.ID || list[1].ID != sk.ID {
		t.Fatalf("keys are not newest first: %s, %s", list[0].ID, list[1].ID)
	}
	got := list[1]
	if got.Hash != sk.Hash || got.Last4 != sk.Last4 || !slices.Equal(got.Scopes, sk.Scopes) || len(got.AllowedOrigins) != 0 ||
		!got.CreatedAt.Equal(t0) || !got.ExpiresAt.Equal(*sk.ExpiresAt) || got.RevokedAt != nil || got.LastUsedAt != nil {
		t.Fatalf("stored secret key %+v, created %+v", got, sk)
	}
	if !slices.Equal(list[0].AllowedOrigins, []string{"https://shop.example"}) || len(list[0].Scopes) != 0 {
		t.Fatalf("stored publishable key %+v", list[0])
	}
	if a := auditActions(t, pool, sk.ID); !slices.Equal(a, []string{"key.created by operator"}) {
		t.Fatalf("audit %q", a)
	}
	if ty := outboxTypes(t, pool, pk.ID); !slices.Equal(ty, []string{domain.EventKeyCreated}) {
		t.Fatalf("outbox %q", ty)
	}
	var payload map[string]any
	eventData(t, pool, pk.ID, domain.EventKeyCreated, &payload)
	want := map[string]any{"keyId": pk.ID, "organizerId": org.ID, "type": "publishable",
		"allowedOrigins": []any{"https://shop.example"}, "livemode": true, "createdAt": "2026-05-01T12:00:01Z"}
	if b, w := mustJSON(payload), mustJSON(want); b != w {
		t.Fatalf("created event %s, want %s", b, w)
	}
}

func TestCreateKeyRefusesUnknownOrganizerAndDuplicateHash(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	k, _, _ := domain.NewKey("org_missing", secretReq, t0)
	if err := repo.CreateKey(t.Context(), operator, k); !errors.Is(err, domain.ErrOrganizerNotFound) {
		t.Fatalf("unknown organizer: %v", err)
	}
	org := organizer(t, repo, t0)
	first := key(t, repo, org.ID, secretReq, t0)
	dup, _, _ := domain.NewKey(org.ID, secretReq, t0)
	dup.Hash = first.Hash
	if err := repo.CreateKey(t.Context(), operator, dup); !errors.Is(err, domain.ErrDuplicateKeyHash) {
		t.Fatalf("duplicate hash: %v", err)
	}
	if ty := outboxTypes(t, pool, dup.ID); len(ty) != 0 {
		t.Fatalf("a refused key left outbox rows %q", ty)
	}
}

func TestRevokeIsIdempotentAndWritesOneEvent(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	org := organizer(t, repo, t0)
	k := key(t, repo, org.ID, secretReq, t0)

	first, err := repo.RevokeKey(t.Context(), operator, "", k.ID, t0.Add(time.Minute))
	if err != nil || first.RevokedAt == nil || !first.RevokedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("first revoke = %+v, %v", first.RevokedAt, err)
	}
	again, err := repo.RevokeKey(t.Context(), operator, "", k.ID, t0.Add(time.Hour))
	if err != nil || !again.RevokedAt.Equal(*first.RevokedAt) {
		t.Fatalf("second revoke = %v, %v; want the first revocation time kept", again.RevokedAt, err)
	}
	if ty := outboxTypes(t, pool, k.ID); !slices.Equal(ty, []string{domain.EventKeyCreated, domain.EventKeyRevoked}) {
		t.Fatalf("outbox %q", ty)
	}
	if a := auditActions(t, pool, k.ID); !slices.Equal(a, []string{"key.created by operator", "key.revoked by operator"}) {
		t.Fatalf("audit %q", a)
	}
	var data domain.KeyRevoked
	eventData(t, pool, k.ID, domain.EventKeyRevoked, &data)
	if data.KeyHash != k.Hash || data.KeyID != k.ID || data.OrganizerID != org.ID || !data.RevokedAt.Equal(*first.RevokedAt) {
		t.Fatalf("revoked event %+v", data)
	}
	if _, err := repo.RevokeKey(t.Context(), operator, "", "key_missing", t0); !errors.Is(err, domain.ErrKeyNotFound) {
		t.Fatalf("unknown key: %v", err)
	}
}

func TestConcurrentRevokesWriteExactlyOneEvent(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	k := key(t, repo, organizer(t, repo, t0).ID, secretReq, t0)

	const n = 8
	times := make([]time.Time, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			got, err := repo.RevokeKey(t.Context(), operator, "", k.ID, t0.Add(time.Duration(i+1)*time.Second))
			if err != nil {
				t.Error(err)
				return
			}
			times[i] = *got.RevokedAt
		})
	}
	wg.Wait()
	for _, at := range times {
		if !at.Equal(times[0]) {
			t.Fatalf("revokers saw different revocation times: %v", times)
		}
	}
	if ty := outboxTypes(t, pool, k.ID); !slices.Equal(ty, []string{domain.EventKeyCreated, domain.EventKeyRevoked}) {
		t.Fatalf("outbox %q", ty)
	}
}

// TestRolledBackRevokeWritesNothing makes the revoke's transaction fail at commit, after the
// key update, the audit row and the outbox row were written, and checks that none survive.
func TestRolledBackRevokeWritesNothing(t *testing.T) {
	pool := authtest.Pool(t)
	repo := store.New(pool)
	k := key(t, repo, organizer(t, repo, t0).ID, secretReq, t0)
	_, err := pool.Exec(t.Context(), `
		CREATE FUNCTION refuse_commit() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN RAISE EXCEPTION 'commit refused by the test'; END $$;
		CREATE CONSTRAINT TRIGGER refuse_commit AFTER INSERT ON outbox
		DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_commit();`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.RevokeKey(t.Context(), operator, "", k.ID, t0.Add(time.Minute)); err == nil {
		t.Fatal("revoke succeeded although its commit was refused")
	}
	if ty := outboxTypes(t, pool, k.ID); !slices.Equal(ty, []string{domain.EventKeyCreated}) {
		t.Fatalf("outbox after a rolled-back revoke: %q", ty)
	}
	if a := auditActions(t, pool, k.ID); !slices.Equal(a, []string{"key.created by operator"}) {
		t.Fatalf("audit after a rolled-back revoke: %q", a)
	}
	list, _, _ := repo.Keys(t.Context(), k.OrganizerID, "", domain.Page{Limit: 10})
	if list[0].RevokedAt != nil {
		t.Fatal("the key is revoked although the transaction rolled back")
	}
}

// eventData decodes the data of the outbox message of type eventType about key id into v.
func eventData(t *testing.T, pool *pgxpool.Pool, id, eventType string, v any) {
	t.Helper()
	var b []byte
	if err := pool.QueryRow(t.Context(), `SELECT payload FROM outbox WHERE key = $1 AND headers->>'ce_type' = $2`, id, eventType).Scan(&b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
