// Package configtest checks a service's configuration: that Load refuses what the service's own
// rules refuse, that its Validate still checks every shared part it embeds, and that the
// logged configuration masks its secrets. What the shared parts themselves accept is tested
// once, in libs/config.
package configtest

import (
	"bytes"
	"log/slog"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/config"
)

// Case is a change to a valid environment that Load must refuse, and what its error must say.
type Case = struct{ Key, Value, Want string }

// Load loads a C from the environment vars, failing the test if it is refused.
func Load[C any](t *testing.T, vars map[string]string) C {
	t.Helper()
	setEnv(t, vars)
	cfg, err := config.Load[C]()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Refuses checks that Load[C] refuses the valid environment changed by each case, and that C's
// Validate checks every shared part C embeds.
func Refuses[C any](t *testing.T, valid map[string]string, cases map[string]Case) {
	t.Helper()
	all := maps.Clone(cases)
	for name, c := range sharedParts[C]() {
		all[name] = c
	}
	for name, c := range all {
		t.Run(name, func(t *testing.T) {
			vars := maps.Clone(valid)
			vars[c.Key] = c.Value
			setEnv(t, vars)
			if _, err := config.Load[C](); err == nil || !strings.Contains(err.Error(), c.Want) {
				t.Fatalf("%s=%q: error %v does not mention %q", c.Key, c.Value, err, c.Want)
			}
		})
	}
}

// sharedParts is a refused value of each shared part C embeds: a Validate of C's own must call
// theirs.
func sharedParts[C any]() map[string]Case {
	refused := map[reflect.Type]Case{
		reflect.TypeFor[config.Base]():     {"LOG_LEVEL", "loud", "LOG_LEVEL"},
		reflect.TypeFor[config.Postgres](): {"DB_MAX_CONNS", "-1", "DB_MAX_CONNS must not be negative"},
		reflect.TypeFor[config.Kafka]():    {"KAFKA_TOPIC_PARTITIONS", "0", "KAFKA_TOPIC_PARTITIONS must be at least 1"},
		reflect.TypeFor[config.SMTP]():     {"SMTP_PORT", "0", "SMTP_PORT"},
	}
	out := map[string]Case{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if c, ok := refused[f.Type]; ok && f.Anonymous {
				out["shared "+f.Type.Name()] = c
			} else if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[C]())
	return out
}

// Masked checks that the logged cfg shows none of secrets.
func Masked(t *testing.T, cfg any, secrets ...string) {
	t.Helper()
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("start", "config", config.LogValue(cfg))
	for _, s := range secrets {
		if strings.Contains(buf.String(), s) {
			t.Errorf("the logged configuration shows the secret %q: %s", s, buf.String())
		}
	}
}

// setEnv sets vars for the rest of the test.
func setEnv(t *testing.T, vars map[string]string) {
	t.Helper()
	for k, v := range vars {
		t.Setenv(k, v)
	}
}
