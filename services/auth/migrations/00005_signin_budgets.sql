-- +goose Up
-- The sign-in limits count a client by its network (an IPv4 address, an IPv6 /64), which is all
-- a link keeps of where it was asked; links asked before keep the full address and age out
-- within the limits' window.
ALTER TABLE signin_links RENAME COLUMN address TO network;
ALTER INDEX signin_links_address RENAME TO signin_links_network;

-- The browsers that signed in as an e-mail address (the hash of their binding), remembered as
-- long as a browser keeps its binding after signing in: the member's own browsers, whose sign-in
-- links no stranger's requests can hold back.
CREATE TABLE signin_browsers (
    email        text        NOT NULL,
    browser_hash text        NOT NULL,
    signed_in_at timestamptz NOT NULL,
    PRIMARY KEY (email, browser_hash)
);
CREATE INDEX signin_browsers_signed_in_at ON signin_browsers (signed_in_at);

-- +goose Down
DROP TABLE signin_browsers;
ALTER INDEX signin_links_network RENAME TO signin_links_address;
ALTER TABLE signin_links RENAME COLUMN network TO address;
