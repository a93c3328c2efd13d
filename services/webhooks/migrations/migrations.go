// Package migrations embeds the webhooks service's goose SQL migrations.
package migrations

import (
	"embed"

	"github.com/podiumhq/podium/libs/postgres"
)

//go:embed *.sql
var files embed.FS

// Set returns the service's migrations with their own version table.
func Set() postgres.Migrations {
	return postgres.Migrations{Table: "webhooks_schema_version", FS: files}
}
