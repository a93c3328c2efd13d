package e2e

import (
	"encoding/json"
	"testing"
)

// bodyCase changes a valid create body b (its first athlete is a) and names the problem the
// gateway must report.
type bodyCase struct {
	name    string
	change  func(b, a map[string]any)
	problem string
}

func set(key string, v any) func(b, a map[string]any) {
	return func(b, _ map[string]any) { b[key] = v }
}
func drop(key string) func(b, a map[string]any) { return func(b, _ map[string]any) { delete(b, key) } }
func setAthlete(key string, v any) func(b, a map[string]any) {
	return func(_, a map[string]any) { a[key] = v }
}
func dropAthlete(key string) func(b, a map[string]any) {
	return func(_, a map[string]any) { delete(a, key) }
}

// athleteRules are the Athlete table of the spec, broken one at a time.
var athleteRules = []bodyCase{
	{"fullname required", dropAthlete("fullname"), "athletes[0].fullname is required"},
	{"fullname min length", setAthlete("fullname", ""), "athletes[0].fullname must not be empty"},
	{"idNumber required", dropAthlete("idNumber"), "athletes[0].idNumber is required"},
	{"idNumber min length", setAthlete("idNumber", ""), "athletes[0].idNumber must not be empty"},
	{"email required", dropAthlete("email"), "athletes[0].email is required"},
	{"email leading dot", setAthlete("email", ".ana@example.com"), "athletes[0].email must be a valid e-mail address"},
	{"email consecutive dots", setAthlete("email", "ana..ruiz@example.com"), "athletes[0].email must be a valid e-mail address"},
	{"email one-letter top-level part", setAthlete("email", "ana@example.c"), "athletes[0].email must be a valid e-mail address"},
	{"email numeric top-level part", setAthlete("email", "ana@example.123"), "athletes[0].email must be a valid e-mail address"},
	{"email without @", setAthlete("email", "ana.example.com"), "athletes[0].email must be a valid e-mail address"},
	{"email without domain dot", setAthlete("email", "ana@localhost"), "athletes[0].email must be a valid e-mail address"},
	{"phone required", dropAthlete("phone"), "athletes[0].phone is required"},
	{"phone without plus", setAthlete("phone", "34600111222"), "athletes[0].phone must be in E.164 form"},
	{"phone starting with 0", setAthlete("phone", "+0600111222"), "athletes[0].phone must be in E.164 form"},
	{"phone 6 digits", setAthlete("phone", "+123456"), "athletes[0].phone must be in E.164 form"},
	{"phone 16 digits", setAthlete("phone", "+1234567890123456"), "athletes[0].phone must be in E.164 form"},
	{"phone with spaces", setAthlete("phone", "+34 600 111 222"), "athletes[0].phone must be in E.164 form"},
	{"phone with letters", setAthlete("phone", "+34600ABC222"), "athletes[0].phone must be in E.164 form"},
	{"gender required", dropAthlete("gender"), "athletes[0].gender is required"},
	{"gender enum", setAthlete("gender", "OTHER"), "athletes[0].gender must be one of: MALE, FEMALE"},
	{"gender case", setAthlete("gender", "female"), "athletes[0].gender must be one of: MALE, FEMALE"},
	{"birthDate required", dropAthlete("birthDate"), "athletes[0].birthDate is required"},
	{"birthDate 29 Feb of a common year", setAthlete("birthDate", "2023-02-29"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate 29 Feb of a century not divisible by 400", setAthlete("birthDate", "1900-02-29"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate 30 Feb", setAthlete("birthDate", "2024-02-30"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate 31 April", setAthlete("birthDate", "2023-04-31"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate month 13", setAthlete("birthDate", "2023-13-01"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate day 0", setAthlete("birthDate", "2023-01-00"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate unpadded", setAthlete("birthDate", "1990-5-1"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate other format", setAthlete("birthDate", "01/02/1990"), "athletes[0].birthDate must be a real calendar date"},
	{"birthDate with a time", setAthlete("birthDate", "1990-01-01T00:00:00Z"), "athletes[0].birthDate must be a real calendar date"},
}

// createRules are the Create-registration table of the spec, broken one at a time.
var createRules = []bodyCase{
	{"eventId required", drop("eventId"), "eventId is required"},
	{"eventId min length", set("eventId", ""), "eventId must not be empty"},
	{"categoryId required", drop("categoryId"), "categoryId is required"},
	{"categoryId min length", set("categoryId", ""), "categoryId must not be empty"},
	{"teamName required", drop("teamName"), "teamName is required"},
	{"teamName min length", set("teamName", ""), "teamName must not be empty"},
	{"club is a string", set("club", 3), "club must be a string"},
	{"bib 0", set("bibRaceNumber", 0), "bibRaceNumber must be greater than 0"},
	{"bib negative", set("bibRaceNumber", -1), "bibRaceNumber must be greater than 0"},
	{"bib 2^53", set("bibRaceNumber", json.Number("9007199254740992")), "bibRaceNumber must be at most 9007199254740991"},
	{"bib 2^53+1", set("bibRaceNumber", json.Number("9007199254740993")), "bibRaceNumber must be at most 9007199254740991"},
	{"bib a fraction", set("bibRaceNumber", 1.5), "bibRaceNumber must be an integer"},
	{"bib a string", set("bibRaceNumber", "7"), "bibRaceNumber must be an integer"},
	{"athletes required", drop("athletes"), "athletes is required"},
	{"athletes at least 1", set("athletes", []any{}), "athletes must have at least 1 item"},
	{"athletes an array", set("athletes", map[string]any{}), "athletes must be an array"},
	{"checkedInAt date-times", set("checkedInAt", []any{"yesterday"}), "checkedInAt[0] must be an RFC 3339 date-time"},
	{"checkedInAt an array", set("checkedInAt", "2027-06-12T08:00:00Z"), "checkedInAt must be an array"},
	{"note is a string", set("note", false), "note must be a string"},
	{"custom field needs fieldId", set("customFields", []any{map[string]any{"value": 1}}), "customFields[0].fieldId is required"},
	{"custom field fieldId min length", set("customFields", []any{map[string]any{"fieldId": "", "value": 1}}), "customFields[0].fieldId must not be empty"},
	{"custom field needs value", set("customFields", []any{map[string]any{"fieldId": "fld_x"}}), "customFields[0].value is required"},
	{"supplement ids are strings", set("selectedSupplementIds", []any{1}), "selectedSupplementIds[0] must be a string"},
	{"selection needs supplementId", set("supplementSelections", []any{map[string]any{"optionId": "opt_x"}}), "supplementSelections[0].supplementId is required"},
	{"selection needs optionId", set("supplementSelections", []any{map[string]any{"supplementId": "sup_x"}}), "supplementSelections[0].optionId is required"},
	{"selection optionId min length", set("supplementSelections", []any{map[string]any{"supplementId": "sup_x", "optionId": ""}}), "supplementSelections[0].optionId must not be empty"},
	{"a second athlete is checked too", set("athletes", []any{athlete("Ana Ruiz", "FEMALE", "1990-01-01"), athlete("Bea Ruiz", "FEMALE", "2023-02-29")}),
		"athletes[1].birthDate must be a real calendar date"},
}

// TestCreateRegistrationRefusesEveryBrokenRule sends, through the gateway, create bodies that
// break one rule of the spec's Athlete and Create-registration tables each: every one is a 400
// in the standard format naming the field, and none is stored.
func TestCreateRegistrationRefusesEveryBrokenRule(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(category("open", nil)))
	for _, c := range append(append([]bodyCase{}, athleteRules...), createRules...) {
		t.Run(c.name, func(t *testing.T) {
			a := athlete("Ana Ruiz", "FEMALE", "1990-01-01")
			b := registrationBody(ev, "open", "Team", a)
			c.change(b, a)
			wantProblems(t, "organizerCreateRegistration", send(t, req{"POST", gw("/organizer/registrations"), secret(o.secret.Key), b}), c.problem)
		})
	}
	t.Run("every problem at once", func(t *testing.T) {
		a := athlete("Ana Ruiz", "FEMALE", "2023-02-29")
		a["phone"], a["email"] = "+0", "a..b@example.com"
		b := registrationBody(ev, "open", "", a)
		b["bibRaceNumber"] = 0
		wantProblems(t, "organizerCreateRegistration", send(t, req{"POST", gw("/organizer/registrations"), secret(o.secret.Key), b}),
			"teamName must not be empty", "bibRaceNumber must be greater than 0", "athletes[0].birthDate", "athletes[0].phone", "athletes[0].email")
	})
	t.Run("not a JSON object", func(t *testing.T) {
		wantError(t, send(t, req{"POST", gw("/organizer/registrations"), secret(o.secret.Key), "[1]"}), 400, "must be a JSON object")
		wantError(t, send(t, req{"POST", gw("/organizer/registrations"), secret(o.secret.Key), `{"eventId":`}), 400, "JSON")
	})
	if got := searchRegistrations(t, o.secret.Key, map[string]any{"eventId": ev.ID, "ticketStatus": "ALL"}); got.Total != 0 {
		t.Fatalf("refused bodies stored %d tickets", got.Total)
	}
}

// TestCreateRegistrationAcceptsTheEdgesOfEveryRule creates registrations at the edges the
// rules allow (leap days, the largest bib, the shortest and longest phone) and reads the value
// back as stored.
func TestCreateRegistrationAcceptsTheEdgesOfEveryRule(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(category("open", nil)))
	for _, c := range []struct {
		name   string
		change func(b, a map[string]any)
		stored func(r registration) string
		want   string
	}{
		{"birthDate 29 Feb of a leap year", setAthlete("birthDate", "2024-02-29"), birthDate, "2024-02-29"},
		{"birthDate 29 Feb of a century divisible by 400", setAthlete("birthDate", "2000-02-29"), birthDate, "2000-02-29"},
		{"birthDate 31 December", setAthlete("birthDate", "1990-12-31"), birthDate, "1990-12-31"},
		{"bib 1", set("bibRaceNumber", 1), bib, "1"},
		{"bib 2^53-1", set("bibRaceNumber", json.Number("9007199254740991")), bib, "9007199254740991"},
		{"bib written 8.0 (an integer to JSON Schema)", set("bibRaceNumber", json.Number("8.0")), bib, "8"},
		{"phone with 7 digits", setAthlete("phone", "+1234567"), phone, "+1234567"},
		{"phone with 15 digits", setAthlete("phone", "+123456789012345"), phone, "+123456789012345"},
		{"email with plus and subdomains", setAthlete("email", "ana.ruiz+e2e@mail.example.co"), email, "ana.ruiz+e2e@mail.example.co"},
		{"email with a long top-level part", setAthlete("email", "a_b-c@box.example.travel"), email, "a_b-c@box.example.travel"},
		{"one-character names", func(b, a map[string]any) { a["fullname"], a["idNumber"], b["teamName"] = "A", "1", "T" }, team, "T"},
		{"unknown properties are ignored", set("favouriteLift", "snatch"), team, "Team"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := athlete("Ana Ruiz", "FEMALE", "1990-01-01")
			b := registrationBody(ev, "open", "Team", a)
			c.change(b, a)
			if got := c.stored(createRegistration(t, o.secret.Key, b)); got != c.want {
				t.Fatalf("stored %q, want %q", got, c.want)
			}
		})
	}
}

// TestUpdateRegistrationRefusesBrokenRules checks the update body keeps the create rules
// (none of its fields required) through the gateway.
func TestUpdateRegistrationRefusesBrokenRules(t *testing.T) {
	o := newTenant(t)
	ev := importEvent(t, o.org, eventDoc(category("open", nil)))
	tk := createRegistration(t, o.secret.Key, registrationBody(ev, "open", "Team", athlete("Ana Ruiz", "FEMALE", "1990-01-01"))).Tickets[0].TicketID
	patch := func(body any) response {
		return send(t, req{"PATCH", gw("/organizer/registrations/" + tk), secret(o.secret.Key), body})
	}
	broken := athlete("Ana Ruiz", "FEMALE", "2023-02-29")
	broken["phone"] = "+0600111222"
	for name, c := range map[string]struct {
		body    any
		problem string
	}{
		"bib 0":              {map[string]any{"bibRaceNumber": 0}, "bibRaceNumber must be greater than 0"},
		"bib 2^53":           {map[string]any{"bibRaceNumber": json.Number("9007199254740992")}, "bibRaceNumber must be at most 9007199254740991"},
		"teamName empty":     {map[string]any{"teamName": ""}, "teamName must not be empty"},
		"no athletes":        {map[string]any{"athletes": []any{}}, "athletes must have at least 1 item"},
		"athlete rules":      {map[string]any{"athletes": []any{broken}}, "athletes[0].birthDate must be a real calendar date"},
		"athlete phone":      {map[string]any{"athletes": []any{broken}}, "athletes[0].phone must be in E.164 form"},
		"notify is a bool":   {map[string]any{"notifyEmailChange": "yes"}, "notifyEmailChange must be a boolean"},
		"categoryId empty":   {map[string]any{"categoryId": ""}, "categoryId must not be empty"},
		"custom field value": {map[string]any{"customFields": []any{map[string]any{"fieldId": "fld_x"}}}, "customFields[0].value is required"},
	} {
		t.Run(name, func(t *testing.T) { wantProblems(t, "organizerUpdateRegistration", patch(c.body), c.problem) })
	}
	res := patch(map[string]any{"bibRaceNumber": json.Number("9007199254740991"), "athletes": []any{athlete("Ana Ruiz", "FEMALE", "2024-02-29")}})
	if r := decode[registration](t, res); res.status != 200 || r.BibRaceNumber != "9007199254740991" || r.Tickets[0].Athlete.BirthDate != "2024-02-29" {
		t.Fatalf("PATCH at the edges: %d %s", res.status, res.body)
	}
	conforms(t, "organizerUpdateRegistration", res)
}

// wantProblems checks a 400 of the operation in the standard format (and as the document
// describes it) whose message is a list holding every problem.
func wantProblems(t *testing.T, operationID string, res response, problems ...string) {
	t.Helper()
	for _, p := range problems {
		wantError(t, res, 400, p)
	}
	conforms(t, operationID, res)
	if b := decode[errorBody](t, res); !isList(b.Message) {
		t.Fatalf("message is not a list of problems: %s", res.body)
	}
}

func isList(v any) bool { _, ok := v.([]any); return ok }

func birthDate(r registration) string { return r.Tickets[0].Athlete.BirthDate }
func bib(r registration) string       { return string(r.BibRaceNumber) }
func phone(r registration) string     { return r.Tickets[0].Athlete.Phone }
func email(r registration) string     { return r.Tickets[0].Athlete.Email }
func team(r registration) string      { return r.TeamName }
