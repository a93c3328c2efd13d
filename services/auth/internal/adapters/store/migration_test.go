package store_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/domain"
	"github.com/podiumhq/podium/services/auth/migrations"
)

// TestAuditLogMigrationCarriesTheKeyTrailOver fills key_audit at version 2, migrates up and
// reads the same trail from the audit log.
func TestAuditLogMigrationCarriesTheKeyTrailOver(t *testing.T) {
	url := testkit.DatabaseURL(t, testkit.MigrationsBefore(t, migrations.Set(), "00003_"))
	pool, err := postgres.Connect(t.Context(), url, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for _, stmt := range []string{
		`INSERT INTO organizers (id, name, created_at) VALUES ('org_a', 'A', $1), ('org_b', 'B', $1)`,
		`INSERT INTO api_keys (id, organizer_id, type, name, key_hash, last4, created_at) VALUES
			('key_1', 'org_a', 'secret', 'backend', 'h1', 'abcd', $1),
			('key_2', 'org_a', 'publishable', 'site', 'h2', 'efgh', $1),
			('key_3', 'org_b', 'secret', 'theirs', 'h3', 'ijkl', $1)`,
		`INSERT INTO key_audit (key_id, organizer_id, action, actor, at) VALUES
			('key_1', 'org_a', 'created', 'operator', $1),
			('key_2', 'org_a', 'created', 'operator', $1 + interval '1 second'),
			('key_3', 'org_b', 'created', 'operator', $1 + interval '2 seconds'),
			('key_1', 'org_a', 'revoked', 'operator', $1 + interval '3 seconds')`,
	} {
		if _, err := pool.Exec(t.Context(), stmt, t0); err != nil {
			t.Fatal(err)
		}
	}

	if err := postgres.Migrate(t.Context(), url, testkit.Discard(), migrations.Set()); err != nil {
		t.Fatal(err)
	}

	repo := store.New(pool)
	op := domain.OperatorActor("")
	wantAudit(t, auditLog(t, repo, "org_a"),
		domain.AuditEntry{OrganizerID: "org_a", Actor: op, Action: domain.AuditKeyRevoked, SubjectID: "key_1", Detail: "secret key backend", At: t0.Add(3 * time.Second)},
		domain.AuditEntry{OrganizerID: "org_a", Actor: op, Action: domain.AuditKeyCreated, SubjectID: "key_2", Detail: "publishable key site", At: t0.Add(time.Second)},
		domain.AuditEntry{OrganizerID: "org_a", Actor: op, Action: domain.AuditKeyCreated, SubjectID: "key_1", Detail: "secret key backend", At: t0},
	)
	wantAudit(t, auditLog(t, repo, "org_b"),
		domain.AuditEntry{OrganizerID: "org_b", Actor: op, Action: domain.AuditKeyCreated, SubjectID: "key_3", Detail: "secret key theirs", At: t0.Add(2 * time.Second)},
	)
	var gone bool
	if err := pool.QueryRow(t.Context(), `SELECT to_regclass('key_audit') IS NULL`).Scan(&gone); err != nil || !gone {
		t.Fatalf("key_audit is still there (%v)", err)
	}
}

// TestKeyModeMigrationMakesExistingKeysLive adds a key at version 5, migrates up and reads it
// as a live key; a later insert must state its mode.
func TestKeyModeMigrationMakesExistingKeysLive(t *testing.T) {
	url := testkit.DatabaseURL(t, testkit.MigrationsBefore(t, migrations.Set(), "00006_"))
	pool, err := postgres.Connect(t.Context(), url, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for _, stmt := range []string{
		`INSERT INTO organizers (id, name, created_at) VALUES ('org_a', 'A', $1)`,
		`INSERT INTO api_keys (id, organizer_id, type, name, key_hash, last4, created_at) VALUES ('key_1', 'org_a', 'secret', 'backend', 'h1', 'abcd', $1)`,
	} {
		if _, err := pool.Exec(t.Context(), stmt, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := postgres.Migrate(t.Context(), url, testkit.Discard(), migrations.Set()); err != nil {
		t.Fatal(err)
	}
	k, err := store.New(pool).KeyByHash(t.Context(), "h1")
	if err != nil || k.Mode != apikey.Live || k.Prefix() != apikey.SecretPrefix {
		t.Fatalf("migrated key %+v: %v", k, err)
	}
	_, err = pool.Exec(t.Context(), `INSERT INTO api_keys (id, organizer_id, type, name, key_hash, last4, created_at) VALUES ('key_2', 'org_a', 'secret', 'x', 'h2', 'efgh', $1)`, t0)
	if err == nil {
		t.Fatal("a key inserted without a mode was stored")
	}
}
