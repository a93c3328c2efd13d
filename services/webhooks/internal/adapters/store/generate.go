package store

// The queries in queries/*.sql are compiled by sqlc into package db; run `go generate` after
// changing them or the migrations, and commit the result.
//go:generate sqlc generate -f ../../../sqlc.yaml
