package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
	"github.com/podiumhq/podium/services/catalog/internal/views"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/views")

// TestViewsGolden pins the JSON of every view of a rich event (every optional part present)
// and of a bare one (every optional part absent), byte for byte.
func TestViewsGolden(t *testing.T) {
	now := time.Date(2027, 3, 1, 10, 0, 0, 0, time.UTC)
	for name, e := range map[string]domain.Event{"rich": richEvent(), "bare": bareEvent()} {
		pricing, err := e.PricingAt(now, domain.AllCategories)
		if err != nil {
			t.Fatal(err)
		}
		publicPricing, err := e.PricingAt(now, domain.PublicCategories)
		if err != nil {
			t.Fatal(err)
		}
		page := domain.Page{Events: []domain.Event{e}, Total: 7, Limit: 1, Offset: 3}
		for view, v := range map[string]any{
			"admin":            importfile.FileOf(e),
			"admin-list":       newAdminList(page),
			"organizer-detail": views.NewOrganizerDetail(e),
			"organizer-list":   views.NewEventList(page, views.Organizer),
			"public-detail":    views.NewPublicDetail(e.PublicView()),
			"public-list":      views.NewEventList(page, views.Browser),
			"internal":         views.NewInternalEvent(e, pricing),
			"organizer-cards":  views.NewPricing(pricing, true),
			"public-cards":     views.NewPricing(publicPricing, false),
		} {
			// The views are served as json.Marshal writes them; the golden files hold them
			// indented, which changes only whitespace between tokens.
			compact, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Indent(&got, compact, "", "  "); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "views", name+"-"+view+".json"), append(got.Bytes(), '\n'))
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed:\n%s", path, got)
	}
}

func richEvent() domain.Event {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		panic(err)
	}
	date := func(y int, m time.Month, d int) *domain.Date { return &domain.Date{Year: y, Month: m, Day: d} }
	from := time.Date(2027, 1, 1, 0, 0, 0, 0, madrid)
	until := time.Date(2027, 5, 1, 12, 30, 0, 500, time.UTC)
	return domain.Event{
		ID: "evt_1", OrganizerID: "org_alpha", ExternalID: "spring", Name: "Spring <Throwdown> & co",
		Description: "Two days.", InternalNotes: "Ask Marta.", Status: domain.Published, Private: false,
		StartDate: domain.Date{Year: 2027, Month: 6, Day: 12}, EndDate: domain.Date{Year: 2027, Month: 6, Day: 13},
		Timezone: "Europe/Madrid", Currency: "EUR", TransfersUntil: &until,
		Venue:        domain.Venue{Name: "Pabellón", Address: "Port 12", City: "València", Region: "CV", CountryCode: "ES"},
		PreviewToken: "prv_secret", Version: 4, Fingerprint: "fp",
		CreatedAt: time.Date(2026, 11, 2, 9, 0, 0, 123456000, madrid), UpdatedAt: time.Date(2026, 11, 20, 18, 5, 0, 0, madrid),
		Categories: []domain.Category{
			{
				ID: "cat_rx", Key: "rx", Name: "RX", Description: "Prescribed.", TeamSize: domain.TeamSize{Min: 1, Max: 1},
				Gender: domain.GenderMale, AgeMin: ptr(18), AgeMax: ptr(39), Quota: ptr(60), BasePrice: 8500, Published: true,
				Tiers: []domain.Tier{
					{ID: "tier_early", Key: "early", Name: "Early", Price: 6500, Until: date(2027, 2, 1)},
					{ID: "tier_regular", Key: "regular", Name: "Regular", Price: 7500, From: date(2027, 2, 1), Until: date(2027, 5, 1)},
					{ID: "tier_first", Key: "first", Price: 7000, UpToPlaces: ptr(10)},
				},
				Places: domain.Places{Confirmed: 12, Held: 3},
			},
			{
				ID: "cat_teams", Key: "teams", Name: "Teams", TeamSize: domain.TeamSize{Min: 3, Max: 3},
				Gender: domain.GenderMixed, BasePrice: 18000, Published: true, Tiers: []domain.Tier{},
			},
			{
				ID: "cat_masters", Key: "masters", Name: "Masters", TeamSize: domain.TeamSize{Min: 1, Max: 1},
				Gender: domain.GenderOpen, AgeMin: ptr(40), Quota: ptr(0), BasePrice: 9000, Private: true, Published: true,
				Tiers: []domain.Tier{}, Places: domain.Places{Held: 1},
			},
			{
				ID: "cat_kids", Key: "kids", Name: "Kids", TeamSize: domain.TeamSize{Min: 1, Max: 2},
				Gender: domain.GenderFemale, AgeMax: ptr(12), BasePrice: 0, Published: false, Tiers: []domain.Tier{},
			},
		},
		FormFields: []domain.FormField{
			{ID: "ff_size", Key: "size", Label: "Size", Type: domain.FieldSelect, Required: true, Options: []string{"S", "M"}, AppliesTo: domain.PerAthlete, CategoryKeys: []string{}},
			{ID: "ff_box", Key: "box", Label: "Box", Type: domain.FieldText, Options: []string{}, AppliesTo: domain.PerTeam, CategoryKeys: []string{"teams", "masters"}},
			{ID: "ff_kid", Key: "kid", Label: "Guardian", Type: domain.FieldMultiselect, Options: []string{}, AppliesTo: domain.PerAthlete, CategoryKeys: []string{"kids"}},
			{ID: "ff_nil", Key: "nil", Label: "Nil", Type: domain.FieldDate, AppliesTo: domain.PerAthlete},
		},
		Waivers: []domain.Waiver{
			{ID: "w_1", Key: "liability", Title: "Liability", Text: "I accept.", Required: true, Version: 3},
			{ID: "w_2", Key: "minors", Title: "Minors", Text: "", ForMinors: true, Version: 1},
		},
		Sponsors: []domain.Sponsor{
			{ID: "sp_1", Key: "acme", Name: "Acme", LogoURL: "https://acme.test/logo.png", WebsiteURL: "https://acme.test"},
			{ID: "sp_2", Key: "bare", Name: "Bare"},
		},
		Supplements: []domain.Supplement{
			{ID: "sup_photos", Key: "photos", Name: "Photos", Description: "All of them.", Active: true, Per: domain.PerRegistration, Price: ptr[int64](900), Options: []domain.SupplementOption{}},
			{ID: "sup_shirt", Key: "shirt", Name: "Shirt", Active: true, Per: domain.PerAthlete, Options: []domain.SupplementOption{
				{ID: "opt_m", Key: "m", Name: "M", Price: 1500, Active: true},
				{ID: "opt_xl", Key: "xl", Name: "XL", Price: 1600, Active: false},
			}},
			{ID: "sup_old", Key: "old", Name: "Old", Active: false, Per: domain.PerRegistration, Price: ptr[int64](0), Options: []domain.SupplementOption{}},
			{ID: "sup_none", Key: "none", Name: "None", Active: true, Per: domain.PerRegistration, Options: []domain.SupplementOption{
				{ID: "opt_off", Key: "off", Name: "Off", Price: 100, Active: false},
			}},
		},
		Promocodes: []domain.Promocode{
			{ID: "pc_1", Key: "spring", Code: "SPRING10", Discount: domain.Adjustment{Type: domain.Percent, BasisPoints: 1050},
				ValidFrom: &from, ValidUntil: &until, MaxUses: ptr(100), CategoryKeys: []string{"rx", "kids"}},
			{ID: "pc_2", Key: "fixed", Code: "FIVE", Discount: domain.Adjustment{Type: domain.Fixed, Amount: 500}, CategoryKeys: []string{}},
			{ID: "pc_3", Key: "tiny", Code: "TINY", Discount: domain.Adjustment{Type: domain.Percent, BasisPoints: 5}, CategoryKeys: []string{}},
		},
		Fees: []domain.Fee{
			{ID: "fee_1", Key: "service", Name: "Service", Charge: domain.Adjustment{Type: domain.Percent, BasisPoints: 250}, Per: domain.PerRegistration},
			{ID: "fee_2", Key: "booking", Name: "Booking", Charge: domain.Adjustment{Type: domain.Fixed, Amount: 99}, Per: domain.PerOrder},
			{ID: "fee_3", Key: "whole", Name: "Whole", Charge: domain.Adjustment{Type: domain.Percent, BasisPoints: 10000}, Per: domain.PerOrder},
		},
	}
}

func bareEvent() domain.Event {
	return domain.Event{
		ID: "evt_2", OrganizerID: "org_alpha", ExternalID: "bare", Name: "Bare", Status: domain.Draft, Private: true,
		StartDate: domain.Date{Year: 2027, Month: 1, Day: 2}, EndDate: domain.Date{Year: 2027, Month: 1, Day: 2},
		Timezone: "UTC", Currency: "USD", PreviewToken: "prv_bare", Version: 1,
		CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), UpdatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
}

func ptr[T any](v T) *T { return &v }
