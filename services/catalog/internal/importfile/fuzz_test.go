package importfile_test

import (
	"os"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// FuzzParse feeds the import parser arbitrary files (it reads what operators upload): it must
// never panic, and whatever it accepts must satisfy every domain rule, merge, and give the same
// fingerprint when parsed again.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"summer-throwdown", "winter-draft", "members-only"} {
		b, err := os.ReadFile("../../demo/" + name + ".yaml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Add([]byte(head), false)
	f.Add([]byte(`{"externalId":"x","name":"X","status":"DRAFT","startDate":"2027-01-01","endDate":"2027-01-01","timezone":"UTC","currency":"EUR"}`), true)
	f.Add([]byte("a: &x [1, 2]\nb: *x\n"), false)
	f.Add([]byte(head+"promocodes: [{key: p, code: P, percent: 99.99, validFrom: 2027-01-01T00:00:00Z}]\n"), false)
	f.Add([]byte(head+"categories: [{key: a, name: A, basePrice: 1, tiers: [{key: t, price: 0, upToPlaces: 1}]}]\n"), false)
	f.Fuzz(func(t *testing.T, body []byte, asJSON bool) {
		format := importfile.YAML
		if asJSON {
			format = importfile.JSON
		}
		e, err := importfile.Parse(format, body)
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("accepted an event that breaks a rule: %v", err)
		}
		merged, changed, err := domain.Merge(nil, e, "org_fuzz", time.Unix(0, 0))
		if err != nil || !changed || merged.ID == "" {
			t.Fatalf("merge of an accepted event: %v", err)
		}
		again, err := importfile.Parse(format, body)
		if err != nil {
			t.Fatalf("second parse failed: %v", err)
		}
		if _, changed, _ := domain.Merge(&merged, again, "org_fuzz", time.Unix(0, 0)); changed {
			t.Fatal("parsing the same file twice gave two different events")
		}
		if _, err := merged.PricingAt(time.Unix(1_800_000_000, 0), domain.AllCategories); err != nil {
			t.Fatalf("pricing of an accepted event: %v", err)
		}
	})
}
