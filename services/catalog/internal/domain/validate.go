package domain

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
)

// Limits of authored values.
const (
	MaxNameLength  = 200
	MaxTextLength  = 100_000
	MaxCodeLength  = 40
	MaxTeamSize    = 100
	MaxAge         = 120
	MaxAmount      = 9007199254740991
	MaxBasisPoints = 10_000
)

var (
	externalIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)
	keyPattern        = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
)

// ValidExternalID reports whether s can identify an event within its organizer.
func ValidExternalID(s string) bool { return externalIDPattern.MatchString(s) }

// Validate checks the rules of an authored event that its shape alone does not express and
// returns an invalid-input failure (fault.Invalid) listing every problem, each naming its
// field path in the import file, or nil.
func (e Event) Validate() error {
	var p fault.Problems
	e.validateEvent(&p)
	categories := e.validateCategories(&p)
	e.validateFormFields(&p, categories)
	e.validateWaiversAndSponsors(&p)
	e.validateSupplements(&p)
	e.validatePromocodes(&p, categories)
	e.validateFees(&p)
	return p.Err(fault.Invalid)
}

func (e Event) validateEvent(p *fault.Problems) {
	if !ValidExternalID(e.ExternalID) {
		p.Add("externalId must be 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	requireName(p, "name", e.Name)
	if !slices.Contains(Statuses, e.Status) {
		p.Add("status must be one of " + joinStatuses())
	}
	if e.EndDate.Before(e.StartDate) {
		p.Add("endDate must not be before startDate")
	}
	if _, err := Location(e.Timezone); err != nil {
		p.Add(err.Error())
	}
	if u, err := currency.ParseISO(e.Currency); err != nil || u.String() != e.Currency {
		p.Addf("currency %q is not an ISO 4217 currency code", e.Currency)
	}
	maxName(p, "venue.name", e.Venue.Name)
	maxName(p, "venue.address", e.Venue.Address)
	maxName(p, "venue.city", e.Venue.City)
	maxName(p, "venue.region", e.Venue.Region)
	if cc := e.Venue.CountryCode; cc != "" {
		if r, err := language.ParseRegion(cc); err != nil || !r.IsCountry() || r.String() != cc || len(cc) != 2 {
			p.Addf("venue.countryCode %q is not an ISO 3166-1 alpha-2 country code in uppercase", cc)
		}
	}
	maxText(p, "description", e.Description)
	maxText(p, "internalNotes", e.InternalNotes)
}

// validateCategories checks the categories and returns their keys.
func (e Event) validateCategories(p *fault.Problems) map[string]bool {
	keys := uniqueKeys(p, "categories", len(e.Categories), func(i int) string { return e.Categories[i].Key })
	for i, c := range e.Categories {
		at := fmt.Sprintf("categories[%d]", i)
		requireName(p, at+".name", c.Name)
		maxText(p, at+".description", c.Description)
		if c.TeamSize.Min < 1 || c.TeamSize.Max > MaxTeamSize || c.TeamSize.Max < c.TeamSize.Min {
			p.Addf("%s.teamSize must have 1 <= min <= max <= %d", at, MaxTeamSize)
		}
		switch c.Gender {
		case GenderOpen, GenderMale, GenderFemale, GenderMixed:
		default:
			p.Add(at + ".gender must be one of OPEN, MALE, FEMALE, MIXED")
		}
		if c.Gender == GenderMixed && c.TeamSize.Max < 2 {
			p.Add(at + ".gender MIXED needs teams of at least 2 athletes (teamSize.max >= 2)")
		}
		bounded(p, at+".ageMin", c.AgeMin, 0, MaxAge)
		bounded(p, at+".ageMax", c.AgeMax, 0, MaxAge)
		if c.AgeMin != nil && c.AgeMax != nil && *c.AgeMax < *c.AgeMin {
			p.Add(at + ".ageMax must not be less than ageMin")
		}
		bounded(p, at+".quota", c.Quota, 0, 1_000_000)
		amount(p, at+".basePrice", c.BasePrice)
		c.validateTiers(p, at)
	}
	return keys
}

func (c Category) validateTiers(p *fault.Problems, at string) {
	uniqueKeys(p, at+".tiers", len(c.Tiers), func(i int) string { return c.Tiers[i].Key })
	for j, t := range c.Tiers {
		tat := fmt.Sprintf("%s.tiers[%d]", at, j)
		maxName(p, tat+".name", t.Name)
		amount(p, tat+".price", t.Price)
		if t.From == nil && t.Until == nil && t.UpToPlaces == nil {
			p.Add(tat + " must have a condition: from, until or upToPlaces")
		}
		if t.From != nil && t.Until != nil && !t.From.Before(*t.Until) {
			p.Add(tat + ".until must be after from")
		}
		bounded(p, tat+".upToPlaces", t.UpToPlaces, 1, 1_000_000)
	}
}

func (e Event) validateFormFields(p *fault.Problems, categories map[string]bool) {
	uniqueKeys(p, "formFields", len(e.FormFields), func(i int) string { return e.FormFields[i].Key })
	for i, f := range e.FormFields {
		at := fmt.Sprintf("formFields[%d]", i)
		requireName(p, at+".label", f.Label)
		switch f.Type {
		case FieldText, FieldNumber, FieldBoolean, FieldDate:
			if len(f.Options) > 0 {
				p.Addf("%s.options are only for select and multiselect fields, not %s", at, f.Type)
			}
		case FieldSelect, FieldMultiselect:
			if len(f.Options) == 0 {
				p.Addf("%s.options must list the choices of a %s field", at, f.Type)
			}
			for j, o := range f.Options {
				if strings.TrimSpace(o) == "" {
					p.Addf("%s.options[%d] must not be empty", at, j)
				} else if !safetext.Valid(o) {
					p.Addf("%s.options[%d] %s", at, j, safetext.Rule)
				} else if slices.Index(f.Options, o) < j {
					p.Addf("%s.options[%d] %q is listed twice", at, j, o)
				}
			}
		default:
			p.Add(at + ".type must be one of text, number, boolean, select, multiselect, date")
		}
		if f.AppliesTo != PerAthlete && f.AppliesTo != PerTeam {
			p.Add(at + ".appliesTo must be one of ATHLETE, TEAM")
		}
		knownCategories(p, at+".categories", f.CategoryKeys, categories)
	}
}

func (e Event) validateWaiversAndSponsors(p *fault.Problems) {
	uniqueKeys(p, "waivers", len(e.Waivers), func(i int) string { return e.Waivers[i].Key })
	for i, w := range e.Waivers {
		at := fmt.Sprintf("waivers[%d]", i)
		requireName(p, at+".title", w.Title)
		if strings.TrimSpace(w.Text) == "" {
			p.Add(at + ".text is required")
		}
		maxText(p, at+".text", w.Text)
	}
	uniqueKeys(p, "sponsors", len(e.Sponsors), func(i int) string { return e.Sponsors[i].Key })
	for i, s := range e.Sponsors {
		at := fmt.Sprintf("sponsors[%d]", i)
		requireName(p, at+".name", s.Name)
		webURL(p, at+".logoUrl", s.LogoURL)
		webURL(p, at+".websiteUrl", s.WebsiteURL)
	}
}

func (e Event) validateSupplements(p *fault.Problems) {
	uniqueKeys(p, "supplements", len(e.Supplements), func(i int) string { return e.Supplements[i].Key })
	for i, s := range e.Supplements {
		at := fmt.Sprintf("supplements[%d]", i)
		requireName(p, at+".name", s.Name)
		maxText(p, at+".description", s.Description)
		if s.Per != PerRegistration && s.Per != PerAthlete {
			p.Add(at + ".per must be one of REGISTRATION, ATHLETE")
		}
		if s.Price != nil {
			amount(p, at+".price", *s.Price)
			continue
		}
		if len(s.Options) == 0 {
			p.Add(at + " must have a price or at least one option")
		}
		uniqueKeys(p, at+".options", len(s.Options), func(j int) string { return s.Options[j].Key })
		for j, o := range s.Options {
			oat := fmt.Sprintf("%s.options[%d]", at, j)
			requireName(p, oat+".name", o.Name)
			amount(p, oat+".price", o.Price)
		}
	}
}

func (e Event) validatePromocodes(p *fault.Problems, categories map[string]bool) {
	uniqueKeys(p, "promocodes", len(e.Promocodes), func(i int) string { return e.Promocodes[i].Key })
	for i, c := range e.Promocodes {
		at := fmt.Sprintf("promocodes[%d]", i)
		switch {
		case strings.TrimSpace(c.Code) == "":
			p.Add(at + ".code is required")
		case strings.IndexFunc(c.Code, unicode.IsLower) >= 0:
			p.Add(at + ".code must not contain lowercase letters")
		case utf8.RuneCountInString(c.Code) > MaxCodeLength || strings.IndexFunc(c.Code, unicode.IsSpace) >= 0:
			p.Addf("%s.code must be at most %d characters without spaces", at, MaxCodeLength)
		}
		for j := range i {
			if e.Promocodes[j].Code == c.Code && c.Code != "" {
				p.Addf("%s.code %q is already used by promocodes[%d]", at, c.Code, j)
				break
			}
		}
		adjustment(p, at, c.Discount, 1)
		if c.ValidFrom != nil && c.ValidUntil != nil && !c.ValidFrom.Before(*c.ValidUntil) {
			p.Add(at + ".validUntil must be after validFrom")
		}
		bounded(p, at+".maxUses", c.MaxUses, 1, 1_000_000_000)
		knownCategories(p, at+".categories", c.CategoryKeys, categories)
	}
}

func (e Event) validateFees(p *fault.Problems) {
	uniqueKeys(p, "fees", len(e.Fees), func(i int) string { return e.Fees[i].Key })
	for i, f := range e.Fees {
		at := fmt.Sprintf("fees[%d]", i)
		requireName(p, at+".name", f.Name)
		adjustment(p, at, f.Charge, 0)
		if f.Per != PerRegistration && f.Per != PerOrder {
			p.Add(at + ".per must be one of REGISTRATION, ORDER")
		}
	}
}
