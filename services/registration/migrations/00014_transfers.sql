-- +goose Up
-- Transfers: another athlete takes a ticket's place. The ticket keeps its id, place and bib;
-- it records who held it before (transfers, oldest first: from, to, when) and the waivers its
-- new athlete has still to sign. A transfer takes and frees no place: the ledger is untouched.
ALTER TABLE tickets ADD COLUMN pending_waivers jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN transfers jsonb NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE tickets DROP COLUMN pending_waivers, DROP COLUMN transfers;
