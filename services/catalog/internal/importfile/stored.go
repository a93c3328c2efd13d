package importfile

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// FileOf returns a stored event in the import file's shape with its stored parts: the admin
// API's view of an event. Every default is written out.
func FileOf(e domain.Event) File {
	f := File{
		ID: e.ID, OrganizerID: e.OrganizerID, ExternalID: e.ExternalID, Name: e.Name, Description: e.Description,
		InternalNotes: e.InternalNotes, Status: string(e.Status), Private: e.Private,
		StartDate: e.StartDate.String(), EndDate: e.EndDate.String(), Timezone: e.Timezone, Currency: e.Currency,
		Venue: venue(e.Venue), PreviewToken: e.PreviewToken, Version: e.Version,
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC(), TransfersUntil: instantString(e.TransfersUntil),
		Categories: make([]category, len(e.Categories)), FormFields: make([]formField, len(e.FormFields)),
		Waivers: make([]waiver, len(e.Waivers)), Sponsors: make([]sponsor, len(e.Sponsors)),
		Supplements: make([]supplement, len(e.Supplements)), Promocodes: make([]promocode, len(e.Promocodes)),
		Fees: make([]fee, len(e.Fees)),
	}
	for i, c := range e.Categories {
		f.Categories[i] = storedCategory(c)
	}
	for i, ff := range e.FormFields {
		f.FormFields[i] = formField{
			ID: ff.ID, Key: ff.Key, Label: ff.Label, Type: string(ff.Type), Required: ff.Required, Options: ff.Options,
			AppliesTo: string(ff.AppliesTo), Categories: ff.CategoryKeys,
		}
	}
	for i, w := range e.Waivers {
		f.Waivers[i] = waiver{ID: w.ID, Key: w.Key, Title: w.Title, Text: w.Text, Required: &w.Required, ForMinors: w.ForMinors, Version: w.Version}
	}
	for i, s := range e.Sponsors {
		f.Sponsors[i] = sponsor{ID: s.ID, Key: s.Key, Name: s.Name, LogoURL: s.LogoURL, WebsiteURL: s.WebsiteURL}
	}
	for i, s := range e.Supplements {
		f.Supplements[i] = storedSupplement(s)
	}
	for i, p := range e.Promocodes {
		f.Promocodes[i] = promocode{
			ID: p.ID, Key: p.Key, Code: p.Code, adjustment: storedAdjustment(p.Discount),
			ValidFrom: instantString(p.ValidFrom), ValidUntil: instantString(p.ValidUntil), MaxUses: p.MaxUses, Categories: p.CategoryKeys,
		}
	}
	for i, x := range e.Fees {
		f.Fees[i] = fee{ID: x.ID, Key: x.Key, Name: x.Name, adjustment: storedAdjustment(x.Charge), Per: string(x.Per)}
	}
	return f
}

func storedCategory(c domain.Category) category {
	out := category{
		ID: c.ID, Key: c.Key, Name: c.Name, Description: c.Description, TeamSize: &teamSize{Min: c.TeamSize.Min, Max: c.TeamSize.Max},
		Gender: string(c.Gender), AgeMin: c.AgeMin, AgeMax: c.AgeMax, Quota: c.Quota, BasePrice: c.BasePrice,
		Private: c.Private, Published: &c.Published, Tiers: make([]tier, len(c.Tiers)),
		Confirmed: c.Places.Confirmed, Held: c.Places.Held,
	}
	for j, t := range c.Tiers {
		out.Tiers[j] = tier{
			ID: t.ID, Key: t.Key, Name: t.Name, Price: t.Price, From: dateString(t.From), Until: dateString(t.Until), UpToPlaces: t.UpToPlaces,
		}
	}
	return out
}

func storedSupplement(s domain.Supplement) supplement {
	out := supplement{
		ID: s.ID, Key: s.Key, Name: s.Name, Description: s.Description, Active: &s.Active, Per: string(s.Per), Price: s.Price,
		Options: make([]option, len(s.Options)),
	}
	for j, o := range s.Options {
		out.Options[j] = option{ID: o.ID, Key: o.Key, Name: o.Name, Price: o.Price, Active: &o.Active}
	}
	return out
}

// storedAdjustment writes a PERCENT adjustment as its percent and basis points, a FIXED one
// as its amount. The percent is written as encoding/json writes the float basis points / 100.
func storedAdjustment(a domain.Adjustment) adjustment {
	if a.Type == domain.Percent {
		pct := json.Number(strconv.FormatFloat(float64(a.BasisPoints)/100, 'f', -1, 64))
		return adjustment{Percent: &pct, BasisPoints: &a.BasisPoints}
	}
	return adjustment{Amount: &a.Amount}
}

func dateString(d *domain.Date) *string {
	if d == nil {
		return nil
	}
	s := d.String()
	return &s
}

// instantString writes t as encoding/json writes a time.Time, in t's own offset.
func instantString(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(time.RFC3339Nano)
	return &s
}
