package domain_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func ptr[T any](v T) *T { return &v }

var day = time.Date(2027, 6, 12, 0, 0, 0, 0, time.UTC)

// event is a published event: cat_rx (individual, 5500), cat_team (2-3, 10000), a private
// and an unpublished category; two waivers; supplements of each kind; no promocodes or fees
// unless a test adds them.
func event() domain.Event {
	return domain.Event{
		ID: "evt_1", OrganizerID: "org_1", Name: "Summer", Status: domain.StatusPublished, StartDate: day,
		Currency: "EUR", PreviewToken: "prv_1",
		Categories: []domain.Category{
			{ID: "cat_rx", Name: "RX", TeamMin: 1, TeamMax: 1, ActivePrice: 5500, Published: true},
			{ID: "cat_team", Name: "Teams", TeamMin: 2, TeamMax: 3, ActivePrice: 10000, Published: true},
			{ID: "cat_private", Name: "Invitational", TeamMin: 1, TeamMax: 1, ActivePrice: 1, Published: true, Private: true},
			{ID: "cat_draft", Name: "Draft", TeamMin: 1, TeamMax: 1, ActivePrice: 1},
		},
		Waivers: []domain.Waiver{
			{ID: "wvr_l", Title: "Liability", Version: 2, Required: true},
			{ID: "wvr_m", Title: "Parental", Version: 1, Required: true, ForMinors: true},
		},
		Supplements: []domain.Supplement{
			{ID: "sup_shirt", Name: "Shirt", Kind: domain.SupplementSinglePrice, Price: 1500, Active: true},
			{ID: "sup_meal", Name: "Meal", Kind: domain.SupplementSinglePrice, Price: 800, Active: true, PerAthlete: true},
			{ID: "sup_hoodie", Name: "Hoodie", Kind: domain.SupplementOptions, Active: true, Options: []domain.SupplementOption{
				{ID: "opt_m", Name: "M", Price: 3000, Active: true}, {ID: "opt_xl", Name: "XL", Price: 3200},
			}},
			{ID: "sup_old", Name: "Old", Kind: domain.SupplementSinglePrice, Price: 100},
		},
	}
}

// wantProblems checks err is a broken rule (fault.Unprocessable) listing exactly want (in any
// order).
func wantProblems(t *testing.T, err error, want ...string) {
	t.Helper()
	f, ok := fault.Of(err)
	if !ok || f.Kind != fault.Unprocessable {
		t.Fatalf("error %v (%T), want broken rules %q", err, err, want)
	}
	got := slices.Clone(f.Problems)
	slices.Sort(got)
	w := slices.Clone(want)
	slices.Sort(w)
	if !slices.Equal(got, w) {
		t.Fatalf("problems\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(w, "\n  "))
	}
}

func wantNotFound(t *testing.T, err error, msg string) {
	t.Helper()
	if f, ok := fault.Of(err); !ok || f.Kind != fault.NotFound || f.Error() != msg {
		t.Fatalf("error %v, want not found %q", err, msg)
	}
}
