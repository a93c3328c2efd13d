package domain_test

import (
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

func datePtr(t *testing.T, s string) *domain.Date {
	d := mustDate(t, s)
	return &d
}

func intPtr(n int) *int { return &n }

// TestActivePriceDateBoundaries checks the instant before and the instant of 00:00 local on a
// tier's until date, which is also the from date of the next tier.
func TestActivePriceDateBoundaries(t *testing.T) {
	cases := []struct {
		name, zone, boundary string
		at                   string // UTC instant of 00:00 local on boundary
	}{
		{"Madrid, the day clocks go forward", "Europe/Madrid", "2027-03-28", "2027-03-27T23:00:00Z"},
		{"Madrid, the day after clocks go forward", "Europe/Madrid", "2027-03-29", "2027-03-28T22:00:00Z"},
		{"Madrid, the day clocks go back", "Europe/Madrid", "2027-10-31", "2027-10-30T22:00:00Z"},
		{"Madrid, the day after clocks go back", "Europe/Madrid", "2027-11-01", "2027-10-31T23:00:00Z"},
		{"Kiritimati (UTC+14)", "Pacific/Kiritimati", "2027-01-01", "2026-12-31T10:00:00Z"},
		{"Etc/GMT+12 (UTC-12)", "Etc/GMT+12", "2027-01-01", "2027-01-01T12:00:00Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loc := mustLoc(t, c.zone)
			cat := domain.Category{BasePrice: 9000, Tiers: []domain.Tier{
				{Key: "early", Price: 6000, Until: datePtr(t, c.boundary)},
				{Key: "regular", Price: 7500, From: datePtr(t, c.boundary)},
			}}
			at := utc(c.at)
			if p, i := domain.ActivePrice(cat, loc, at.Add(-time.Nanosecond)); p != 6000 || i != 0 {
				t.Errorf("just before 00:00 local: price %d tier %d, want 6000 from tier 0", p, i)
			}
			if p, i := domain.ActivePrice(cat, loc, at); p != 7500 || i != 1 {
				t.Errorf("at 00:00 local: price %d tier %d, want 7500 from tier 1", p, i)
			}
			start, end := cat.Tiers[1].Window(loc)
			if end != nil || start == nil || !start.Equal(at) || start.Location() != time.UTC {
				t.Errorf("window of the second tier [%v, %v), want [%s, open)", start, end, c.at)
			}
		})
	}
}

func TestActivePriceRule(t *testing.T) {
	loc := mustLoc(t, "Europe/Madrid")
	now := utc("2027-02-10T12:00:00Z")
	tiers := func(ts ...domain.Tier) []domain.Tier { return ts }
	cases := []struct {
		name            string
		tiers           []domain.Tier
		confirmed, held int
		wantPrice       int64
		wantTier        int
	}{
		{"no tiers: base price", nil, 0, 0, 9000, -1},
		{"count tier with N-1 places taken", tiers(domain.Tier{Price: 5000, UpToPlaces: intPtr(10)}), 9, 0, 5000, 0},
		{"count tier with N places taken", tiers(domain.Tier{Price: 5000, UpToPlaces: intPtr(10)}), 10, 0, 9000, -1},
		{"held places count as taken", tiers(domain.Tier{Price: 5000, UpToPlaces: intPtr(10)}), 7, 3, 9000, -1},
		{"held places count as taken, one left", tiers(domain.Tier{Price: 5000, UpToPlaces: intPtr(10)}), 6, 3, 5000, 0},
		{"count tiers in order: the first that applies", tiers(
			domain.Tier{Price: 5000, UpToPlaces: intPtr(10)},
			domain.Tier{Price: 6000, UpToPlaces: intPtr(20)},
		), 12, 0, 6000, 1},
		{"date window holds but count does not", tiers(
			domain.Tier{Price: 5000, From: datePtr(t, "2027-02-01"), Until: datePtr(t, "2027-03-01"), UpToPlaces: intPtr(5)},
		), 5, 0, 9000, -1},
		{"date window and count both hold", tiers(
			domain.Tier{Price: 5000, From: datePtr(t, "2027-02-01"), Until: datePtr(t, "2027-03-01"), UpToPlaces: intPtr(5)},
		), 4, 0, 5000, 0},
		{"count holds but the window is over", tiers(
			domain.Tier{Price: 5000, Until: datePtr(t, "2027-02-10"), UpToPlaces: intPtr(50)},
		), 0, 0, 9000, -1},
		{"window not open yet", tiers(domain.Tier{Price: 5000, From: datePtr(t, "2027-02-11")}), 0, 0, 9000, -1},
		{"from is inclusive", tiers(domain.Tier{Price: 5000, From: datePtr(t, "2027-02-10")}), 0, 0, 5000, 0},
		{"authored order wins over the cheaper tier", tiers(
			domain.Tier{Price: 7000, Until: datePtr(t, "2027-03-01")},
			domain.Tier{Price: 5000, UpToPlaces: intPtr(100)},
		), 0, 0, 7000, 0},
		{"a tier can be dearer than the base price", tiers(domain.Tier{Price: 9900, From: datePtr(t, "2027-02-01")}), 0, 0, 9900, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cat := domain.Category{BasePrice: 9000, Tiers: c.tiers, Places: domain.Places{Confirmed: c.confirmed, Held: c.held}}
			if p, i := domain.ActivePrice(cat, loc, now); p != c.wantPrice || i != c.wantTier {
				t.Fatalf("price %d from tier %d, want %d from tier %d", p, i, c.wantPrice, c.wantTier)
			}
		})
	}
}

func TestPricingAt(t *testing.T) {
	e := domain.Event{ID: "evt_1", Currency: "EUR", Timezone: "Europe/Madrid", Categories: []domain.Category{
		{ID: "cat_a", Published: true, BasePrice: 9000, Tiers: []domain.Tier{
			{ID: "tir_early", Price: 6000, Until: datePtr(t, "2027-02-01")},
			{ID: "tir_regular", Price: 7500, From: datePtr(t, "2027-02-01"), Until: datePtr(t, "2027-05-01")},
		}},
		{ID: "cat_private", Published: true, Private: true, BasePrice: 100, Tiers: []domain.Tier{
			{ID: "tir_p", Price: 50, Until: datePtr(t, "2026-12-01")},
		}},
		{ID: "cat_count", Published: true, BasePrice: 18000, Places: domain.Places{Confirmed: 9, Held: 1},
			Tiers: []domain.Tier{{ID: "tir_first", Price: 15000, UpToPlaces: intPtr(10)}}},
	}}
	now := utc("2026-11-22T10:00:00Z")
	p, err := e.PricingAt(now, domain.PublicCategories)
	if err != nil {
		t.Fatal(err)
	}
	if p.EventID != "evt_1" || p.Currency != "EUR" || len(p.Cards) != 2 || p.Cards[0].Category.ID != "cat_a" || p.Cards[1].Category.ID != "cat_count" {
		t.Fatalf("cards %+v", p.Cards)
	}
	a := p.Cards[0]
	if a.ActivePrice != 6000 || !a.Tiers[0].Active || a.Tiers[1].Active || a.Tiers[0].StartsAt != nil ||
		!a.Tiers[0].EndsAt.Equal(utc("2027-01-31T23:00:00Z")) || !a.Tiers[1].EndsAt.Equal(utc("2027-04-30T22:00:00Z")) {
		t.Fatalf("card a %+v", a)
	}
	if c := p.Cards[1]; c.ActivePrice != 18000 || c.Tiers[0].Active {
		t.Fatalf("count card with 10 places taken: %+v", c)
	}
	// The private category's boundary (1 December) is not among the public cards' changes.
	if p.NextChange == nil || !p.NextChange.Equal(utc("2027-01-31T23:00:00Z")) {
		t.Fatalf("next change %v", p.NextChange)
	}
	all, _ := e.PricingAt(now, domain.AllCategories)
	if len(all.Cards) != 3 || all.NextChange == nil || !all.NextChange.Equal(utc("2026-11-30T23:00:00Z")) {
		t.Fatalf("all cards %d, next change %v", len(all.Cards), all.NextChange)
	}
	late, _ := e.PricingAt(utc("2027-06-01T00:00:00Z"), domain.PublicCategories)
	if late.NextChange != nil || late.Cards[0].ActivePrice != 9000 {
		t.Fatalf("after every window: next change %v, price %d", late.NextChange, late.Cards[0].ActivePrice)
	}
	e.Timezone = "Mars/Olympus"
	if _, err := e.PricingAt(now, domain.AllCategories); err == nil {
		t.Fatal("an unknown zone priced")
	}
}

func TestPlaces(t *testing.T) {
	p := domain.Places{Confirmed: 7, Held: 2}
	if p.Taken() != 9 || *p.Available(intPtr(10)) != 1 || *p.Available(intPtr(5)) != 0 || p.Available(nil) != nil {
		t.Fatalf("places %+v", p)
	}
	one := func(c domain.CategoryPlaces) []domain.CategoryPlaces { return []domain.CategoryPlaces{c} }
	for _, m := range []domain.PlacesChanged{
		{Categories: one(domain.CategoryPlaces{CategoryID: "cat_1", Version: 1})},
		{EventID: "evt_1"},
		{EventID: "evt_1", Categories: one(domain.CategoryPlaces{Version: 1})},
		{EventID: "evt_1", Categories: one(domain.CategoryPlaces{CategoryID: "cat_1", Confirmed: -1, Version: 1})},
		{EventID: "evt_1", Categories: one(domain.CategoryPlaces{CategoryID: "cat_1", Version: 0})},
		{EventID: "evt_1", Categories: []domain.CategoryPlaces{{CategoryID: "cat_1", Version: 1}, {CategoryID: "cat_1", Version: 2}}},
	} {
		if m.Validate() == nil {
			t.Errorf("%+v accepted", m)
		}
	}
	ok := domain.PlacesChanged{EventID: "evt_1", Categories: []domain.CategoryPlaces{
		{CategoryID: "cat_1", Confirmed: 1, Version: 1}, {CategoryID: "cat_2", Held: 3, Version: 9},
	}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if v1 := (domain.PlacesChangedV1{EventID: "evt_1", CategoryID: "cat_1", Confirmed: 1, Version: 1}).Current(); v1.Validate() != nil || len(v1.Categories) != 1 {
		t.Fatalf("v1 as current: %+v", v1)
	}
}

// TestPricingChangesAreTierSwitchesAndSoldOuts: a card switches when another tier (or the base
// price) becomes active or when it sells out or stops being sold out; other counts, and a
// category new in after, are no switch.
func TestPricingChangesAreTierSwitchesAndSoldOuts(t *testing.T) {
	now := time.Date(2027, 3, 1, 10, 0, 0, 0, time.UTC)
	three, two := 3, 2
	event := func(taken int) domain.Event {
		return domain.Event{ID: "evt_1", Timezone: "UTC", Categories: []domain.Category{
			{ID: "cat_a", Quota: &three, BasePrice: 100, Tiers: []domain.Tier{{ID: "tir_1", Price: 50, UpToPlaces: &two}}, Places: domain.Places{Confirmed: taken}},
			{ID: "cat_b", BasePrice: 100, Places: domain.Places{Confirmed: taken}},
		}}
	}
	pricing := func(e domain.Event) domain.Pricing {
		p, err := e.PricingAt(now, domain.AllCategories)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	switched := func(before, after domain.Event) []string {
		var ids []string
		for _, c := range domain.PricingChanges(pricing(before), pricing(after)) {
			ids = append(ids, c.Category.ID)
		}
		return ids
	}
	for _, c := range []struct {
		from, to int
		want     []string
	}{
		{0, 1, nil},               // still the first tier
		{1, 2, []string{"cat_a"}}, // the tier's bound reached: the base price
		{2, 3, []string{"cat_a"}}, // sold out
		{3, 4, nil},               // still sold out
		{3, 2, []string{"cat_a"}}, // no longer sold out
		{2, 1, []string{"cat_a"}}, // the tier again
	} {
		if got := switched(event(c.from), event(c.to)); !slices.Equal(got, c.want) {
			t.Errorf("%d to %d taken: switched %v, want %v", c.from, c.to, got, c.want)
		}
	}
	grown := event(0)
	grown.Categories = append(grown.Categories, domain.Category{ID: "cat_new", Quota: &two, Places: domain.Places{Confirmed: 2}})
	if got := switched(event(0), grown); got != nil {
		t.Errorf("a new category: switched %v", got)
	}
}
