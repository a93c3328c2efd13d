package domain_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// validEvent returns an authored event that passes every rule.
func validEvent(t *testing.T) domain.Event {
	t.Helper()
	return domain.Event{
		ExternalID: "summer-2027", Name: "Summer", Status: domain.Published,
		StartDate: mustDate(t, "2027-06-12"), EndDate: mustDate(t, "2027-06-13"), Timezone: "Europe/Madrid", Currency: "EUR",
		Venue: domain.Venue{Name: "Pabellón", City: "València", CountryCode: "ES"},
		Categories: []domain.Category{
			{Key: "rx", Name: "RX", TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderMale, AgeMin: intPtr(18),
				BasePrice: 8500, Published: true, Tiers: []domain.Tier{
					{Key: "early", Price: 6500, Until: datePtr(t, "2027-02-01")},
					{Key: "first", Price: 7000, UpToPlaces: intPtr(10)},
				}},
			{Key: "teams", Name: "Teams", TeamSize: domain.TeamSize{Min: 2, Max: 3}, Gender: domain.GenderMixed, BasePrice: 18000, Published: true},
		},
		FormFields: []domain.FormField{
			{Key: "size", Label: "Size", Type: domain.FieldSelect, Options: []string{"S", "M"}, AppliesTo: domain.PerAthlete},
			{Key: "box", Label: "Box", Type: domain.FieldText, Options: []string{}, AppliesTo: domain.PerTeam, CategoryKeys: []string{"teams"}},
		},
		Waivers:  []domain.Waiver{{Key: "liability", Title: "Liability", Text: "At my own risk.", Required: true}},
		Sponsors: []domain.Sponsor{{Key: "acme", Name: "Acme", LogoURL: "https://cdn.example.com/acme.png"}},
		Supplements: []domain.Supplement{
			{Key: "parking", Name: "Parking", Active: true, Per: domain.PerRegistration, Price: ptr64(800)},
			{Key: "shirt", Name: "Shirt", Active: true, Per: domain.PerAthlete, Options: []domain.SupplementOption{
				{Key: "m", Name: "M", Price: 1500, Active: true},
			}},
		},
		Promocodes: []domain.Promocode{
			{Key: "early", Code: "EARLY10", Discount: domain.Adjustment{Type: domain.Percent, BasisPoints: 1000}},
		},
		Fees: []domain.Fee{{Key: "service", Name: "Service", Charge: domain.Adjustment{Type: domain.Fixed, Amount: 100}, Per: domain.PerOrder}},
	}
}

func ptr64(n int64) *int64 { return &n }

func problemsOf(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	f, ok := fault.Of(err)
	if !ok || f.Kind != fault.Invalid {
		t.Fatalf("error %v is not an invalid-input failure", err)
	}
	return f.Problems
}

func TestValidEventPasses(t *testing.T) {
	if err := validEvent(t).Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateNamesEachProblemByPath(t *testing.T) {
	cases := []struct {
		name   string
		change func(e *domain.Event)
		want   []string
	}{
		{"external id", func(e *domain.Event) { e.ExternalID = "-x" },
			[]string{"externalId must be 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit"}},
		{"name", func(e *domain.Event) { e.Name = "  " }, []string{"name is required"}},
		{"long name", func(e *domain.Event) { e.Name = strings.Repeat("é", 201) }, []string{"name must be at most 200 characters long"}},
		{"name forging a line", func(e *domain.Event) { e.Name = "Summer\nevt_forged  Winter  PUBLISHED" },
			[]string{"name " + safetext.Rule}},
		{"names with escapes and overrides", func(e *domain.Event) {
			e.Categories[0].Name, e.Categories[0].Tiers[0].Name = "RX\x1b[2K", "early\u202e"
			e.Venue.City, e.FormFields[0].Options[1] = "València\t", "M\u2028"
		}, []string{
			"venue.city " + safetext.Rule,
			"categories[0].name " + safetext.Rule,
			"categories[0].tiers[0].name " + safetext.Rule,
			"formFields[0].options[1] " + safetext.Rule,
		}},
		{"status", func(e *domain.Event) { e.Status = "LIVE" },
			[]string{"status must be one of DRAFT, PUBLISHED, UNDER_REVIEW, POSTPONED, COMPLETED, CANCELLED, ARCHIVED"}},
		{"dates", func(e *domain.Event) { e.EndDate = mustDate(t, "2027-06-11") }, []string{"endDate must not be before startDate"}},
		{"time zone", func(e *domain.Event) { e.Timezone = "Europe/Madird" }, []string{`timezone "Europe/Madird" is not an IANA time zone`}},
		{"currency", func(e *domain.Event) { e.Currency = "EUX" }, []string{`currency "EUX" is not an ISO 4217 currency code`}},
		{"lowercase currency", func(e *domain.Event) { e.Currency = "eur" }, []string{`currency "eur" is not an ISO 4217 currency code`}},
		{"country", func(e *domain.Event) { e.Venue.CountryCode = "EU" },
			[]string{`venue.countryCode "EU" is not an ISO 3166-1 alpha-2 country code in uppercase`}},
		{"category key", func(e *domain.Event) { e.Categories[0].Key = "teams" },
			[]string{`categories[1].key "teams" is already used by categories[0]`}},
		{"gender", func(e *domain.Event) { e.Categories[0].Gender = "ANY" },
			[]string{"categories[0].gender must be one of OPEN, MALE, FEMALE, MIXED"}},
		{"mixed solo", func(e *domain.Event) { e.Categories[1].TeamSize.Max = 1; e.Categories[1].TeamSize.Min = 1 },
			[]string{"categories[1].gender MIXED needs teams of at least 2 athletes (teamSize.max >= 2)"}},
		{"team size", func(e *domain.Event) { e.Categories[1].TeamSize = domain.TeamSize{Min: 3, Max: 2} },
			[]string{"categories[1].teamSize must have 1 <= min <= max <= 100"}},
		{"ages", func(e *domain.Event) { e.Categories[0].AgeMax = intPtr(17) }, []string{"categories[0].ageMax must not be less than ageMin"}},
		{"age bound", func(e *domain.Event) { e.Categories[0].AgeMin = intPtr(121) },
			[]string{"categories[0].ageMin must be an integer from 0 to 120"}},
		{"price", func(e *domain.Event) { e.Categories[0].BasePrice = -1 },
			[]string{"categories[0].basePrice must be an amount in minor units of the event currency, from 0 to 9007199254740991"}},
		{"tier window", func(e *domain.Event) { e.Categories[0].Tiers[0].From = datePtr(t, "2027-02-01") },
			[]string{"categories[0].tiers[0].until must be after from"}},
		{"tier without condition", func(e *domain.Event) { e.Categories[0].Tiers[1].UpToPlaces = nil },
			[]string{"categories[0].tiers[1] must have a condition: from, until or upToPlaces"}},
		{"tier count", func(e *domain.Event) { e.Categories[0].Tiers[1].UpToPlaces = intPtr(0) },
			[]string{"categories[0].tiers[1].upToPlaces must be an integer from 1 to 1000000"}},
		{"tier key", func(e *domain.Event) { e.Categories[0].Tiers[1].Key = "early" },
			[]string{`categories[0].tiers[1].key "early" is already used by categories[0].tiers[0]`}},
		{"field options missing", func(e *domain.Event) { e.FormFields[0].Options = nil },
			[]string{"formFields[0].options must list the choices of a select field"}},
		{"field options not allowed", func(e *domain.Event) { e.FormFields[1].Options = []string{"a"} },
			[]string{"formFields[1].options are only for select and multiselect fields, not text"}},
		{"field option twice", func(e *domain.Event) { e.FormFields[0].Options = []string{"S", "S"} },
			[]string{`formFields[0].options[1] "S" is listed twice`}},
		{"field type", func(e *domain.Event) { e.FormFields[1].Type = "checkbox" },
			[]string{"formFields[1].type must be one of text, number, boolean, select, multiselect, date"}},
		{"field category", func(e *domain.Event) { e.FormFields[1].CategoryKeys = []string{"teams", "kids"} },
			[]string{`formFields[1].categories[1] "kids" is not the key of a category of the event`}},
		{"field scope", func(e *domain.Event) { e.FormFields[0].AppliesTo = domain.PerOrder },
			[]string{"formFields[0].appliesTo must be one of ATHLETE, TEAM"}},
		{"waiver text", func(e *domain.Event) { e.Waivers[0].Text = "" }, []string{"waivers[0].text is required"}},
		{"sponsor url", func(e *domain.Event) { e.Sponsors[0].WebsiteURL = "javascript:alert(1)" },
			[]string{"sponsors[0].websiteUrl must be an absolute http or https URL"}},
		{"supplement per", func(e *domain.Event) { e.Supplements[0].Per = domain.PerOrder },
			[]string{"supplements[0].per must be one of REGISTRATION, ATHLETE"}},
		{"supplement options", func(e *domain.Event) { e.Supplements[1].Options = nil },
			[]string{"supplements[1] must have a price or at least one option"}},
		{"option key", func(e *domain.Event) {
			e.Supplements[1].Options = append(e.Supplements[1].Options, domain.SupplementOption{Key: "m", Name: "M2"})
		}, []string{`supplements[1].options[1].key "m" is already used by supplements[1].options[0]`}},
		{"lowercase code", func(e *domain.Event) { e.Promocodes[0].Code = "Early10" },
			[]string{"promocodes[0].code must not contain lowercase letters"}},
		{"code twice", func(e *domain.Event) {
			e.Promocodes = append(e.Promocodes, domain.Promocode{Key: "again", Code: "EARLY10", Discount: domain.Adjustment{Type: domain.Fixed, Amount: 5}})
		}, []string{`promocodes[1].code "EARLY10" is already used by promocodes[0]`}},
		{"percent", func(e *domain.Event) { e.Promocodes[0].Discount.BasisPoints = 10001 },
			[]string{"promocodes[0].percent must be greater than 0 and at most 100"}},
		{"zero discount", func(e *domain.Event) { e.Promocodes[0].Discount = domain.Adjustment{Type: domain.Fixed} },
			[]string{"promocodes[0].amount must be an amount in minor units of the event currency, from 1 to 9007199254740991"}},
		{"validity", func(e *domain.Event) {
			from, until := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)
			e.Promocodes[0].ValidFrom, e.Promocodes[0].ValidUntil = &from, &until
		}, []string{"promocodes[0].validUntil must be after validFrom"}},
		{"max uses", func(e *domain.Event) { e.Promocodes[0].MaxUses = intPtr(0) },
			[]string{"promocodes[0].maxUses must be an integer from 1 to 1000000000"}},
		{"fee per", func(e *domain.Event) { e.Fees[0].Per = domain.PerAthlete }, []string{"fees[0].per must be one of REGISTRATION, ORDER"}},
		{"fee kind", func(e *domain.Event) { e.Fees[0].Charge = domain.Adjustment{} }, []string{"fees[0] must have either percent or amount"}},
		{"several at once", func(e *domain.Event) { e.Name = ""; e.Categories[0].Key = "" }, []string{
			"name is required",
			"categories[0].key must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := validEvent(t)
			c.change(&e)
			if got := problemsOf(t, e.Validate()); !slices.Equal(got, c.want) {
				t.Fatalf("problems %q\nwant     %q", got, c.want)
			}
		})
	}
}

func TestSearchBounds(t *testing.T) {
	s, err := domain.NewSearch("org_1", domain.SearchRequest{}, false)
	if err != nil || s.Limit != 50 || s.Offset != 0 || s.Text != "" || s.Status != "" || s.PublicOnly {
		t.Fatalf("defaults %+v %v", s, err)
	}
	text, status, limit, offset := "  Valencia ", "DRAFT", int64(100), int64(domain.MaxOffset)
	s, err = domain.NewSearch("org_1", domain.SearchRequest{Search: &text, Status: &status, Limit: &limit, Offset: &offset}, false)
	if err != nil || s.Text != "Valencia" || s.Status != domain.Draft || s.Limit != 100 || s.Offset != domain.MaxOffset {
		t.Fatalf("upper bounds %+v %v", s, err)
	}
	zero, big, neg, bad, long := int64(0), int64(101), int64(-1), "LIVE", strings.Repeat("a", 101)
	for _, c := range []struct {
		r      domain.SearchRequest
		public bool
		want   string
	}{
		{domain.SearchRequest{Limit: &zero}, false, "limit must be an integer from 1 to 100"},
		{domain.SearchRequest{Limit: &big}, true, "limit must be an integer from 1 to 100"},
		{domain.SearchRequest{Offset: &neg}, false, "offset must be an integer from 0 to 9007199254740991"},
		{domain.SearchRequest{Status: &bad}, false, "status must be one of DRAFT, PUBLISHED, UNDER_REVIEW, POSTPONED, COMPLETED, CANCELLED, ARCHIVED"},
		{domain.SearchRequest{Status: &status}, true, "status is not allowed"},
		{domain.SearchRequest{Search: &long}, false, "search must be at most 100 characters long"},
	} {
		if _, err := domain.NewSearch("org_1", c.r, c.public); !slices.Equal(problemsOf(t, err), []string{c.want}) {
			t.Errorf("%+v: %v, want %q", c.r, err, c.want)
		}
	}
}
