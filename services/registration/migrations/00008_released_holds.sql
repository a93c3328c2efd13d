-- +goose Up
-- Hold ids checkout released by id, whether or not an order was made for them: checkout
-- releases a hold whose answer it never got (a timeout) by the id it chose, and a hold request
-- with a released id that arrives afterwards (still in flight, or sent again) is refused, so no
-- place stays held for it. The hold and the release of one id take the same advisory lock, so
-- one always sees the other. Rows are swept a day after the release.
CREATE TABLE released_holds (
    organizer_id text        NOT NULL,
    hold_id      text        NOT NULL,
    released_at  timestamptz NOT NULL,
    PRIMARY KEY (organizer_id, hold_id)
);
CREATE INDEX released_holds_at ON released_holds (released_at);

-- +goose Down
DROP TABLE released_holds;
