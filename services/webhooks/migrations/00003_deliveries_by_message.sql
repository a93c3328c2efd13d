-- +goose Up

-- The deliveries of a message: the retention sweep deletes messages and their deliveries go with
-- them (ON DELETE CASCADE), which without it reads the whole table once per message.
CREATE INDEX deliveries_by_message ON deliveries (message_id);

-- +goose Down
DROP INDEX deliveries_by_message;
