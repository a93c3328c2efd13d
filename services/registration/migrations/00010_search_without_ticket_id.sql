-- +goose Up
-- The free text no longer runs over the ticket id. Its random characters matched short texts
-- by chance (a text of three letters matched about one ticket in 1,700 through its id), and
-- each new id brought the trigram index a score of trigrams few other tickets have, an entry of
-- their own each: 39 WAL records per create against 24 without the id, a quarter of the
-- database's time per create. A text that is a whole ticket id still finds that ticket, by its
-- primary key (store.filters). Dropping the column drops tickets_search with it.
ALTER TABLE tickets DROP COLUMN search_doc;
ALTER TABLE tickets ADD COLUMN search_doc text GENERATED ALWAYS AS (reg_fold(
    fullname || ' ' || email || ' ' || id_number || ' ' || team_name || ' ' ||
    coalesce(club, '') || ' ' || coalesce(bib::text, ''))) STORED;
CREATE INDEX tickets_search ON tickets USING gin (event_id, gender, search_doc gin_trgm_ops);

-- +goose Down
ALTER TABLE tickets DROP COLUMN search_doc;
ALTER TABLE tickets ADD COLUMN search_doc text GENERATED ALWAYS AS (reg_fold(
    fullname || ' ' || email || ' ' || id_number || ' ' || team_name || ' ' ||
    coalesce(club, '') || ' ' || id || ' ' || coalesce(bib::text, ''))) STORED;
CREATE INDEX tickets_search ON tickets USING gin (event_id, gender, search_doc gin_trgm_ops);
