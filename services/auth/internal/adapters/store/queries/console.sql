-- name: LockSignInDemand :exec
-- Serialises requests for links of one e-mail or from one network (keys in sorted order, so two
-- requests never wait on each other crosswise) until the transaction ends.
SELECT pg_advisory_xact_lock(k) FROM unnest(sqlc.arg(keys)::bigint[]) AS k ORDER BY k;

-- name: SignInDemand :one
-- How many links were asked since the given time by the browser for the e-mail, for the e-mail
-- by any browser and from the network, and whether the browser signed in as the e-mail before.
SELECT
    (SELECT count(*) FROM signin_links l
     WHERE l.email = sqlc.arg(for_email) AND l.browser_hash = sqlc.arg(browser_hash) AND l.created_at > sqlc.arg(since)) AS by_browser,
    (SELECT count(*) FROM signin_links l WHERE l.email = sqlc.arg(for_email) AND l.created_at > sqlc.arg(since)) AS by_email,
    (SELECT count(*) FROM signin_links l WHERE l.address = sqlc.arg(from_network) AND l.created_at > sqlc.arg(since)) AS by_network,
    EXISTS (SELECT 1 FROM signin_browsers b WHERE b.email = sqlc.arg(for_email) AND b.browser_hash = sqlc.arg(browser_hash)) AS known_browser;

-- name: InsertSignInLink :exec
INSERT INTO signin_links (token_hash, email, browser_hash, address, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- name: RememberBrowser :exec
-- Records that the browser signed in as the e-mail at the given time.
INSERT INTO signin_browsers (email, browser_hash, last_seen_at) VALUES ($1, $2, $3)
ON CONFLICT (email, browser_hash) DO UPDATE SET last_seen_at = greatest(signin_browsers.last_seen_at, EXCLUDED.last_seen_at);

-- name: DeleteSignInBrowsersBefore :execrows
DELETE FROM signin_browsers WHERE last_seen_at < $1;

-- name: GetSignInLink :one
SELECT * FROM signin_links WHERE token_hash = $1;

-- name: UseSignInLink :one
-- Marks the link used if it is unused, unexpired and bound to this browser (or to none), and
-- returns it; concurrent uses serialise on the row, so exactly one succeeds.
UPDATE signin_links SET used_at = sqlc.arg(at)
WHERE token_hash = sqlc.arg(token_hash) AND used_at IS NULL AND expires_at > sqlc.arg(at)
  AND (browser_hash = '' OR browser_hash = sqlc.arg(browser_hash))
RETURNING *;

-- name: DeleteSignInLinksBefore :execrows
DELETE FROM signin_links WHERE created_at < $1;

-- name: InsertSession :exec
INSERT INTO console_sessions (id, token_hash, email, browser_hash, address, user_agent, created_at, last_seen_at, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- name: GetSessionByTokenHash :one
SELECT * FROM console_sessions WHERE token_hash = $1;

-- name: TouchSession :exec
-- Records a use of the session at the given time from the address, unless it is revoked or a
-- later use is recorded, and then remembers the browser the session was opened in (if any) as
-- seen then, while the e-mail is a member: an active session shows that its browser signed in
-- as the e-mail.
WITH touched AS (
    UPDATE console_sessions s SET last_seen_at = sqlc.arg(at), address = sqlc.arg(address)
    WHERE s.id = sqlc.arg(id) AND s.last_seen_at < sqlc.arg(at) AND s.revoked_at IS NULL
    RETURNING s.email, s.browser_hash
)
INSERT INTO signin_browsers (email, browser_hash, last_seen_at)
SELECT t.email, t.browser_hash, sqlc.arg(at) FROM touched t
WHERE t.browser_hash <> '' AND EXISTS (SELECT 1 FROM members m WHERE m.email = t.email)
ON CONFLICT (email, browser_hash) DO UPDATE SET last_seen_at = greatest(signin_browsers.last_seen_at, EXCLUDED.last_seen_at);

-- name: ListSessions :many
SELECT * FROM console_sessions
WHERE email = $1 AND revoked_at IS NULL AND expires_at > $2
ORDER BY created_at DESC, id DESC
LIMIT 100;

-- name: RevokeSession :one
-- Revokes the session of the e-mail, unless it is revoked already, and forgets the browser it
-- was opened in as one that signed in as the e-mail: whoever holds that browser now is a
-- stranger to the sign-in limits. Returns how many sessions it revoked.
WITH revoked AS (
    UPDATE console_sessions s SET revoked_at = sqlc.arg(revoked_at)
    WHERE s.email = sqlc.arg(email) AND s.id = sqlc.arg(id) AND s.revoked_at IS NULL
    RETURNING s.email, s.browser_hash
), forgotten AS (
    DELETE FROM signin_browsers b USING revoked r
    WHERE b.email = r.email AND b.browser_hash = r.browser_hash
)
SELECT count(*) FROM revoked;

-- name: DeleteSessionsBefore :execrows
DELETE FROM console_sessions WHERE expires_at < $1;

-- name: MembershipsByEmail :many
SELECT m.id, m.organizer_id, m.email, m.role, m.created_at, m.updated_at, o.name AS organizer_name
FROM members m JOIN organizers o ON o.id = m.organizer_id
WHERE m.email = $1
ORDER BY o.name, o.id;

-- name: GetMembership :one
SELECT m.id, m.organizer_id, m.email, m.role, m.created_at, m.updated_at, o.name AS organizer_name
FROM members m JOIN organizers o ON o.id = m.organizer_id
WHERE m.email = $1 AND m.organizer_id = $2;

-- name: IsMemberAnywhere :one
SELECT EXISTS (SELECT 1 FROM members WHERE email = $1);

-- name: GetOrganizerKey :one
SELECT * FROM api_keys WHERE organizer_id = $1 AND id = $2;

-- name: GetOrganizerMember :one
SELECT * FROM members WHERE organizer_id = $1 AND id = $2;
