package domain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

func intp(v int) *int { return &v }

func date(s string) time.Time {
	t, err := time.Parse(domain.DateLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestAgeOn(t *testing.T) {
	for _, c := range []struct {
		birth, day string
		want       int
	}{
		{"2000-06-12", "2027-06-12", 27},
		{"2000-06-13", "2027-06-12", 26},
		{"2000-06-11", "2027-06-12", 27},
		{"2009-06-12", "2027-06-12", 18},
		{"2009-06-13", "2027-06-12", 17},
		// Leap-day birthdays turn a year older on March 1 in common years.
		{"2008-02-29", "2026-02-28", 17},
		{"2008-02-29", "2026-03-01", 18},
		{"2008-02-29", "2028-02-29", 20},
		{"2008-02-29", "2028-02-28", 19},
		{"2027-06-12", "2027-06-12", 0},
	} {
		if got := domain.AgeOn(date(c.birth), date(c.day)); got != c.want {
			t.Errorf("AgeOn(%s, %s) = %d, want %d", c.birth, c.day, got, c.want)
		}
	}
}

func event() domain.Event {
	return domain.Event{
		ID: "evt_1", OrganizerID: "org_1", StartDate: "2027-06-12", Status: "PUBLISHED", Currency: "EUR",
		Categories: []domain.Category{
			{ID: "cat_solo", TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderOpen, AgeMin: intp(18), AgeMax: intp(39)},
			{ID: "cat_team", TeamSize: domain.TeamSize{Min: 2, Max: 3}, Gender: domain.GenderMixed},
			{ID: "cat_pair", TeamSize: domain.TeamSize{Min: 2, Max: 2}, Gender: domain.GenderFemale},
			{ID: "cat_men", TeamSize: domain.TeamSize{Min: 1, Max: 4}, Gender: domain.GenderMale},
		},
		FormFields: []domain.FormField{
			{ID: "fld_sel", Label: "Size", Type: domain.FieldSelect, Required: true, Options: []string{"S", "M"}, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_txt", Type: domain.FieldText, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_num", Type: domain.FieldNumber, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_bool", Type: domain.FieldBoolean, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_multi", Type: domain.FieldMultiselect, Options: []string{"A", "B"}, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_date", Type: domain.FieldDate, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_team_only", Type: domain.FieldText, AppliesTo: domain.AppliesToTeam, CategoryIDs: []string{"cat_team"}},
			{ID: "fld_ath", Label: "Shirt", Type: domain.FieldSelect, Required: true, Options: []string{"S", "M"}, AppliesTo: domain.AppliesToAthlete, CategoryIDs: []string{"cat_team"}},
		},
		Supplements: []domain.Supplement{
			{ID: "sup_tee", Kind: domain.SupplementSinglePrice, Active: true},
			{ID: "sup_off", Kind: domain.SupplementSinglePrice, Active: false},
			{ID: "sup_meal", Kind: domain.SupplementOptions, Active: true, Options: []domain.SupplementOption{{ID: "opt_a", Active: true}, {ID: "opt_b", Active: false}}},
		},
	}
}

func man(birth string) domain.Athlete {
	return domain.Athlete{Fullname: "M", IDNumber: "1", Email: "m@x.io", Phone: "+34600000000", Gender: "MALE", BirthDate: birth}
}

func woman(birth string) domain.Athlete {
	a := man(birth)
	a.Gender = "FEMALE"
	return a
}

var size = []domain.CustomFieldValue{{FieldID: "fld_sel", Value: "S"}}

func idx(i int) *int { return &i }

func TestCheckEligibility(t *testing.T) {
	cases := []struct {
		name string
		in   domain.RegistrationInput
		want []string // substrings of the problems, in order; none means valid
	}{
		{"valid solo", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: size}, nil},
		{"solo with two athletes", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01"), man("1990-01-01")}, CustomFields: size},
			[]string{"athletes: the category cat_solo takes one athlete per registration, got 2"}},
		{"team too small", domain.RegistrationInput{CategoryID: "cat_team", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: size},
			[]string{"athletes: the category cat_team takes teams of 2 to 3 athletes, got 1"}},
		{"team too large", domain.RegistrationInput{CategoryID: "cat_men", Athletes: []domain.Athlete{man("1990-01-01"), man("1990-01-01"), man("1990-01-01"), man("1990-01-01"), man("1990-01-01")}, CustomFields: size},
			[]string{"teams of 1 to 4 athletes, got 5"}},
		{"pending places count toward the team size", domain.RegistrationInput{CategoryID: "cat_pair", Athletes: []domain.Athlete{woman("1990-01-01")}, PendingParticipants: 1, CustomFields: size}, nil},
		{"too young on the event date", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("2009-06-13")}, CustomFields: size},
			[]string{"athletes[0].birthDate: athlete is 17 on 2027-06-12, the category requires at least 18"}},
		{"18 on the event date", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("2009-06-12")}, CustomFields: size}, nil},
		{"too old", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1987-06-11")}, CustomFields: size},
			[]string{"athlete is 40 on 2027-06-12, the category allows at most 39"}},
		{"female category with a man", domain.RegistrationInput{CategoryID: "cat_pair", Athletes: []domain.Athlete{woman("1990-01-01"), man("1990-01-01")}, CustomFields: size},
			[]string{"athletes[1].gender: the category cat_pair is for FEMALE athletes only"}},
		{"male category with a woman", domain.RegistrationInput{CategoryID: "cat_men", Athletes: []domain.Athlete{woman("1990-01-01")}, CustomFields: size},
			[]string{"athletes[0].gender: the category cat_men is for MALE athletes only"}},
		{"mixed without a woman", domain.RegistrationInput{CategoryID: "cat_team", Athletes: []domain.Athlete{man("1990-01-01"), man("1990-01-01")},
			CustomFields: []domain.CustomFieldValue{{FieldID: "fld_sel", Value: "S"}, {FieldID: "fld_ath", Value: "S", AthleteIndex: idx(0)}, {FieldID: "fld_ath", Value: "M", AthleteIndex: idx(1)}}},
			[]string{"MIXED: a team needs at least one MALE and one FEMALE"}},
		{"mixed valid with athlete fields", domain.RegistrationInput{CategoryID: "cat_team", Athletes: []domain.Athlete{man("1990-01-01"), woman("1990-01-01")},
			CustomFields: []domain.CustomFieldValue{{FieldID: "fld_sel", Value: "S"}, {FieldID: "fld_ath", Value: "S", AthleteIndex: idx(0)}, {FieldID: "fld_ath", Value: "M", AthleteIndex: idx(1)}}}, nil},
		{"athlete field missing for one athlete", domain.RegistrationInput{CategoryID: "cat_team", Athletes: []domain.Athlete{man("1990-01-01"), woman("1990-01-01")},
			CustomFields: []domain.CustomFieldValue{{FieldID: "fld_sel", Value: "S"}, {FieldID: "fld_ath", Value: "S", AthleteIndex: idx(0)}}},
			[]string{"customFields: form field fld_ath (Shirt) is required for athletes[1]"}},
		{"athlete field without index", domain.RegistrationInput{CategoryID: "cat_team", Athletes: []domain.Athlete{man("1990-01-01"), woman("1990-01-01")},
			CustomFields: []domain.CustomFieldValue{{FieldID: "fld_sel", Value: "S"}, {FieldID: "fld_ath", Value: "S"}}},
			[]string{"customFields[1].athleteIndex: form field fld_ath is asked per athlete", "required for athletes[0]", "required for athletes[1]"}},
		{"team field with an index", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")},
			CustomFields: []domain.CustomFieldValue{{FieldID: "fld_sel", Value: "S", AthleteIndex: idx(0)}}},
			[]string{"customFields[0].athleteIndex: form field fld_sel is asked once per team", "fld_sel (Size) is required"}},
		{"required field missing", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}},
			[]string{"customFields: form field fld_sel (Size) is required"}},
		{"required field empty", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: []domain.CustomFieldValue{{FieldID: "fld_sel", Value: ""}}},
			[]string{"customFields[0].value: form field fld_sel is required and must not be empty"}},
		{"wrong types and options", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: []domain.CustomFieldValue{
			{FieldID: "fld_sel", Value: "XL"}, {FieldID: "fld_txt", Value: 3.0}, {FieldID: "fld_num", Value: "3"}, {FieldID: "fld_bool", Value: "yes"},
			{FieldID: "fld_multi", Value: []any{"A", "C"}}, {FieldID: "fld_date", Value: "2027-02-30"}}},
			[]string{"customFields[0].value: must be one of S, M", "customFields[1].value: must be a string", "customFields[2].value: must be a number",
				"customFields[3].value: must be a boolean", "customFields[4].value: every item must be one of A, B", "customFields[5].value: must be a real calendar date"}},
		{"valid types", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: []domain.CustomFieldValue{
			{FieldID: "fld_sel", Value: "M"}, {FieldID: "fld_txt", Value: "hi"}, {FieldID: "fld_num", Value: 3.5}, {FieldID: "fld_bool", Value: false},
			{FieldID: "fld_multi", Value: []any{"A", "B"}}, {FieldID: "fld_date", Value: "2028-02-29"}}}, nil},
		{"multiselect not an array, duplicate option", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: []domain.CustomFieldValue{
			{FieldID: "fld_sel", Value: "M"}, {FieldID: "fld_multi", Value: "A"}}},
			[]string{"customFields[1].value: must be an array of options"}},
		{"unknown field, field of another category, duplicate", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: []domain.CustomFieldValue{
			{FieldID: "fld_sel", Value: "M"}, {FieldID: "fld_nope", Value: "x"}, {FieldID: "fld_team_only", Value: "x"}, {FieldID: "fld_sel", Value: "S"}}},
			[]string{"customFields[1].fieldId: form field fld_nope does not exist in event evt_1", "customFields[2].fieldId: form field fld_team_only does not apply to category cat_solo", "customFields[3].fieldId: form field fld_sel has a value already"}},
		{"supplements", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: size,
			SupplementIDs:        []string{"sup_tee", "sup_nope", "sup_off", "sup_meal", "sup_tee"},
			SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_meal", OptionID: "opt_b"}, {SupplementID: "sup_tee", OptionID: "x"}, {SupplementID: "sup_nope", OptionID: "x"}}},
			[]string{"selectedSupplementIds[1]: supplement sup_nope does not exist in event evt_1", "selectedSupplementIds[2]: supplement sup_off is not active",
				"selectedSupplementIds[3]: supplement sup_meal has options: choose one in supplementSelections", "selectedSupplementIds[4]: supplement sup_tee is chosen twice",
				"supplementSelections[0].optionId: option opt_b of supplement sup_meal is not active", "supplementSelections[1].supplementId: supplement sup_tee has a single price",
				"supplementSelections[2].supplementId: supplement sup_nope does not exist"}},
		{"option of another supplement", domain.RegistrationInput{CategoryID: "cat_solo", Athletes: []domain.Athlete{man("1990-01-01")}, CustomFields: size,
			SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_meal", OptionID: "opt_x"}}},
			[]string{"supplementSelections[0].optionId: option opt_x does not belong to supplement sup_meal"}},
	}
	e := event()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cat, _ := e.Category(c.in.CategoryID)
			err := domain.CheckEligibility("", e, cat, c.in)
			if len(c.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected problems: %v", err)
				}
				return
			}
			re, ok := fault.Of(err)
			if !ok || re.Kind != fault.Unprocessable {
				t.Fatalf("got %v, want a RuleError", err)
			}
			all := strings.Join(re.Problems, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems\n%s\ndo not mention %q", all, w)
				}
			}
		})
	}
}

func TestCheckShape(t *testing.T) {
	err := domain.CheckShape("registrations[0].", domain.RegistrationInput{Athletes: []domain.Athlete{{Gender: "X", BirthDate: "2023-02-29"}}})
	ve, ok := fault.Of(err)
	if !ok || ve.Kind != fault.Invalid {
		t.Fatalf("got %v", err)
	}
	all := strings.Join(ve.Problems, "\n")
	for _, w := range []string{"registrations[0].categoryId: is required", "registrations[0].teamName: is required",
		"registrations[0].athletes[0].fullname", "athletes[0].gender: must be MALE or FEMALE", "athletes[0].birthDate: must be a real calendar date"} {
		if !strings.Contains(all, w) {
			t.Errorf("%s\ndoes not mention %q", all, w)
		}
	}
}

func TestDecideDelete(t *testing.T) {
	for _, c := range []struct {
		order  domain.OrderStatus
		ticket domain.TicketStatus
		want   domain.DeleteAction
	}{
		{domain.OrderPending, domain.TicketActive, domain.ActionRemove},
		{domain.OrderCancelled, domain.TicketCancelled, domain.ActionRemove},
		{domain.OrderFailed, domain.TicketCancelled, domain.ActionRemove},
		{domain.OrderCompleted, domain.TicketActive, domain.ActionCancel},
		{domain.OrderRefunded, domain.TicketActive, domain.ActionCancel},
		{domain.OrderCompleted, domain.TicketCancelled, domain.ActionNone},
	} {
		if got := domain.DecideDelete(c.order, c.ticket); got != c.want {
			t.Errorf("DecideDelete(%s, %s) = %d, want %d", c.order, c.ticket, got, c.want)
		}
	}
}
