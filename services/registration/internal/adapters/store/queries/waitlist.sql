-- name: InsertWaitlistEntry :one
-- Puts an address in line, or returns its entry already in line or offered (a join again).
INSERT INTO waitlist_entries (id, organizer_id, livemode, event_id, category_id, event_name, category_name,
    email, name, team_size, offer_url, status, created_at, updated_at)
VALUES (sqlc.arg(id), sqlc.arg(organizer_id), sqlc.arg(livemode), sqlc.arg(event_id), sqlc.arg(category_id),
    sqlc.arg(event_name), sqlc.arg(category_name), sqlc.arg(email), sqlc.arg(name), sqlc.arg(team_size),
    sqlc.arg(offer_url), 'WAITING', sqlc.arg(now), sqlc.arg(now))
ON CONFLICT (category_id, livemode, email) WHERE status IN ('WAITING', 'OFFERED') DO UPDATE SET updated_at = waitlist_entries.updated_at
RETURNING *;

-- name: WaitlistPosition :one
-- How many wait in line ahead of an entry, plus one (0 for an entry not in line).
SELECT CASE WHEN w.status = 'WAITING' THEN (
    SELECT count(*)::int + 1 FROM waitlist_entries a
    WHERE a.category_id = w.category_id AND a.livemode = w.livemode AND a.status = 'WAITING' AND a.seq < w.seq)
  ELSE 0 END::int
FROM waitlist_entries w WHERE w.id = $1;

-- name: CountWaiting :one
SELECT count(*)::int FROM waitlist_entries WHERE category_id = $1 AND livemode = $2 AND status = 'WAITING';

-- name: WaitlistIsClosed :one
SELECT EXISTS (SELECT 1 FROM waitlist_closed WHERE category_id = $1 AND livemode = $2);

-- name: CategoriesToOffer :many
-- Categories whose ledger has a free place while someone waits in line and the waitlist is open.
SELECT p.category_id, p.livemode, p.event_id FROM places p
WHERE p.quota IS NOT NULL AND p.confirmed + p.held < p.quota
  AND EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.category_id = p.category_id AND w.livemode = p.livemode AND w.status = 'WAITING')
  AND NOT EXISTS (SELECT 1 FROM waitlist_closed c WHERE c.category_id = p.category_id AND c.livemode = p.livemode)
ORDER BY p.category_id, p.livemode
LIMIT sqlc.arg(max_rows);

-- name: WaitingCategories :many
-- The categories (with their organizer and event) where someone waits in line, for the quota refresh.
SELECT DISTINCT organizer_id, livemode, event_id, category_id FROM waitlist_entries
WHERE status = 'WAITING' ORDER BY organizer_id, livemode, event_id, category_id LIMIT sqlc.arg(max_rows);

-- name: RaiseQuota :exec
-- Lets the ledger know a quota the catalog raised (or set on a category its places were first
-- taken without one), so the places it frees can be offered.
UPDATE places SET quota = sqlc.arg(quota)::int, version = version + 1
WHERE category_id = sqlc.arg(category_id) AND livemode = sqlc.arg(livemode)
  AND (quota < sqlc.arg(quota)::int OR quota IS NULL AND confirmed + held <= sqlc.arg(quota)::int);

-- name: FirstInLine :one
-- The first entry in line, locked; an entry another transaction is offering is skipped.
SELECT * FROM waitlist_entries
WHERE category_id = $1 AND livemode = $2 AND status = 'WAITING'
ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED;

-- name: HoldOfferPlace :one
-- Holds one place of a category for an offer, if the ledger's quota allows.
UPDATE places SET held = held + 1, version = version + 1
WHERE category_id = sqlc.arg(category_id) AND livemode = sqlc.arg(livemode)
  AND quota IS NOT NULL AND confirmed + held + 1 <= quota
RETURNING category_id, event_id;

-- name: SetOffered :exec
UPDATE waitlist_entries SET status = 'OFFERED', offer_hash = sqlc.arg(offer_hash), offered_at = sqlc.arg(now)::timestamptz,
    offer_expires_at = sqlc.arg(expires_at)::timestamptz, updated_at = sqlc.arg(now)::timestamptz
WHERE id = sqlc.arg(id);

-- name: SetWaitlistStatus :exec
UPDATE waitlist_entries SET status = sqlc.arg(status), order_id = sqlc.narg(order_id), updated_at = sqlc.arg(now)
WHERE id = sqlc.arg(id);

-- name: LapsedOffers :many
SELECT id, livemode FROM waitlist_entries
WHERE status = 'OFFERED' AND offer_expires_at <= sqlc.arg(now)::timestamptz
ORDER BY offer_expires_at LIMIT sqlc.arg(max_rows);

-- name: WaitlistEntryForUpdate :one
SELECT * FROM waitlist_entries WHERE id = $1 FOR UPDATE;

-- name: OfferForUpdate :one
SELECT * FROM waitlist_entries WHERE offer_hash = $1 AND organizer_id = $2 AND livemode = $3 FOR UPDATE;

-- name: ListWaitlist :many
-- A page of a category's waitlist in line order, with each waiting entry's position.
SELECT w.*, (CASE WHEN w.status = 'WAITING'
    THEN row_number() OVER (PARTITION BY w.status = 'WAITING' ORDER BY w.seq) ELSE 0 END)::int AS position
FROM waitlist_entries w
WHERE w.organizer_id = $1 AND w.livemode = $2 AND w.category_id = $3
ORDER BY w.seq LIMIT sqlc.arg(max_rows) OFFSET sqlc.arg(skip);

-- name: CountWaitlist :one
SELECT count(*)::int FROM waitlist_entries WHERE organizer_id = $1 AND livemode = $2 AND category_id = $3;

-- name: CloseWaitlist :execrows
INSERT INTO waitlist_closed (category_id, livemode, organizer_id, closed_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (category_id, livemode) DO NOTHING;

-- name: CloseWaitingEntries :execrows
UPDATE waitlist_entries SET status = 'CLOSED', updated_at = sqlc.arg(now)
WHERE organizer_id = $1 AND livemode = $2 AND category_id = $3 AND status = 'WAITING';

-- name: DeleteTestWaitlist :execrows
DELETE FROM waitlist_entries WHERE organizer_id = $1 AND NOT livemode;

-- name: DeleteTestWaitlistClosed :exec
DELETE FROM waitlist_closed WHERE organizer_id = $1 AND NOT livemode;

-- name: WaitlistClosedBy :one
SELECT organizer_id FROM waitlist_closed WHERE category_id = $1 AND livemode = $2;

-- name: PlacesAndLine :one
-- A category's ledger counts with how many wait in its open waitlist, its ledger row locked: the
-- holds and offers of a category decide one after another on counts no one else is changing.
SELECT p.confirmed, p.held,
    (SELECT count(*) FROM waitlist_entries w
     WHERE w.category_id = p.category_id AND w.livemode = p.livemode AND w.status = 'WAITING'
       AND NOT EXISTS (SELECT 1 FROM waitlist_closed c WHERE c.category_id = p.category_id AND c.livemode = p.livemode))::int AS waiting
FROM places p WHERE p.category_id = $1 AND p.livemode = $2
FOR UPDATE OF p;

-- name: ActiveWaitlistEntry :one
-- An address's entry in line or offered in a category (a join again answers it).
SELECT * FROM waitlist_entries
WHERE category_id = $1 AND livemode = $2 AND email = $3 AND status IN ('WAITING', 'OFFERED');

-- name: LockEmailJoins :one
-- The join window of an e-mail with an organizer in a mode, created empty if new, locked
-- until the join commits or rolls back.
INSERT INTO waitlist_email_joins (organizer_id, livemode, email, window_start, joins)
VALUES (sqlc.arg(organizer_id), sqlc.arg(livemode), sqlc.arg(email), sqlc.arg(now), 0)
ON CONFLICT (organizer_id, livemode, email) DO UPDATE SET joins = waitlist_email_joins.joins
RETURNING window_start, joins;

-- name: SetEmailJoins :exec
UPDATE waitlist_email_joins SET window_start = sqlc.arg(window_start), joins = sqlc.arg(joins)
WHERE organizer_id = sqlc.arg(organizer_id) AND livemode = sqlc.arg(livemode) AND email = sqlc.arg(email);

-- name: CountActiveByEmail :one
SELECT count(*)::int FROM waitlist_entries
WHERE organizer_id = $1 AND livemode = $2 AND email = $3 AND status IN ('WAITING', 'OFFERED');

-- name: DeleteTestEmailJoins :exec
DELETE FROM waitlist_email_joins WHERE organizer_id = $1 AND NOT livemode;
