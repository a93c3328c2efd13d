-- +goose Up
-- Additive only, so that the replicas still running the previous release keep working while
-- the new ones start.
--
-- The sign-in limits count a client by its network (an IPv4 address, an IPv6 /64): new links
-- keep that network in address; links asked before keep the full address and age out within
-- the limits' window.
COMMENT ON COLUMN signin_links.address IS 'the client network the link was asked from: an IPv4 address or an IPv6 /64';

-- The browsers that signed in as an e-mail address (the hash of their binding), remembered from
-- their last sign-in or session use: the member's own browsers, whose sign-in links no
-- stranger's requests can hold back.
CREATE TABLE signin_browsers (
    email        text        NOT NULL,
    browser_hash text        NOT NULL,
    last_seen_at timestamptz NOT NULL,
    PRIMARY KEY (email, browser_hash)
);
CREATE INDEX signin_browsers_last_seen_at ON signin_browsers (last_seen_at);

-- A session keeps the hash of the browser binding it was opened in, so that each use of the
-- session renews the memory of that browser. Sessions opened before keep none ('').
ALTER TABLE console_sessions ADD COLUMN browser_hash text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE console_sessions DROP COLUMN browser_hash;
DROP TABLE signin_browsers;
COMMENT ON COLUMN signin_links.address IS NULL;
