package envspec_test

import (
	"slices"
	"testing"

	"github.com/podiumhq/podium/deploy/internal/envspec"
)

func TestLoad(t *testing.T) {
	structs, err := envspec.Load("testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	required := structs.Required("Config")
	slices.Sort(required)
	if want := []string{"BROKERS", "DB_URL", "TOKEN", "URL"}; !slices.Equal(required, want) {
		t.Errorf("required = %v, want %v", required, want)
	}
	if v, ok := structs.Lookup("Config", "SHUTDOWN_TIMEOUT"); !ok || v.Default != "15s" {
		t.Errorf("embedded SHUTDOWN_TIMEOUT = %+v, %v; want default 15s", v, ok)
	}
	if v, _ := structs.Lookup("Config", "TOKEN"); !v.Secret {
		t.Error("TOKEN should be secret")
	}
	if _, ok := structs["Options"]; ok {
		t.Error("a struct without env tags is not listed")
	}
	if !structs.Known("EXTRA") || !structs.Known("URL") || !structs.Known("NAME") {
		t.Error("EXTRA (of the other Config), URL (of DB) and NAME should be known")
	}
	if v, ok := structs.Lookup("Config", "URL"); !ok || !v.Required {
		t.Error("a nested struct without envPrefix is read without a prefix")
	}
}
