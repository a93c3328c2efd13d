// Package config reads a service's typed configuration from the environment once, at start-up.
//
// A service declares one struct with `env` tags (github.com/caarlos0/env), embeds Base, and calls
// Load. Fields tagged `secret:"true"` are masked by LogValue so the configuration can be logged.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
)

// Base holds the settings every service shares.
type Base struct {
	// HTTPAddr is the listen address of the service's HTTP server.
	HTTPAddr string `env:"HTTP_ADDR" envDefault:":8080"`
	// LogLevel is one of debug, info, warn, error.
	LogLevel string `env:"LOG_LEVEL" envDefault:"info"`
	// OTLPEndpoint is the OTLP/HTTP traces endpoint (for example http://jaeger:4318); empty
	// disables export while keeping context propagation.
	OTLPEndpoint string `env:"OTEL_EXPORTER_OTLP_ENDPOINT"`
	// TraceSampleRatio is the share of new traces recorded; child spans follow their parent.
	TraceSampleRatio float64 `env:"OTEL_TRACES_SAMPLER_RATIO" envDefault:"1"`
	// PprofAddr, when set, serves Go runtime profiles there (an operators-only port).
	PprofAddr string `env:"PPROF_ADDR"`
	// ShutdownTimeout bounds how long in-flight requests may take once shutdown begins.
	ShutdownTimeout time.Duration `env:"SHUTDOWN_TIMEOUT" envDefault:"15s"`
	// DrainDelay is how long readiness fails before the listener closes at shutdown, so load
	// balancers stop routing here first.
	DrainDelay time.Duration `env:"SHUTDOWN_DRAIN_DELAY" envDefault:"0s"`
	// BodyLimit is the largest request body accepted, in bytes.
	BodyLimit int `env:"HTTP_BODY_LIMIT" envDefault:"2097152"`
}

// Level is the log level.
func (b Base) Level() string { return b.LogLevel }

// Validate reports problems in the shared settings.
func (b Base) Validate() error {
	var errs []error
	if b.TraceSampleRatio < 0 || b.TraceSampleRatio > 1 {
		errs = append(errs, errors.New("OTEL_TRACES_SAMPLER_RATIO must be between 0 and 1"))
	}
	if b.ShutdownTimeout <= 0 {
		errs = append(errs, errors.New("SHUTDOWN_TIMEOUT must be positive"))
	}
	if b.BodyLimit <= 0 {
		errs = append(errs, errors.New("HTTP_BODY_LIMIT must be positive"))
	}
	switch b.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("LOG_LEVEL %q must be debug, info, warn or error", b.LogLevel))
	}
	return errors.Join(errs...)
}

// Postgres holds a service's database, the size of its pool and the timeouts the pool sets on
// each of its connections
// (libs/postgres): a stalled database fails statements fast instead of pinning every pool
// connection. Migrations run on their own connection, without them.
type Postgres struct {
	// DatabaseURL is the service's database, for example postgres://auth@db:5432/auth.
	DatabaseURL string `env:"DATABASE_URL,notEmpty" secret:"true"`
	// DBMaxConns bounds the connection pool; zero is the service's own default.
	DBMaxConns int32 `env:"DB_MAX_CONNS"`
	// DBStatementTimeout cancels a statement that runs longer: above the slowest statement a
	// request runs (milliseconds) with a wide margin, and below the owners' request deadlines
	// (10 s, 14 s) so a stalled statement answers 503 before the request runs out of time; a
	// shorter deadline (auth's 2 s) cancels it first.
	DBStatementTimeout time.Duration `env:"DB_STATEMENT_TIMEOUT" envDefault:"5s"`
	// DBLockTimeout fails a statement that waits longer for a lock: the services' transactions
	// hold row locks for milliseconds, so a longer wait means a stalled holder.
	DBLockTimeout time.Duration `env:"DB_LOCK_TIMEOUT" envDefault:"2s"`
	// DBIdleInTransactionTimeout ends a session whose transaction sits idle longer, releasing
	// the locks of a client that stalled mid-transaction; the longest idle step the services take
	// inside a transaction is the outbox relay's publish to Kafka.
	DBIdleInTransactionTimeout time.Duration `env:"DB_IDLE_IN_TRANSACTION_TIMEOUT" envDefault:"30s"`
}

// Database is the database's URL.
func (p Postgres) Database() string { return p.DatabaseURL }

// Validate reports problems in the Postgres settings. Zero turns a timeout off.
func (p Postgres) Validate() error {
	var errs []error
	if p.DBStatementTimeout < 0 || p.DBLockTimeout < 0 || p.DBIdleInTransactionTimeout < 0 {
		errs = append(errs, errors.New("DB_STATEMENT_TIMEOUT, DB_LOCK_TIMEOUT and DB_IDLE_IN_TRANSACTION_TIMEOUT must not be negative"))
	}
	if p.DBMaxConns < 0 {
		errs = append(errs, errors.New("DB_MAX_CONNS must not be negative"))
	}
	if p.DBStatementTimeout > 0 && p.DBLockTimeout > p.DBStatementTimeout {
		errs = append(errs, errors.New("DB_LOCK_TIMEOUT must not exceed DB_STATEMENT_TIMEOUT"))
	}
	return errors.Join(errs...)
}

// Validator is implemented by configuration structs that check their own values.
type Validator interface{ Validate() error }

// Load parses the environment into a T, applying defaults, and runs T's Validate if it has one.
func Load[T any]() (T, error) {
	var cfg T
	if err := env.Parse(&cfg); err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	if v, ok := any(cfg).(Validator); ok {
		if err := v.Validate(); err != nil {
			return cfg, fmt.Errorf("config: %w", err)
		}
	}
	return cfg, nil
}

// LogValue renders cfg as a slog group with every `secret:"true"` field masked.
func LogValue(cfg any) slog.Value {
	return slog.GroupValue(attrs(reflect.ValueOf(cfg))...)
}

func attrs(v reflect.Value) []slog.Attr {
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var out []slog.Attr
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		_, stringer := fv.Interface().(fmt.Stringer)
		if f.Anonymous || (fv.Kind() == reflect.Struct && !stringer && f.Type != reflect.TypeFor[time.Time]()) {
			out = append(out, attrs(fv)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if name == "" {
			name = f.Name
		}
		if f.Tag.Get("secret") == "true" {
			out = append(out, slog.String(name, mask(fv)))
			continue
		}
		if fv.Kind() == reflect.Pointer { // an optional setting: its value, or empty when unset
			if fv.IsNil() {
				out = append(out, slog.String(name, ""))
				continue
			}
			fv = fv.Elem()
		}
		out = append(out, slog.Any(name, fv.Interface()))
	}
	return out
}

func mask(v reflect.Value) string {
	if v.IsZero() {
		return ""
	}
	return "*****"
}
