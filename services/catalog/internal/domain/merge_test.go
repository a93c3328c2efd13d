package domain_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func TestMergeCreates(t *testing.T) {
	e, changed, err := domain.Merge(nil, validEvent(t), "org_1", t0)
	if err != nil || !changed {
		t.Fatalf("merge: %v changed %v", err, changed)
	}
	if !regexp.MustCompile(`^evt_[0-9A-Za-z]{20}$`).MatchString(e.ID) || !regexp.MustCompile(`^prv_[0-9A-Za-z]{32}$`).MatchString(e.PreviewToken) {
		t.Fatalf("ids %q %q", e.ID, e.PreviewToken)
	}
	if e.OrganizerID != "org_1" || e.Version != 1 || !e.CreatedAt.Equal(t0) || !e.UpdatedAt.Equal(t0) || e.Fingerprint == "" {
		t.Fatalf("event %+v", e)
	}
	for prefix, id := range map[string]string{
		"cat_": e.Categories[0].ID, "tir_": e.Categories[0].Tiers[0].ID, "fld_": e.FormFields[0].ID, "wvr_": e.Waivers[0].ID,
		"spn_": e.Sponsors[0].ID, "sup_": e.Supplements[0].ID, "opt_": e.Supplements[1].Options[0].ID, "prm_": e.Promocodes[0].ID,
		"fee_": e.Fees[0].ID,
	} {
		if !strings.HasPrefix(id, prefix) || len(id) != len(prefix)+20 {
			t.Errorf("id %q does not start with %s", id, prefix)
		}
	}
	if e.Waivers[0].Version != 1 {
		t.Fatalf("new waiver version %d", e.Waivers[0].Version)
	}
}

func TestMergeKeepsIDsByKey(t *testing.T) {
	first, _, _ := domain.Merge(nil, validEvent(t), "org_1", t0)
	first.Categories[0].Places = domain.Places{Confirmed: 3, Held: 1, Version: 9}

	draft := validEvent(t)
	draft.Name = "Summer, renamed"
	draft.Categories = []domain.Category{draft.Categories[1], draft.Categories[0]} // reordered
	draft.Categories[1].Tiers = draft.Categories[1].Tiers[1:]                      // "early" removed
	draft.Categories[1].Tiers = append(draft.Categories[1].Tiers, domain.Tier{Key: "late", Price: 9500, From: datePtr(t, "2027-05-01")})
	draft.Sponsors = nil
	draft.Waivers[0].Title = "Liability (title only changed)"
	later := t0.Add(time.Hour)
	e, changed, err := domain.Merge(&first, draft, "org_1", later)
	if err != nil || !changed {
		t.Fatalf("merge: %v changed %v", err, changed)
	}
	if e.ID != first.ID || e.PreviewToken != first.PreviewToken || e.Version != 2 || !e.CreatedAt.Equal(t0) || !e.UpdatedAt.Equal(later) {
		t.Fatalf("event identity %+v", e)
	}
	rx := e.Categories[1]
	if rx.Key != "rx" || rx.ID != first.Categories[0].ID || e.Categories[0].ID != first.Categories[1].ID {
		t.Fatal("category ids do not follow their keys")
	}
	if rx.Places != first.Categories[0].Places {
		t.Fatalf("places %+v were not kept", rx.Places)
	}
	if rx.Tiers[0].ID != first.Categories[0].Tiers[1].ID || rx.Tiers[1].ID == "" || rx.Tiers[1].ID == first.Categories[0].Tiers[0].ID {
		t.Fatalf("tier ids %q %q", rx.Tiers[0].ID, rx.Tiers[1].ID)
	}
	if len(e.Sponsors) != 0 || e.Supplements[1].Options[0].ID != first.Supplements[1].Options[0].ID {
		t.Fatal("sponsors not removed or option id not kept")
	}
	if e.Waivers[0].ID != first.Waivers[0].ID || e.Waivers[0].Version != 1 {
		t.Fatalf("a title change bumped the waiver to version %d", e.Waivers[0].Version)
	}
}

func TestMergeWaiverVersions(t *testing.T) {
	first, _, _ := domain.Merge(nil, validEvent(t), "org_1", t0)
	draft := validEvent(t)
	draft.Waivers[0].Text = "A new text."
	draft.Waivers = append(draft.Waivers, domain.Waiver{Key: "minors", Title: "Minors", Text: "Guardian.", ForMinors: true})
	second, _, _ := domain.Merge(&first, draft, "org_1", t0)
	if second.Waivers[0].Version != 2 || second.Waivers[1].Version != 1 {
		t.Fatalf("versions %d %d, want 2 and 1", second.Waivers[0].Version, second.Waivers[1].Version)
	}
	draft.Waivers[0].Text = "At my own risk." // back to the first text: still a new version
	third, _, _ := domain.Merge(&second, draft, "org_1", t0)
	if third.Waivers[0].Version != 3 {
		t.Fatalf("version %d, want 3", third.Waivers[0].Version)
	}
}

func TestMergeUnchangedImport(t *testing.T) {
	first, _, _ := domain.Merge(nil, validEvent(t), "org_1", t0)
	again, changed, err := domain.Merge(&first, validEvent(t), "org_1", t0.Add(time.Hour))
	if err != nil || changed || again.Version != 1 || !again.UpdatedAt.Equal(t0) || again.Categories[0].ID != first.Categories[0].ID {
		t.Fatalf("an identical import changed the event: %v changed %v version %d", err, changed, again.Version)
	}
}

func TestMergeRefusesRemovingACategoryWithPlaces(t *testing.T) {
	first, _, _ := domain.Merge(nil, validEvent(t), "org_1", t0)
	draft := validEvent(t)
	draft.Categories = draft.Categories[1:]
	first.Categories[0].Places = domain.Places{Confirmed: 2, Held: 1}
	_, _, err := domain.Merge(&first, draft, "org_1", t0)
	ce, ok := fault.Of(err)
	if !ok || ce.Kind != fault.Conflict || len(ce.Problems) != 1 ||
		ce.Problems[0] != `categories: category "rx" (`+first.Categories[0].ID+`, RX) has 3 places taken (2 confirmed, 1 held) and cannot be removed; keep it in the file with published: false to stop selling it` {
		t.Fatalf("error %v", err)
	}
	first.Categories[0].Places = domain.Places{Version: 4} // released places: removable
	if _, changed, err := domain.Merge(&first, draft, "org_1", t0); err != nil || !changed {
		t.Fatalf("removing a category without places: %v", err)
	}
}
