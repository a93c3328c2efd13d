-- +goose Up
-- People of an organization, by e-mail (ASCII, lower case), with the role that says what they
-- may manage. The service keeps at least one owner per organization once it has one.
CREATE TABLE members (
    id           text        PRIMARY KEY,
    organizer_id text        NOT NULL CONSTRAINT members_organizer_fkey REFERENCES organizers (id),
    email        text        NOT NULL,
    role         text        NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    CONSTRAINT members_organizer_email_key UNIQUE (organizer_id, email)
);
CREATE INDEX members_organizer_created ON members (organizer_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE members;
