package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Merge returns the event to store when organizerID imports draft (a validated event decoded
// from an import file) over current, the stored event with the same external id (nil when the
// import creates it), and whether anything changed:
//   - the event, its categories, tiers, form fields, waivers, sponsors, supplements, options,
//     promocodes and fees keep their ids, matched by key within their parent; new items get
//     new ids; the preview token is created once and kept;
//   - a waiver whose text changed gets the next version (a new waiver starts at 1);
//   - categories keep their places; removing a category with places taken is refused with a
//     conflict (fault.Conflict);
//   - an import whose authored content equals the last one (same fingerprint) changes
//     nothing: current is returned as it is;
//   - otherwise the version grows by one and updatedAt is now.
func Merge(current *Event, draft Event, organizerID string, now time.Time) (Event, bool, error) {
	draft.Fingerprint = fingerprint(draft)
	if current != nil && current.Fingerprint == draft.Fingerprint {
		return *current, false, nil
	}
	e := draft
	e.OrganizerID = organizerID
	if current == nil {
		e.ID, e.PreviewToken, e.Version, e.CreatedAt = NewID(EventIDPrefix), NewPreviewToken(), 1, now
	} else {
		if err := refuseRemovedCategories(*current, draft); err != nil {
			return Event{}, false, err
		}
		e.ID, e.PreviewToken, e.Version, e.CreatedAt = current.ID, current.PreviewToken, current.Version+1, current.CreatedAt
	}
	e.UpdatedAt = now
	var old Event
	if current != nil {
		old = *current
	}
	e.Categories = mergeCategories(old.Categories, draft.Categories)
	e.FormFields = mergeList(old.FormFields, draft.FormFields, FormFieldIDPrefix, func(f *FormField) (*string, string) { return &f.ID, f.Key })
	e.Waivers = mergeWaivers(old.Waivers, draft.Waivers)
	e.Sponsors = mergeList(old.Sponsors, draft.Sponsors, SponsorIDPrefix, func(s *Sponsor) (*string, string) { return &s.ID, s.Key })
	e.Supplements = mergeSupplements(old.Supplements, draft.Supplements)
	e.Promocodes = mergeList(old.Promocodes, draft.Promocodes, PromocodeIDPrefix, func(p *Promocode) (*string, string) { return &p.ID, p.Key })
	e.Fees = mergeList(old.Fees, draft.Fees, FeeIDPrefix, func(f *Fee) (*string, string) { return &f.ID, f.Key })
	return e, true, nil
}

// fingerprint identifies the authored content of a draft.
func fingerprint(draft Event) string {
	b, err := json.Marshal(draft)
	if err != nil { // an Event always marshals; fall back to a value that never matches
		return "unmarshalable:" + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// refuseRemovedCategories reports the categories of current with places taken that draft
// no longer has.
func refuseRemovedCategories(current, draft Event) error {
	kept := map[string]bool{}
	for _, c := range draft.Categories {
		kept[c.Key] = true
	}
	var p fault.Problems
	for _, c := range current.Categories {
		if !kept[c.Key] && c.Places.Taken() > 0 {
			p.Addf("categories: category %q (%s, %s) has %d places taken (%d confirmed, %d held) and cannot be removed; keep it in the file with published: false to stop selling it",
				c.Key, c.ID, c.Name, c.Places.Taken(), c.Places.Confirmed, c.Places.Held)
		}
	}
	return p.Err(fault.Conflict)
}

// mergeList gives each item of next the id of the item of prev with the same key, or a new
// id. ref returns a pointer to an item's id and its key.
func mergeList[T any](prev, next []T, prefix string, ref func(*T) (*string, string)) []T {
	ids := make(map[string]string, len(prev))
	for i := range prev {
		id, key := ref(&prev[i])
		ids[key] = *id
	}
	out := make([]T, len(next))
	for i := range next {
		out[i] = next[i]
		id, key := ref(&out[i])
		if old, ok := ids[key]; ok {
			*id = old
		} else {
			*id = NewID(prefix)
		}
	}
	return out
}

func mergeCategories(prev, next []Category) []Category {
	byKey := make(map[string]Category, len(prev))
	for _, c := range prev {
		byKey[c.Key] = c
	}
	out := mergeList(prev, next, CategoryIDPrefix, func(c *Category) (*string, string) { return &c.ID, c.Key })
	for i := range out {
		old := byKey[out[i].Key]
		out[i].Places = old.Places
		out[i].Tiers = mergeList(old.Tiers, out[i].Tiers, TierIDPrefix, func(t *Tier) (*string, string) { return &t.ID, t.Key })
	}
	return out
}

func mergeWaivers(prev, next []Waiver) []Waiver {
	byKey := make(map[string]Waiver, len(prev))
	for _, w := range prev {
		byKey[w.Key] = w
	}
	out := mergeList(prev, next, WaiverIDPrefix, func(w *Waiver) (*string, string) { return &w.ID, w.Key })
	for i := range out {
		switch old, ok := byKey[out[i].Key]; {
		case !ok:
			out[i].Version = 1
		case old.Text != out[i].Text:
			out[i].Version = old.Version + 1
		default:
			out[i].Version = old.Version
		}
	}
	return out
}

func mergeSupplements(prev, next []Supplement) []Supplement {
	byKey := make(map[string]Supplement, len(prev))
	for _, s := range prev {
		byKey[s.Key] = s
	}
	out := mergeList(prev, next, SupplementIDPrefix, func(s *Supplement) (*string, string) { return &s.ID, s.Key })
	for i := range out {
		old := byKey[out[i].Key]
		out[i].Options = mergeList(old.Options, out[i].Options, OptionIDPrefix, func(o *SupplementOption) (*string, string) { return &o.ID, o.Key })
	}
	return out
}
