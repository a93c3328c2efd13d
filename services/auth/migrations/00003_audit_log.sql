-- +goose Up
-- Who changed what in an organization: keys created and revoked, members added, given another
-- role and removed; by a member (their e-mail) or "operator" (the admin API), from a client
-- address ('' when unknown). Listed per organization, newest first.
CREATE TABLE audit_log (
    id           bigserial   PRIMARY KEY,
    organizer_id text        NOT NULL CONSTRAINT audit_log_organizer_fkey REFERENCES organizers (id),
    actor        text        NOT NULL,
    address      text        NOT NULL,
    action       text        NOT NULL CHECK (action IN (
        'key.created', 'key.revoked', 'member.added', 'member.role_changed', 'member.removed')),
    subject_id   text        NOT NULL,
    detail       text        NOT NULL,
    at           timestamptz NOT NULL
);
CREATE INDEX audit_log_organizer ON audit_log (organizer_id, id DESC);

-- The key trail so far, in its original order, described as new key entries are.
INSERT INTO audit_log (organizer_id, actor, address, action, subject_id, detail, at)
SELECT k.organizer_id, a.actor, '', 'key.' || a.action, a.key_id, k.type || ' key ' || k.name, a.at
FROM key_audit a JOIN api_keys k ON k.id = a.key_id
ORDER BY a.id;

DROP TABLE key_audit;

-- +goose Down
CREATE TABLE key_audit (
    id           bigserial   PRIMARY KEY,
    key_id       text        NOT NULL REFERENCES api_keys (id),
    organizer_id text        NOT NULL,
    action       text        NOT NULL CHECK (action IN ('created', 'revoked')),
    actor        text        NOT NULL,
    at           timestamptz NOT NULL
);
CREATE INDEX key_audit_key ON key_audit (key_id, id);

INSERT INTO key_audit (key_id, organizer_id, action, actor, at)
SELECT subject_id, organizer_id, substr(action, length('key.') + 1), actor, at
FROM audit_log
WHERE action IN ('key.created', 'key.revoked')
ORDER BY id;

DROP TABLE audit_log;
