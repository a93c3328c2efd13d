package api_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// transferPath is the transfer route of ticket.
func transferPath(ticket string) string {
	return "/external/v1/organizer/registrations/" + ticket + "/transfer"
}

func TestTransferGivesThePlaceToAnotherAthlete(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC))
	tok := env.Secret(t, orgA)
	reg := create(t, env, createBody("Ana"))
	ticket := reg["tickets"].([]any)[0].(map[string]any)
	transfer := func(a map[string]any) testkit.Response {
		r := env.Do(t, "POST", transferPath(ticket["ticketId"].(string)), map[string]any{"athlete": a}, tok)
		env.Valid(t, "organizerTransferRegistration", r)
		return r
	}

	minor := athlete("Teo", "MALE", "2011-01-01") // 16 on race day: under the category's 18
	r := transfer(minor)
	wantError(t, r, 422, "athlete.birthDate: athlete is 16")
	wantCode(t, r, domain.CodeAgeNotAllowed)

	taker := athlete("Bea", "FEMALE", "1992-03-04")
	r = transfer(taker)
	if r.Status != 200 {
		t.Fatalf("transfer: %d %s", r.Status, r.Raw)
	}
	got := r.Body["tickets"].([]any)[0].(map[string]any)
	history := got["transfers"].([]any)
	if got["ticketId"] != ticket["ticketId"] || got["status"] != "ACTIVE" || got["athleteId"] == ticket["athleteId"] ||
		got["athlete"].(map[string]any)["fullname"] != "Bea" || len(history) != 1 {
		t.Fatalf("ticket after the transfer: %s", r.Raw)
	}
	h := history[0].(map[string]any)
	if h["from"].(map[string]any)["athleteId"] != ticket["athleteId"] || h["to"].(map[string]any)["athleteId"] != got["athleteId"] ||
		h["transferredAt"] != "2027-05-01T09:00:00Z" {
		t.Fatalf("history %v", h)
	}
	if w := got["pendingWaivers"].([]any); len(w) != 1 || w[0].(map[string]any)["waiverId"] != "wvr_liability" {
		t.Fatalf("pending waivers %v", w)
	}

	// The same athlete again answers the same result and records nothing more.
	env.Clock.Advance(time.Minute)
	again := transfer(taker)
	if again.Status != 200 || len(again.Body["tickets"].([]any)[0].(map[string]any)["transfers"].([]any)) != 1 ||
		again.Body["tickets"].([]any)[0].(map[string]any)["athleteId"] != got["athleteId"] {
		t.Fatalf("retry: %d %s", again.Status, again.Raw)
	}
	// Another organizer's ticket is not found; another mode's neither.
	other := env.Do(t, "POST", transferPath(ticket["ticketId"].(string)), map[string]any{"athlete": taker}, env.Secret(t, orgB))
	wantError(t, other, 404)
	test := env.Do(t, "POST", transferPath(ticket["ticketId"].(string)), map[string]any{"athlete": taker}, env.TestSecret(t, orgA))
	wantError(t, test, 404)
	// A key without registrations:write is refused.
	reader := env.Token(t, identity.Principal{OrganizerID: orgA, KeyID: "key_r", KeyType: identity.Secret, Scopes: []string{"registrations:read"}})
	wantError(t, env.Do(t, "POST", transferPath(ticket["ticketId"].(string)), map[string]any{"athlete": taker}, reader), 403)
	// A body without an athlete is a schema problem.
	wantError(t, env.Do(t, "POST", transferPath(ticket["ticketId"].(string)), map[string]any{}, tok), 400, "athlete")
}

func TestTransferRefusals(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC))
	tok := env.Secret(t, orgA)
	send := func(ticket string, a map[string]any) testkit.Response {
		r := env.Do(t, "POST", transferPath(ticket), map[string]any{"athlete": a}, tok)
		env.Valid(t, "organizerTransferRegistration", r)
		return r
	}

	women := createBody("Eva")
	women["categoryId"], women["athletes"] = "cat_women", []any{athlete("Eva", "FEMALE", "1990-01-01")}
	r := send(ticketOf(create(t, env, women), 0), athlete("Max", "MALE", "1990-01-01"))
	wantError(t, r, 422, "athlete.gender: the category cat_women is for FEMALE athletes only")
	wantCode(t, r, domain.CodeGenderNotAllowed)

	team := createBody("Ana")
	team["categoryId"] = "cat_team"
	team["athletes"] = []any{athlete("Ana", "FEMALE", "1990-01-01"), athlete("Bo", "MALE", "1990-01-01")}
	team["customFields"] = []any{map[string]any{"fieldId": "fld_size", "value": "M"},
		map[string]any{"fieldId": "fld_shirt", "value": "S", "athleteIndex": 0}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1}}
	r = send(ticketOf(create(t, env, team), 0), athlete("Cy", "MALE", "1990-01-01"))
	wantError(t, r, 422, "is MIXED")
	wantCode(t, r, domain.CodeTeamComposition)

	cancelled := create(t, env, createBody("Gone"))
	if d := env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+ticketOf(cancelled, 0), nil, tok); d.Status != 200 {
		t.Fatalf("cancel: %d %s", d.Status, d.Raw)
	}
	r = send(ticketOf(cancelled, 0), athlete("Late", "MALE", "1990-01-01"))
	wantError(t, r, 409, "is cancelled")
	wantCode(t, r, domain.CodeTicketCancelled)

	closing := regtest.Event(evtA, orgA)
	until := time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)
	closing.TransfersUntil = &until
	env.Catalog.Put(closing)
	r = send(ticketOf(create(t, env, createBody("Kim")), 0), athlete("Lu", "MALE", "1990-01-01"))
	wantError(t, r, 409, "takes no transfers after 2027-05-01T09:00:00Z")
	wantCode(t, r, domain.CodeTransferDeadlinePassed)
	wantError(t, env.Do(t, "POST", transferPath("tkt_unknown"), map[string]any{"athlete": athlete("Lu", "MALE", "1990-01-01")}, tok), 404)
}
