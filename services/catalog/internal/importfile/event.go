package importfile

import (
	"fmt"
	"math/big"
	"time"

	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// event maps the file to a domain event, applying defaults, and returns the problems the
// mapping found (the choices between two fields, dates).
func (f File) event() (domain.Event, []string) {
	var p []string
	date := func(path, s string) domain.Date {
		d, err := domain.ParseDate(s)
		if err != nil {
			p = append(p, path+" must be a real calendar date in the form YYYY-MM-DD")
		}
		return d
	}
	e := domain.Event{
		ExternalID: f.ExternalID, Name: f.Name, Description: f.Description, InternalNotes: f.InternalNotes,
		Status: domain.Status(f.Status), Private: f.Private, Timezone: f.Timezone, Currency: f.Currency,
		StartDate: date("startDate", f.StartDate), EndDate: date("endDate", f.EndDate),
		Venue:      domain.Venue(f.Venue),
		Categories: make([]domain.Category, len(f.Categories)), FormFields: make([]domain.FormField, len(f.FormFields)),
		Waivers: make([]domain.Waiver, len(f.Waivers)), Sponsors: make([]domain.Sponsor, len(f.Sponsors)),
		Supplements: make([]domain.Supplement, len(f.Supplements)), Promocodes: make([]domain.Promocode, len(f.Promocodes)),
		Fees: make([]domain.Fee, len(f.Fees)),
	}
	for i, c := range f.Categories {
		e.Categories[i] = c.category(fmt.Sprintf("categories[%d]", i), &p)
	}
	for i, ff := range f.FormFields {
		e.FormFields[i] = domain.FormField{
			Key: ff.Key, Label: ff.Label, Type: domain.FieldType(ff.Type), Required: ff.Required,
			Options: orEmpty(ff.Options), AppliesTo: domain.Scope(or(ff.AppliesTo, string(domain.PerAthlete))), CategoryKeys: orEmpty(ff.Categories),
		}
	}
	for i, w := range f.Waivers {
		e.Waivers[i] = domain.Waiver{Key: w.Key, Title: w.Title, Text: w.Text, Required: orTrue(w.Required), ForMinors: w.ForMinors}
	}
	for i, s := range f.Sponsors {
		e.Sponsors[i] = domain.Sponsor{Key: s.Key, Name: s.Name, LogoURL: s.LogoURL, WebsiteURL: s.WebsiteURL}
	}
	for i, s := range f.Supplements {
		e.Supplements[i] = s.supplement(fmt.Sprintf("supplements[%d]", i), &p)
	}
	loc, err := domain.Location(f.Timezone)
	if err != nil {
		loc = time.UTC // the domain rules report the time zone
	}
	e.TransfersUntil = instant("transfersUntil", f.TransfersUntil, loc, &p)
	for i, c := range f.Promocodes {
		e.Promocodes[i] = c.promocode(fmt.Sprintf("promocodes[%d]", i), loc, &p)
	}
	for i, x := range f.Fees {
		at := fmt.Sprintf("fees[%d]", i)
		e.Fees[i] = domain.Fee{Key: x.Key, Name: x.Name, Charge: x.read(at, &p), Per: domain.Scope(or(x.Per, string(domain.PerRegistration)))}
	}
	return e, p
}

func (c category) category(at string, p *[]string) domain.Category {
	out := domain.Category{
		Key: c.Key, Name: c.Name, Description: c.Description, TeamSize: domain.TeamSize{Min: 1, Max: 1},
		Gender: domain.Gender(or(c.Gender, string(domain.GenderOpen))), AgeMin: c.AgeMin, AgeMax: c.AgeMax,
		Quota: c.Quota, BasePrice: c.BasePrice, Private: c.Private, Published: orTrue(c.Published),
		Tiers: make([]domain.Tier, len(c.Tiers)),
	}
	if c.TeamSize != nil {
		out.TeamSize = domain.TeamSize{Min: c.TeamSize.Min, Max: c.TeamSize.Max}
	}
	for j, t := range c.Tiers {
		tat := fmt.Sprintf("%s.tiers[%d]", at, j)
		out.Tiers[j] = domain.Tier{
			Key: t.Key, Name: t.Name, Price: t.Price, UpToPlaces: t.UpToPlaces,
			From: optionalDate(tat+".from", t.From, p), Until: optionalDate(tat+".until", t.Until, p),
		}
	}
	return out
}

func (s supplement) supplement(at string, p *[]string) domain.Supplement {
	out := domain.Supplement{
		Key: s.Key, Name: s.Name, Description: s.Description, Active: orTrue(s.Active),
		Per: domain.Scope(or(s.Per, string(domain.PerRegistration))), Price: s.Price, Options: []domain.SupplementOption{},
	}
	// Neither price nor options is reported by the domain rules.
	if s.Price != nil && len(s.Options) > 0 {
		*p = append(*p, at+" must have either price (a single-price supplement) or options, not both")
	}
	for _, o := range s.Options {
		out.Options = append(out.Options, domain.SupplementOption{Key: o.Key, Name: o.Name, Price: o.Price, Active: orTrue(o.Active)})
	}
	return out
}

func (c promocode) promocode(at string, loc *time.Location, p *[]string) domain.Promocode {
	return domain.Promocode{
		Key: c.Key, Code: c.Code, Discount: c.read(at, p),
		ValidFrom: instant(at+".validFrom", c.ValidFrom, loc, p), ValidUntil: instant(at+".validUntil", c.ValidUntil, loc, p),
		MaxUses: c.MaxUses, CategoryKeys: orEmpty(c.Categories),
	}
}

// read reads the choice between percent (with at most two decimals, stored as basis points)
// and amount. Neither is reported by the domain rules.
func (a adjustment) read(at string, p *[]string) domain.Adjustment {
	percent, amount := a.Percent, a.Amount
	if percent != nil && amount != nil {
		*p = append(*p, at+" must have either percent or amount, not both")
		amount = nil
	}
	switch {
	case percent != nil:
		r, ok := new(big.Rat).SetString(percent.String())
		if !ok {
			*p = append(*p, at+".percent must be a number")
			return domain.Adjustment{Type: domain.Percent}
		}
		bp := r.Mul(r, big.NewRat(100, 1))
		if !bp.IsInt() || !bp.Num().IsInt64() {
			*p = append(*p, at+".percent must have at most two decimals")
			return domain.Adjustment{Type: domain.Percent}
		}
		return domain.Adjustment{Type: domain.Percent, BasisPoints: int(bp.Num().Int64())}
	case amount != nil:
		return domain.Adjustment{Type: domain.Fixed, Amount: *amount}
	}
	return domain.Adjustment{}
}

func optionalDate(path string, s *string, p *[]string) *domain.Date {
	if s == nil {
		return nil
	}
	d, err := domain.ParseDate(*s)
	if err != nil {
		*p = append(*p, path+" must be a real calendar date in the form YYYY-MM-DD")
		return nil
	}
	return &d
}

// instant reads a date (00:00 in the event's time zone) or an RFC 3339 date-time.
func instant(path string, s *string, loc *time.Location, p *[]string) *time.Time {
	if s == nil {
		return nil
	}
	if d, err := domain.ParseDate(*s); err == nil {
		t := d.StartIn(loc).UTC()
		return &t
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		*p = append(*p, path+" must be a date YYYY-MM-DD (00:00 in the event's time zone) or an RFC 3339 date-time")
		return nil
	}
	t = clock.Stored(t)
	return &t
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func orTrue(b *bool) bool { return b == nil || *b }

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
