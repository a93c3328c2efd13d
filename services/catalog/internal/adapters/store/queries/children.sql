-- name: DeleteCategories :exec
DELETE FROM categories WHERE event_id = $1;

-- name: DeleteFormFields :exec
DELETE FROM form_fields WHERE event_id = $1;

-- name: DeleteWaivers :exec
DELETE FROM waivers WHERE event_id = $1;

-- name: DeleteSponsors :exec
DELETE FROM sponsors WHERE event_id = $1;

-- name: DeleteSupplements :exec
DELETE FROM supplements WHERE event_id = $1;

-- name: DeletePromocodes :exec
DELETE FROM promocodes WHERE event_id = $1;

-- name: DeleteFees :exec
DELETE FROM fees WHERE event_id = $1;

-- name: InsertCategory :exec
INSERT INTO categories (
    id, event_id, key, position, name, description, team_min, team_max, gender,
    age_min, age_max, quota, base_price, private, published
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15);

-- name: InsertTier :exec
INSERT INTO price_tiers (
    id, category_id, event_id, key, position, name, price, from_date, until_date, up_to_places
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- name: InsertFormField :exec
INSERT INTO form_fields (
    id, event_id, key, position, label, type, required, options, applies_to, category_keys
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- name: InsertWaiver :exec
INSERT INTO waivers (id, event_id, key, position, title, body, required, for_minors, version)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- name: InsertWaiverVersion :exec
INSERT INTO waiver_versions (waiver_id, version, event_id, title, body, created_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (waiver_id, version) DO NOTHING;

-- name: InsertSponsor :exec
INSERT INTO sponsors (id, event_id, key, position, name, logo_url, website_url)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: InsertSupplement :exec
INSERT INTO supplements (id, event_id, key, position, name, description, active, per, price)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- name: InsertSupplementOption :exec
INSERT INTO supplement_options (id, supplement_id, event_id, key, position, name, price, active)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- name: InsertPromocode :exec
INSERT INTO promocodes (
    id, event_id, key, position, code, kind, basis_points, amount, valid_from, valid_until,
    max_uses, category_keys
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- name: InsertFee :exec
INSERT INTO fees (id, event_id, key, position, name, kind, basis_points, amount, per)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- name: ListCategories :many
-- The event's categories with their places of one mode.
SELECT c.id, c.key, c.name, c.description, c.team_min, c.team_max, c.gender, c.age_min, c.age_max,
       c.quota, c.base_price, c.private, c.published,
       coalesce(p.confirmed, 0)::integer AS confirmed, coalesce(p.held, 0)::integer AS held,
       coalesce(p.version, 0)::bigint AS places_version
FROM categories c
LEFT JOIN category_places p ON p.category_id = c.id AND p.livemode = sqlc.arg(livemode)::boolean
WHERE c.event_id = sqlc.arg(event_id)
ORDER BY c.position;

-- name: ListTiers :many
SELECT id, category_id, key, name, price, from_date, until_date, up_to_places
FROM price_tiers
WHERE event_id = $1
ORDER BY category_id, position;

-- name: ListFormFields :many
SELECT id, key, label, type, required, options, applies_to, category_keys
FROM form_fields WHERE event_id = $1 ORDER BY position;

-- name: ListWaivers :many
SELECT id, key, title, body, required, for_minors, version
FROM waivers WHERE event_id = $1 ORDER BY position;

-- name: ListSponsors :many
SELECT id, key, name, logo_url, website_url
FROM sponsors WHERE event_id = $1 ORDER BY position;

-- name: ListSupplements :many
SELECT id, key, name, description, active, per, price
FROM supplements WHERE event_id = $1 ORDER BY position;

-- name: ListSupplementOptions :many
SELECT id, supplement_id, key, name, price, active
FROM supplement_options WHERE event_id = $1 ORDER BY supplement_id, position;

-- name: ListPromocodes :many
SELECT id, key, code, kind, basis_points, amount, valid_from, valid_until, max_uses, category_keys
FROM promocodes WHERE event_id = $1 ORDER BY position;

-- name: ListFees :many
SELECT id, key, name, kind, basis_points, amount, per
FROM fees WHERE event_id = $1 ORDER BY position;
