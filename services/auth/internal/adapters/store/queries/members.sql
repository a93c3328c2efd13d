-- name: InsertMember :exec
INSERT INTO members (id, organizer_id, email, role, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- name: ListMembers :many
SELECT * FROM members WHERE organizer_id = $1
ORDER BY created_at DESC, id DESC
LIMIT $2 OFFSET $3;

-- name: CountMembers :one
SELECT count(*) FROM members WHERE organizer_id = $1;

-- name: LockOwners :many
-- Locks the organization's owners, in id order so concurrent changes never deadlock; a change
-- that could remove the last owner holds these locks until it commits.
SELECT id FROM members WHERE organizer_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE;

-- name: GetMemberForUpdate :one
SELECT * FROM members WHERE organizer_id = $1 AND id = $2 FOR UPDATE;

-- name: SetMemberRole :exec
UPDATE members SET role = $3, updated_at = $4 WHERE organizer_id = $1 AND id = $2;

-- name: DeleteMember :exec
DELETE FROM members WHERE organizer_id = $1 AND id = $2;

-- name: ForgetBrowsersOfNonMember :exec
-- Forgets the browsers that signed in as the e-mail once it is a member of no organization.
DELETE FROM signin_browsers b WHERE b.email = sqlc.arg(email) AND NOT EXISTS (SELECT 1 FROM members m WHERE m.email = sqlc.arg(email));

-- name: ListContacts :many
-- The members who manage the organization (owners and admins), owners first.
SELECT email, role FROM members WHERE organizer_id = $1 AND role IN ('owner', 'admin')
ORDER BY role = 'owner' DESC, email;
