package api_test

import (
	"encoding/json"
	"testing"

	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestIntegersInAnyNotation: JSON Schema's integers include 7.0 and 3.7e1, so the schema (and
// the gateway) accept them; the service reads them as the integers they are instead of
// refusing a valid body.
func TestIntegersInAnyNotation(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Secret(t, orgA)
	b := createBody("Ana")
	b["bibRaceNumber"] = json.Number("7.0")
	reg := create(t, env, b)
	if reg["bibRaceNumber"] != 7.0 {
		t.Fatalf("bib %v", reg["bibRaceNumber"])
	}
	r := env.Do(t, "PATCH", "/external/v1/organizer/registrations/"+ticketOf(reg, 0), map[string]any{"bibRaceNumber": json.Number("9007199254740991.0")}, tok)
	if r.Status != 200 || r.Body["bibRaceNumber"] != 9007199254740991.0 {
		t.Fatalf("PATCH: %d %s", r.Status, r.Raw)
	}
	env.Valid(t, "organizerUpdateRegistration", r)

	// Ana is 37 on the event's start date.
	r = env.Do(t, "POST", "/external/v1/organizer/registrations/search",
		map[string]any{"ageMin": json.Number("3.7e1"), "ageMax": json.Number("37.0"), "limit": json.Number("5.0")}, tok)
	if r.Status != 201 || r.Body["total"] != 1.0 || r.Body["limit"] != 5.0 {
		t.Fatalf("search: %d %s", r.Status, r.Raw)
	}
	env.Valid(t, "organizerSearchRegistrations", r)

	// Fractions are still refused, by field path.
	bad := createBody("Bea")
	bad["bibRaceNumber"] = json.Number("7.5")
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations", bad, tok), 400, "bibRaceNumber must be an integer")
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"ageMin": 36.5}, tok), 400, "ageMin must be an integer")
}
