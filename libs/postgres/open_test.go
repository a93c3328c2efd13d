package postgres_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestOpenSizesThePoolFromTheConfigurationOrTheServiceDefault(t *testing.T) {
	url := testkit.DatabaseURL(t, widgets)
	for _, tc := range []struct {
		configured, want int32
	}{{0, 7}, {3, 3}} {
		pool, err := postgres.Open(t.Context(), config.Postgres{DatabaseURL: url, DBMaxConns: tc.configured, DBStatementTimeout: time.Second}, 7)
		if err != nil {
			t.Fatal(err)
		}
		got := pool.Config().MaxConns
		var timeout string
		err = pool.QueryRow(t.Context(), "SHOW statement_timeout").Scan(&timeout)
		pool.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want || timeout != "1s" {
			t.Errorf("DB_MAX_CONNS %d: pool of %d with statement_timeout %s; want %d and 1s", tc.configured, got, timeout, tc.want)
		}
	}
}
