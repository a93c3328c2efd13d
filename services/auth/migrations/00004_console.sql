-- +goose Up
-- One-time sign-in links of the organizers' console. Only SHA-256 hashes of the link's token
-- and of the asking browser's binding are kept; a link signs in once, before it expires, in the
-- browser that asked (an operator's link has no binding). Every request for a link is a row, so
-- the sign-in limits count rows per e-mail and per client address.
CREATE TABLE signin_links (
    token_hash   text        PRIMARY KEY,
    email        text        NOT NULL,
    browser_hash text        NOT NULL,
    address      text        NOT NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);
CREATE INDEX signin_links_email ON signin_links (email, created_at);
CREATE INDEX signin_links_address ON signin_links (address, created_at);

-- Console sessions, by e-mail: a person signed in across the organizations they belong to.
-- The cookie's token is kept as its SHA-256 only.
CREATE TABLE console_sessions (
    id           text        PRIMARY KEY,
    token_hash   text        NOT NULL CONSTRAINT console_sessions_token_hash_key UNIQUE,
    email        text        NOT NULL,
    address      text        NOT NULL,
    user_agent   text        NOT NULL,
    created_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz
);
CREATE INDEX console_sessions_email ON console_sessions (email, created_at DESC);

-- Serves a signed-in person's organizations.
CREATE INDEX members_email ON members (email);

-- +goose Down
DROP INDEX members_email;
DROP TABLE console_sessions;
DROP TABLE signin_links;
