package api_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func TestCreateRegistration(t *testing.T) {
	env := start(t, regtest.Options{})
	body := createBody("Ana Lopez")
	bib := 7
	body["bibRaceNumber"] = bib
	body["checkedInAt"] = []string{"2027-06-12T08:00:00Z"}
	body["selectedSupplementIds"] = []string{"sup_tee"}
	body["supplementSelections"] = []any{map[string]any{"supplementId": "sup_meal", "optionId": "opt_veg"}}
	reg := create(t, env, body)
	if reg["categoryId"] != "cat_rx" || reg["participantDataStatus"] != "READY" || reg["bibRaceNumber"].(float64) != 7 {
		t.Fatalf("registration %v", reg)
	}
	order := reg["order"].(map[string]any)
	if order["status"] != "COMPLETED" || order["source"] != "MANUAL" || order["amount"].(float64) != 0 || order["currency"] != "EUR" {
		t.Fatalf("order %v", order)
	}
	tk := reg["tickets"].([]any)[0].(map[string]any)
	if tk["status"] != "ACTIVE" || tk["age"].(float64) != 37 {
		t.Fatalf("ticket %v", tk)
	}
	// The same bib again is a conflict naming the bib.
	again := createBody("Bea Ruiz")
	again["bibRaceNumber"] = bib
	r := env.Do(t, "POST", "/external/v1/organizer/registrations", again, env.Secret(t, orgA))
	wantError(t, r, 409, "bib number 7")
	env.Valid(t, "organizerCreateRegistration", r)
}

func TestCreateBusinessRules(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Secret(t, orgA)
	post := func(body any) testkit.Response {
		return env.Do(t, "POST", "/external/v1/organizer/registrations", body, tok)
	}
	young := createBody("Kid")
	young["athletes"] = []any{athlete("Kid", "MALE", "2009-06-13")}
	r := post(young)
	wantError(t, r, 422, "athletes[0].birthDate: athlete is 17 on 2027-06-12, the category requires at least 18")
	env.Valid(t, "organizerCreateRegistration", r)

	women := createBody("Max")
	women["categoryId"] = "cat_women"
	wantError(t, post(women), 422, "athletes[0].gender: the category cat_women is for FEMALE athletes only")

	team := createBody("Solo")
	team["categoryId"] = "cat_team"
	wantError(t, post(team), 422, "athletes: the category cat_team takes teams of 2 to 3 athletes, got 1",
		"form field fld_shirt (Shirt) is required for athletes[0]")

	fields := createBody("Fields")
	fields["customFields"] = []any{map[string]any{"fieldId": "fld_size", "value": "XL"}, map[string]any{"fieldId": "fld_ghost", "value": 1}}
	fields["selectedSupplementIds"] = []string{"sup_old"}
	fields["supplementSelections"] = []any{map[string]any{"supplementId": "sup_meal", "optionId": "opt_old"}}
	wantError(t, post(fields), 422, "customFields[0].value: must be one of S, M, L", "customFields[1].fieldId: form field fld_ghost does not exist",
		"selectedSupplementIds[0]: supplement sup_old is not active", "supplementSelections[0].optionId: option opt_old of supplement sup_meal is not active")

	noSize := createBody("NoSize")
	delete(noSize, "customFields")
	wantError(t, post(noSize), 422, "customFields: form field fld_size (Box size) is required")

	mixed := createBody("Mixed")
	mixed["categoryId"] = "cat_team"
	mixed["athletes"] = []any{athlete("Mixed One", "MALE", "1990-01-01"), athlete("Mixed Two", "FEMALE", "1990-01-01")}
	mixed["customFields"] = []any{map[string]any{"fieldId": "fld_size", "value": "M"},
		map[string]any{"fieldId": "fld_shirt", "value": "S", "athleteIndex": 0}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1}}
	reg := create(t, env, mixed)
	if len(reg["tickets"].([]any)) != 2 {
		t.Fatalf("team registration %v", reg)
	}

	// Organizers may register into private and unpublished categories.
	masters := createBody("Old")
	masters["categoryId"] = "cat_masters"
	masters["athletes"] = []any{athlete("Old", "MALE", "1970-01-01")}
	create(t, env, masters)
}

func TestCreateRefusesBodiesThatBypassTheSchema(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Secret(t, orgA)
	bad := createBody("Ana")
	bad["athletes"] = []any{map[string]any{"fullname": "", "idNumber": "1", "email": ".a@b.co", "phone": "+0123", "gender": "X", "birthDate": "2023-02-29"}}
	bad["bibRaceNumber"] = 0
	delete(bad, "teamName")
	r := env.Do(t, "POST", "/external/v1/organizer/registrations", bad, tok)
	wantError(t, r, 400, "athletes[0].birthDate must be a real calendar date", "athletes[0].email", "athletes[0].phone must be in E.164 form",
		"athletes[0].gender", "athletes[0].fullname", "bibRaceNumber must be greater than 0", "teamName is required")
	env.Valid(t, "organizerCreateRegistration", r)
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations", []byte(`{"eventId":`), tok), 400, "valid JSON")
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations", []byte(``), tok), 400, "body is required")
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"limit": 0, "sortBy": "x"}, tok), 400, "limit must be at least 1", "sortBy")
	wantError(t, env.Do(t, "PATCH", "/external/v1/organizer/registrations/tkt_x", map[string]any{"athletes": []any{}}, tok), 400, "athletes must have at least 1 item")
	wantError(t, env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/lookup", map[string]any{"email": "nope"}, env.Browser(t, orgA)), 400, "email")
}

func TestCreateNotFound(t *testing.T) {
	env := start(t, regtest.Options{})
	for name, c := range map[string]struct {
		event, category, msg string
	}{
		"unknown event":             {"evt_nope", "cat_rx", "event evt_nope not found"},
		"another organizer's event": {evtB, "cat_rx", "event " + evtB + " not found"},
		"category of no event":      {evtA, "cat_nope", "category cat_nope in event " + evtA + " not found"},
	} {
		t.Run(name, func(t *testing.T) {
			b := createBody("Ana")
			b["eventId"], b["categoryId"] = c.event, c.category
			r := env.Do(t, "POST", "/external/v1/organizer/registrations", b, env.Secret(t, orgA))
			wantError(t, r, 404, c.msg)
			env.Valid(t, "organizerCreateRegistration", r)
		})
	}
	env.Catalog.Fail.Store(true)
	down := env.Do(t, "POST", "/external/v1/organizer/registrations", createBody("Ana"), env.Secret(t, orgA))
	wantError(t, down, 503, "catalog")
	if down.Header.Get("Retry-After") == "" {
		t.Fatalf("a 503 without Retry-After: %v", down.Header)
	}
}

func TestIdentityIsRequired(t *testing.T) {
	env := start(t, regtest.Options{})
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations/search", nil, ""), 401, "gateway")
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations/search", nil, env.Browser(t, orgA)), 403, "publishable")
	readOnly := env.Token(t, identity.Principal{OrganizerID: orgA, KeyID: "k", KeyType: identity.Secret, Scopes: []string{"registrations:read"}})
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations", createBody("A"), readOnly), 403, "registrations:write")
	wantError(t, env.Do(t, "DELETE", "/external/v1/organizer/registrations/tkt_x", nil, readOnly), 403, "registrations:write")
	if r := env.Do(t, "POST", "/external/v1/organizer/registrations/search", nil, readOnly); r.Status != 201 {
		t.Fatalf("search with registrations:read: %d %s", r.Status, r.Raw)
	}
	wantError(t, env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/lookup", map[string]any{"email": "a@b.co"}, env.Secret(t, orgA)), 403, "secret")
}

// TestEveryCreateRuleIsEnforcedWithoutTheGateway sends, straight to the service, bodies that
// break each rule of the Athlete and Create-registration tables: each is a 400 naming its field.
func TestEveryCreateRuleIsEnforcedWithoutTheGateway(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Secret(t, orgA)
	cases := []struct {
		name    string
		mutate  func(b map[string]any, a map[string]any)
		problem string
	}{
		{"eventId required", func(b, _ map[string]any) { delete(b, "eventId") }, "eventId is required"},
		{"eventId min length", func(b, _ map[string]any) { b["eventId"] = "" }, "eventId"},
		{"categoryId required", func(b, _ map[string]any) { delete(b, "categoryId") }, "categoryId is required"},
		{"teamName min length", func(b, _ map[string]any) { b["teamName"] = "" }, "teamName"},
		{"club is a string", func(b, _ map[string]any) { b["club"] = 3 }, "club"},
		{"bib greater than 0", func(b, _ map[string]any) { b["bibRaceNumber"] = 0 }, "bibRaceNumber must be greater than 0"},
		{"bib at most 2^53-1", func(b, _ map[string]any) { b["bibRaceNumber"] = 9007199254740992 }, "bibRaceNumber"},
		{"bib an integer", func(b, _ map[string]any) { b["bibRaceNumber"] = 1.5 }, "bibRaceNumber"},
		{"athletes required", func(b, _ map[string]any) { delete(b, "athletes") }, "athletes is required"},
		{"athletes at least 1", func(b, _ map[string]any) { b["athletes"] = []any{} }, "athletes"},
		{"checkedInAt date-times", func(b, _ map[string]any) { b["checkedInAt"] = []any{"yesterday"} }, "checkedInAt[0]"},
		{"note is a string", func(b, _ map[string]any) { b["note"] = false }, "note"},
		{"custom field needs fieldId", func(b, _ map[string]any) { b["customFields"] = []any{map[string]any{"value": 1}} }, "customFields[0].fieldId"},
		{"custom field needs value", func(b, _ map[string]any) { b["customFields"] = []any{map[string]any{"fieldId": "fld_size"}} }, "customFields[0].value"},
		{"supplement ids are strings", func(b, _ map[string]any) { b["selectedSupplementIds"] = []any{1} }, "selectedSupplementIds[0]"},
		{"selection needs optionId", func(b, _ map[string]any) {
			b["supplementSelections"] = []any{map[string]any{"supplementId": "sup_meal"}}
		}, "supplementSelections[0].optionId"},
		{"fullname required", func(_, a map[string]any) { delete(a, "fullname") }, "athletes[0].fullname"},
		{"fullname min length", func(_, a map[string]any) { a["fullname"] = "" }, "athletes[0].fullname"},
		{"idNumber min length", func(_, a map[string]any) { a["idNumber"] = "" }, "athletes[0].idNumber"},
		{"email leading dot", func(_, a map[string]any) { a["email"] = ".ana@example.com" }, "athletes[0].email"},
		{"email consecutive dots", func(_, a map[string]any) { a["email"] = "ana..b@example.com" }, "athletes[0].email"},
		{"email top-level part", func(_, a map[string]any) { a["email"] = "ana@example.c" }, "athletes[0].email"},
		{"phone E.164", func(_, a map[string]any) { a["phone"] = "+0600111222" }, "athletes[0].phone must be in E.164 form"},
		{"phone too short", func(_, a map[string]any) { a["phone"] = "+34600" }, "athletes[0].phone"},
		{"gender enum", func(_, a map[string]any) { a["gender"] = "OTHER" }, "athletes[0].gender"},
		{"birthDate calendar", func(_, a map[string]any) { a["birthDate"] = "2023-02-29" }, "athletes[0].birthDate must be a real calendar date"},
		{"birthDate format", func(_, a map[string]any) { a["birthDate"] = "01/02/1990" }, "athletes[0].birthDate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := createBody("Ana")
			a := b["athletes"].([]any)[0].(map[string]any)
			c.mutate(b, a)
			r := env.Do(t, "POST", "/external/v1/organizer/registrations", b, tok)
			wantError(t, r, 400, c.problem)
			if _, ok := r.Body["message"].([]any); !ok {
				t.Fatalf("message is not a list: %s", r.Raw)
			}
			env.Valid(t, "organizerCreateRegistration", r)
		})
	}
	// A leap day in a leap year is a real date.
	b := createBody("Leap")
	b["athletes"].([]any)[0].(map[string]any)["birthDate"] = "2000-02-29"
	create(t, env, b)
}

// TestCachedEventsStayTenantScoped: an event cached for its organizer is still a 404 for
// another organizer, and creates within the cache lifetime do not call the catalog again.
func TestCachedEventsStayTenantScoped(t *testing.T) {
	env := start(t, regtest.Options{CatalogTTL: time.Minute})
	create(t, env, createBody("Ana"))
	calls := env.Catalog.Calls.Load()
	create(t, env, createBody("Bea"))
	if env.Catalog.Calls.Load() != calls {
		t.Fatalf("the second create called the catalog again (%d calls)", env.Catalog.Calls.Load())
	}
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations", createBody("Cid"), env.Secret(t, orgB)), 404, "event "+evtA+" not found")
	wantError(t, env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/registration-receipts/lookup", map[string]any{"email": "a@b.co"}, env.Browser(t, orgB)), 404, "not found")
}
