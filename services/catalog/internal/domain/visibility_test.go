package domain_test

import (
	"slices"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

func TestPublicView(t *testing.T) {
	e := validEvent(t)
	e.InternalNotes, e.PreviewToken = "secret notes", "prv_x"
	e.Categories = append(e.Categories,
		domain.Category{Key: "hidden", Name: "Hidden", Private: true, Published: true},
		domain.Category{Key: "draft", Name: "Draft", Published: false},
	)
	e.FormFields = append(e.FormFields,
		domain.FormField{Key: "only-hidden", CategoryKeys: []string{"hidden", "draft"}},
		domain.FormField{Key: "mixed", CategoryKeys: []string{"hidden", "rx"}},
	)
	e.Supplements[1].Options = append(e.Supplements[1].Options, domain.SupplementOption{Key: "xl", Active: false})
	e.Supplements = append(e.Supplements,
		domain.Supplement{Key: "off", Active: false, Price: ptr64(1)},
		domain.Supplement{Key: "no-options-left", Active: true, Options: []domain.SupplementOption{{Key: "a", Active: false}}},
	)
	pub := e.PublicView()
	var cats, fields, sups []string
	for _, c := range pub.Categories {
		cats = append(cats, c.Key)
	}
	for _, f := range pub.FormFields {
		fields = append(fields, f.Key)
	}
	for _, s := range pub.Supplements {
		sups = append(sups, s.Key)
	}
	if !slices.Equal(cats, []string{"rx", "teams"}) || !slices.Equal(fields, []string{"size", "box", "mixed"}) ||
		!slices.Equal(sups, []string{"parking", "shirt"}) {
		t.Fatalf("categories %v fields %v supplements %v", cats, fields, sups)
	}
	if !slices.Equal(pub.FormFields[2].CategoryKeys, []string{"rx"}) || len(pub.Supplements[1].Options) != 1 {
		t.Fatal("a public field names a hidden category, or an inactive option is shown")
	}
	if pub.InternalNotes != "" || pub.PreviewToken != "" || len(pub.Promocodes) != 0 || len(pub.Fees) != 0 || pub.ExternalID != "" {
		t.Fatalf("organizer-only data in the public view: %+v", pub)
	}
	if len(e.ActiveSupplements()) != 2 {
		t.Fatalf("active supplements %d", len(e.ActiveSupplements()))
	}
}

func TestVisibilityAndPreview(t *testing.T) {
	for _, s := range domain.Statuses {
		for _, private := range []bool{false, true} {
			e := domain.Event{Status: s, Private: private}
			if want := s == domain.Published && !private; e.Public() != want {
				t.Errorf("status %s private %v: public %v", s, private, e.Public())
			}
		}
	}
	e := domain.Event{PreviewToken: "prv_abc"}
	if !e.PreviewMatches("prv_abc") || e.PreviewMatches("prv_abd") || e.PreviewMatches("") || (domain.Event{}).PreviewMatches("") {
		t.Fatal("preview token comparison")
	}
	if c := (domain.Category{Published: true}); !c.Public() {
		t.Fatal("a published category is not public")
	}
	if c := (domain.Category{Published: true, Private: true}); c.Public() {
		t.Fatal("a private category is public")
	}
}

// TestBrowserVisible: a live key sees public events only, a test key also unpublished ones
// that are not private; the preview token shows any event, and only it does.
func TestBrowserVisible(t *testing.T) {
	live, test := domain.ForOrganizer("org_a"), domain.ForOrganizer("org_a").InMode(false)
	for _, c := range []struct {
		name               string
		status             domain.Status
		private            bool
		token              string
		wantLive, wantTest bool
	}{
		{"published", domain.Published, false, "", true, true},
		{"draft", "DRAFT", false, "", false, true},
		{"cancelled", "CANCELLED", false, "", false, true},
		{"private published", domain.Published, true, "", false, false},
		{"private draft", "DRAFT", true, "", false, false},
		{"private draft with its token", "DRAFT", true, "prv_x", true, true},
		{"published with a wrong token", domain.Published, false, "prv_y", false, false},
	} {
		e := domain.Event{Status: c.status, Private: c.private, PreviewToken: "prv_x"}
		if got := e.BrowserVisible(live, c.token); got != c.wantLive {
			t.Errorf("%s, live key: %t", c.name, got)
		}
		if got := e.BrowserVisible(test, c.token); got != c.wantTest {
			t.Errorf("%s, test key: %t", c.name, got)
		}
	}
	if !live.Livemode() || test.Livemode() || !domain.ForOrganizer("org_a").InMode(true).Livemode() {
		t.Fatal("scope modes")
	}
}
