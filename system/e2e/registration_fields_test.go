package e2e

import (
	"testing"
)

// TestCustomFieldRules creates registrations through the gateway with values for the event's
// form fields: required fields, each type, options, scope (team or athlete) and the
// categories a field applies to. A broken rule is a 422 naming the value's path.
func TestCustomFieldRules(t *testing.T) {
	o := newTenant(t)
	doc := eventDoc(category("open", nil), category("teams", map[string]any{"teamSize": map[string]any{"min": 2, "max": 3}}), category("elite", nil))
	doc["formFields"] = []any{
		map[string]any{"key": "size", "label": "Box size", "type": "select", "required": true, "options": []string{"S", "M", "L"}, "appliesTo": "TEAM"},
		map[string]any{"key": "shirt", "label": "T-shirt", "type": "select", "required": true, "options": []string{"XS", "S", "M"}, "categories": []string{"teams"}},
		map[string]any{"key": "notes", "label": "Notes", "type": "text", "appliesTo": "TEAM"},
		map[string]any{"key": "weight", "label": "Weight", "type": "number"},
		map[string]any{"key": "vegan", "label": "Vegan", "type": "boolean", "appliesTo": "TEAM"},
		map[string]any{"key": "days", "label": "Days", "type": "multiselect", "options": []string{"SAT", "SUN"}, "appliesTo": "TEAM"},
		map[string]any{"key": "arrival", "label": "Arrival", "type": "date", "appliesTo": "TEAM"},
		map[string]any{"key": "licence", "label": "Licence", "type": "text", "required": true, "appliesTo": "TEAM", "categories": []string{"elite"}},
	}
	ev := importEvent(t, o.org, doc)
	id := map[string]string{}
	for _, f := range ev.FormFields {
		id[f.Key] = f.ID
	}
	team := func(key string, v any) map[string]any { return map[string]any{"fieldId": id[key], "value": v} }
	each := func(key string, v any, i int) map[string]any {
		return map[string]any{"fieldId": id[key], "value": v, "athleteIndex": i}
	}
	body := func(cat string, values ...map[string]any) map[string]any {
		b := registrationBody(ev, cat, "T", athlete("Ana Ruiz", "FEMALE", "1990-01-01"))
		if cat == "teams" {
			b = registrationBody(ev, cat, "T", athlete("Ana Ruiz", "FEMALE", "1990-01-01"), athlete("Bea Ruiz", "FEMALE", "1991-01-01"))
		}
		list := make([]any, len(values))
		for i, v := range values {
			list[i] = v
		}
		b["customFields"] = list
		return b
	}
	size := team("size", "M")
	cases := []struct {
		name    string
		body    map[string]any
		problem string // "": created
	}{
		{"required field missing", body("open"), "customFields: form field " + id["size"] + " (Box size) is required"},
		{"required field empty", body("open", team("size", "")), "customFields[0].value: form field " + id["size"] + " is required and must not be empty"},
		{"required field null", body("open", team("size", nil)), "customFields[0].value: form field " + id["size"] + " is required and must not be empty"},
		{"required field of the category missing", body("elite", size), "customFields: form field " + id["licence"] + " (Licence) is required"},
		{"required athlete field missing for one athlete", body("teams", size, each("shirt", "S", 0)), "customFields: form field " + id["shirt"] + " (T-shirt) is required for athletes[1]"},
		{"select outside the options", body("open", team("size", "XL")), "customFields[0].value: must be one of S, M, L"},
		{"select not a string", body("open", team("size", 2)), "customFields[0].value: must be one of S, M, L"},
		{"text not a string", body("open", size, team("notes", 5)), "customFields[1].value: must be a string"},
		{"number not a number", body("open", size, each("weight", "80", 0)), "customFields[1].value: must be a number"},
		{"boolean not a boolean", body("open", size, team("vegan", "yes")), "customFields[1].value: must be a boolean"},
		{"multiselect not an array", body("open", size, team("days", "SAT")), "customFields[1].value: must be an array of options among SAT, SUN"},
		{"multiselect outside the options", body("open", size, team("days", []string{"SAT", "MON"})), "customFields[1].value: every item must be one of SAT, SUN"},
		{"multiselect repeated option", body("open", size, team("days", []string{"SAT", "SAT"})), "customFields[1].value: option SAT is chosen twice"},
		{"date not a calendar date", body("open", size, team("arrival", "2027-02-29")), "customFields[1].value: must be a real calendar date in the form YYYY-MM-DD"},
		{"unknown field", body("open", size, team("size", "S"), map[string]any{"fieldId": "fld_nope", "value": 1}),
			"customFields[2].fieldId: form field fld_nope does not exist in event " + ev.ID},
		{"two values for one field", body("open", size, team("size", "S")), "customFields[1].fieldId: form field " + id["size"] + " has a value already"},
		{"field of another category", body("open", size, team("licence", "L-1")), "customFields[1].fieldId: form field " + id["licence"] + " does not apply to category " + ev.Category("open")},
		{"athlete field without athleteIndex", body("open", size, team("weight", 80)), "customFields[1].athleteIndex: form field " + id["weight"] + " is asked per athlete"},
		{"athleteIndex past the athletes", body("open", size, each("weight", 80, 1)), "customFields[1].athleteIndex"},
		{"team field with athleteIndex", body("open", each("size", "M", 0)), "customFields[0].athleteIndex: form field " + id["size"] + " is asked once per team"},
		{"every type with a good value", body("open", size, team("notes", "Hi"), each("weight", 80.5, 0), team("vegan", true),
			team("days", []string{"SAT", "SUN"}), team("arrival", "2024-02-29")), ""},
		{"optional fields may be empty", body("open", size, team("notes", nil), team("days", []string{}), team("vegan", false)), ""},
		{"athlete field for every athlete", body("teams", size, each("shirt", "XS", 0), each("shirt", "M", 1)), ""},
		{"required field of the category", body("elite", size, team("licence", "L-1")), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := send(t, req{"POST", gw("/organizer/registrations"), secret(o.secret.Key), c.body})
			conforms(t, "organizerCreateRegistration", res)
			if c.problem != "" {
				wantError(t, res, 422, c.problem)
				return
			}
			reg := decode[registration](t, res)
			if res.status != 201 || len(reg.CustomFields) != len(c.body["customFields"].([]any)) {
				t.Fatalf("%d %s", res.status, res.body)
			}
		})
	}
	// An update is checked the same way.
	tk := createRegistration(t, o.secret.Key, body("open", size)).Tickets[0].TicketID
	wantError(t, send(t, req{"PATCH", gw("/organizer/registrations/" + tk), secret(o.secret.Key), map[string]any{"customFields": []any{team("size", "XL")}}}),
		422, "customFields[0].value: must be one of S, M, L")
	wantError(t, send(t, req{"PATCH", gw("/organizer/registrations/" + tk), secret(o.secret.Key), map[string]any{"customFields": []any{}}}),
		422, "customFields: form field "+id["size"]+" (Box size) is required")
}
