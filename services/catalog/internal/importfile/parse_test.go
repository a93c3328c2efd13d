package importfile_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// head is the required part of a file; tests append to it.
const head = "externalId: spring\nname: Spring\nstatus: DRAFT\nstartDate: 2027-04-10\nendDate: 2027-04-11\ntimezone: Europe/Madrid\ncurrency: EUR\n"

func problems(t *testing.T, f importfile.Format, body string) []string {
	t.Helper()
	_, err := importfile.Parse(f, []byte(body))
	if err == nil {
		return nil
	}
	fe, ok := fault.Of(err)
	if !ok || fe.Kind != fault.Invalid {
		t.Fatalf("error %v is not an invalid-input failure", err)
	}
	return fe.Problems
}

// demoFiles are the demo events of `make run`.
var demoFiles = []string{"summer-throwdown", "winter-draft", "members-only"}

func TestDemoFilesParse(t *testing.T) {
	for _, name := range demoFiles {
		if e := parseFile(t, "../../demo/"+name+".yaml"); e.ExternalID != name {
			t.Fatalf("%s: externalId %q", name, e.ExternalID)
		}
	}
}

// parseFile parses the YAML file at path, which must be valid.
func parseFile(t *testing.T, path string) domain.Event {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := importfile.Parse(importfile.YAML, b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return e
}

func TestParseAppliesDefaultsAndConversions(t *testing.T) {
	e, err := importfile.Parse(importfile.YAML, []byte(head+`
categories:
  - {key: open, name: Open, basePrice: 5000}
supplements:
  - {key: photos, name: Photos, price: 900}
  - key: shirt
    name: Shirt
    options: [{key: m, name: M, price: 1500}, {key: xl, name: XL, price: 1600, active: false}]
formFields:
  - {key: box, label: Box, type: text}
waivers:
  - {key: w, title: W, text: T}
promocodes:
  - {key: a, code: SPRING12, percent: 12.5, validFrom: 2027-01-01, validUntil: "2027-02-01T10:00:00+01:00"}
  - {key: b, code: FIVE, amount: 500}
fees:
  - {key: f, name: Fee, percent: 0.1}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := e.Categories[0]
	if c.TeamSize != (domain.TeamSize{Min: 1, Max: 1}) || c.Gender != domain.GenderOpen || !c.Published || c.Private || c.Quota != nil || len(c.Tiers) != 0 {
		t.Fatalf("category defaults %+v", c)
	}
	if s := e.Supplements[0]; !s.Active || s.Per != domain.PerRegistration || s.Price == nil || *s.Price != 900 || s.HasOptions() {
		t.Fatalf("single-price supplement %+v", s)
	}
	if s := e.Supplements[1]; !s.HasOptions() || !s.Options[0].Active || s.Options[1].Active {
		t.Fatalf("supplement with options %+v", s)
	}
	if f := e.FormFields[0]; f.AppliesTo != domain.PerAthlete || f.Required || len(f.CategoryKeys) != 0 {
		t.Fatalf("form field defaults %+v", f)
	}
	if w := e.Waivers[0]; !w.Required || w.ForMinors {
		t.Fatalf("waiver defaults %+v", w)
	}
	p := e.Promocodes[0]
	if p.Discount != (domain.Adjustment{Type: domain.Percent, BasisPoints: 1250}) ||
		!p.ValidFrom.Equal(time.Date(2026, 12, 31, 23, 0, 0, 0, time.UTC)) || !p.ValidUntil.Equal(time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("promocode %+v from %v until %v", p, p.ValidFrom, p.ValidUntil)
	}
	if e.Promocodes[1].Discount != (domain.Adjustment{Type: domain.Fixed, Amount: 500}) || e.Fees[0].Charge.BasisPoints != 10 ||
		e.Fees[0].Per != domain.PerRegistration {
		t.Fatalf("promocode %+v fee %+v", e.Promocodes[1], e.Fees[0])
	}
}

func TestYAMLAndJSONAreTheSameEvent(t *testing.T) {
	y, err := importfile.Parse(importfile.YAML, []byte(head+"private: true\nvenue: {countryCode: NO, city: Oslo}\ncategories: [{key: a, name: A, basePrice: 1, quota: null}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := importfile.Parse(importfile.JSON, []byte(`{"externalId":"spring","name":"Spring","status":"DRAFT","startDate":"2027-04-10",
		"endDate":"2027-04-11","timezone":"Europe/Madrid","currency":"EUR","private":true,"venue":{"countryCode":"NO","city":"Oslo"},
		"categories":[{"key":"a","name":"A","basePrice":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	first, _, _ := domain.Merge(nil, y, "org_1", at)
	second, changed, _ := domain.Merge(&first, j, "org_1", at.Add(time.Minute))
	if changed || second.Venue.CountryCode != "NO" {
		t.Fatalf("the JSON file is another event than the YAML one (changed %v, country %q)", changed, second.Venue.CountryCode)
	}
}

func TestShapeProblemsNameTheirPath(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"missing fields", "externalId: x\n", []string{"currency is required", "endDate is required", "name is required",
			"startDate is required", "status is required", "timezone is required"}},
		{"enum", head + "categories: [{key: a, name: A, basePrice: 1, gender: ANY}]\n",
			[]string{"categories[0].gender must be one of OPEN, MALE, FEMALE, MIXED"}},
		{"unknown field", head + "categories: [{key: a, name: A, baseprice: 1}]\n",
			[]string{"categories[0].basePrice is required", "categories[0].baseprice is not a field of the import file"}},
		{"type", head + "categories: [{key: a, name: A, basePrice: '10'}]\n", []string{"categories[0].basePrice must be an integer"}},
		{"decimal money", head + "categories: [{key: a, name: A, basePrice: 10.5}]\n", []string{"categories[0].basePrice must be an integer"}},
		{"negative", head + "categories: [{key: a, name: A, basePrice: -1}]\n", []string{"categories[0].basePrice must be at least 0"}},
		{"calendar date", strings.Replace(head, "2027-04-10", "2027-02-30", 1),
			[]string{"startDate must be a real calendar date in the form YYYY-MM-DD"}},
		{"currency pattern", strings.Replace(head, "EUR", "eur", 1),
			[]string{"currency must be an ISO 4217 currency code in uppercase, for example EUR"}},
		{"key pattern", head + "waivers: [{key: 'a b', title: T, text: X}]\n",
			[]string{"waivers[0].key must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"}},
		{"percent decimals", head + "fees: [{key: f, name: F, percent: 0.001}]\n", []string{"fees[0].percent must be a multiple of 0.01"}},
		{"not an object", "- a\n- b\n", []string{"file must be a YAML mapping or a JSON object"}},
		{"status", strings.Replace(head, "DRAFT", "LIVE", 1),
			[]string{"status must be one of DRAFT, PUBLISHED, UNDER_REVIEW, POSTPONED, COMPLETED, CANCELLED, ARCHIVED"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := problems(t, importfile.YAML, c.body); !slices.Equal(got, c.want) {
				t.Fatalf("problems %q\nwant     %q", got, c.want)
			}
		})
	}
}

func TestRuleProblemsNameTheirPath(t *testing.T) {
	body := strings.Replace(strings.Replace(head, "Europe/Madrid", "Europe/Madird", 1), "EUR", "EUX", 1) + `
categories:
  - {key: a, name: A, basePrice: 1}
  - key: b
    name: B
    basePrice: 1
    tiers: [{key: t, price: 1, from: 2027-02-01, until: 2027-01-01}]
supplements:
  - {key: s, name: S, price: 1, options: [{key: o, name: O, price: 1}]}
  - {key: n, name: N}
promocodes:
  - {key: p, code: early10}
  - {key: q, code: BOTH, percent: 5, amount: 5}
`
	want := []string{
		"categories[1].tiers[0].until must be after from",
		`currency "EUX" is not an ISO 4217 currency code`,
		"promocodes[0] must have either percent or amount",
		"promocodes[0].code must not contain lowercase letters",
		"promocodes[1] must have either percent or amount, not both",
		"supplements[0] must have either price (a single-price supplement) or options, not both",
		"supplements[1] must have a price or at least one option",
		`timezone "Europe/Madird" is not an IANA time zone`,
	}
	if got := problems(t, importfile.YAML, body); !slices.Equal(got, want) {
		t.Fatalf("problems %q\nwant     %q", got, want)
	}
}

func TestSyntaxProblems(t *testing.T) {
	cases := []struct {
		name string
		f    importfile.Format
		body string
		want string
	}{
		{"yaml syntax", importfile.YAML, "name: [a, b\n", "file is not valid YAML: line 1, column 7"},
		{"duplicate key", importfile.YAML, "name: a\nname: b\n", `file is not valid YAML: line 2, column 1: mapping key "name" already defined`},
		{"alias", importfile.YAML, "a: &x 1\nb: *x\n", "YAML anchors, aliases, merge keys and tags are not supported (line 1)"},
		{"tag", importfile.YAML, "a: !!binary aGk=\n", "YAML anchors, aliases, merge keys and tags are not supported"},
		{"two documents", importfile.YAML, "a: 1\n---\nb: 2\n", "file must hold exactly one YAML document"},
		{"empty", importfile.YAML, "", "file must hold exactly one YAML document"},
		{"nan", importfile.YAML, "a: .nan\n", "a value JSON cannot represent"},
		{"json syntax", importfile.JSON, `{"a": }`, "file is not valid JSON"},
		{"json array", importfile.JSON, `[1]`, "file must be a YAML mapping or a JSON object"},
		{"huge number", importfile.JSON, `{"fees": [{"percent": 1e-99999999}]}`, "outside what the import accepts"},
		{"tiny float", importfile.YAML, "a: 0.00000001\n", "outside what the import accepts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := problems(t, c.f, c.body)
			if len(got) != 1 || !strings.Contains(got[0], c.want) || strings.Contains(got[0], "\n") {
				t.Fatalf("problems %q, want one line containing %q", got, c.want)
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	for ct, want := range map[string]importfile.Format{
		"application/yaml": importfile.YAML, "application/x-yaml": importfile.YAML, "text/yaml; charset=utf-8": importfile.YAML,
		"application/json": importfile.JSON, "application/json; charset=utf-8": importfile.JSON,
	} {
		if got, err := importfile.FormatOf(ct); err != nil || got != want {
			t.Errorf("FormatOf(%q) = %v, %v", ct, got, err)
		}
	}
	for _, ct := range []string{"", "text/plain", "application/xml", "multipart/form-data; boundary=x"} {
		if _, err := importfile.FormatOf(ct); !errors.Is(err, importfile.ErrUnsupportedMediaType) {
			t.Errorf("FormatOf(%q) = %v", ct, err)
		}
	}
}

// TestREADMEExampleParses keeps the documented import file honest.
func TestREADMEExampleParses(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("the README has no yaml example")
	}
	e, err := importfile.Parse(importfile.YAML, []byte(example))
	if err != nil {
		t.Fatalf("the README's example does not import: %v", err)
	}
	if len(e.Categories[0].Tiers) != 3 || len(e.Supplements) != 2 || len(e.Promocodes) != 2 || e.Promocodes[0].Discount.BasisPoints != 1000 {
		t.Fatalf("example parsed as %+v", e)
	}
}
