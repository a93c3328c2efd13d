-- Runs once, when the compose stack's Postgres volume is created: one role and one database per
-- service that owns data. The passwords are for the local stack only.
CREATE ROLE auth LOGIN PASSWORD 'auth-local-dev-only';
CREATE DATABASE auth OWNER auth;

CREATE ROLE catalog LOGIN PASSWORD 'catalog-local-dev-only';
CREATE DATABASE catalog OWNER catalog;

CREATE ROLE registration LOGIN PASSWORD 'registration-local-dev-only';
CREATE DATABASE registration OWNER registration;

CREATE ROLE checkout LOGIN PASSWORD 'checkout-local-dev-only';
CREATE DATABASE checkout OWNER checkout;

CREATE ROLE webhooks LOGIN PASSWORD 'webhooks-local-dev-only';
CREATE DATABASE webhooks OWNER webhooks;
