package api_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// waiversPath is the signing route of ticket.
func waiversPath(ticket string) string {
	return "/external/v1/organizer/registrations/" + ticket + "/waivers"
}

// firstTicket is the first ticket of a registration answer.
func firstTicket(r testkit.Response) map[string]any {
	return r.Body["tickets"].([]any)[0].(map[string]any)
}

// updatedEvents counts the registration.updated events of registration id in the outbox.
func updatedEvents(t *testing.T, env *regtest.Env, id string) int {
	t.Helper()
	var n int
	err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM outbox WHERE key = $1 AND headers->>'ce_type' = $2`,
		id, domain.EventRegUpdated).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSigningTheWaiversATransferLeftPending(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC))
	tok := env.Secret(t, orgA)
	reg := create(t, env, createBody("Ana"))
	ticket := ticketOf(reg, 0)
	tr := env.Do(t, "POST", transferPath(ticket), map[string]any{"athlete": athlete("Bea", "FEMALE", "1992-03-04")}, tok)
	if tr.Status != 200 || len(firstTicket(tr)["pendingWaivers"].([]any)) != 1 || len(firstTicket(tr)["signedWaivers"].([]any)) != 0 {
		t.Fatalf("transfer: %d %s", tr.Status, tr.Raw)
	}
	sign := func(accepted map[string]any, key string) testkit.Response {
		r := env.Do(t, "POST", waiversPath(ticket), map[string]any{"waiversAccepted": accepted}, key)
		env.Valid(t, "organizerSignRegistrationWaivers", r)
		return r
	}

	// Refusals change nothing.
	r := sign(map[string]any{"wvr_liability": false}, tok)
	wantError(t, r, 422, "waiversAccepted.wvr_liability: must be true")
	wantCode(t, r, domain.CodeWaiverRefused)
	r = sign(map[string]any{"wvr_liability": true, "wvr_photos": true}, tok)
	wantError(t, r, 422, "waiversAccepted.wvr_photos: is not a waiver the athlete has to sign")
	wantCode(t, r, domain.CodeWaiverNotPending)
	wantError(t, sign(map[string]any{"wvr_liability": true}, env.Secret(t, orgB)), 404)
	wantError(t, sign(map[string]any{"wvr_liability": true}, env.TestSecret(t, orgA)), 404)
	reader := env.Token(t, identity.Principal{OrganizerID: orgA, KeyID: "key_r", KeyType: identity.Secret, Scopes: []string{"registrations:read"}})
	wantError(t, sign(map[string]any{"wvr_liability": true}, reader), 403)
	wantError(t, sign(map[string]any{}, tok), 400, "waiversAccepted")
	before := updatedEvents(t, env, reg["registrationId"].(string))

	env.Clock.Advance(time.Hour)
	r = sign(map[string]any{"wvr_liability": true}, tok)
	if r.Status != 200 {
		t.Fatalf("sign: %d %s", r.Status, r.Raw)
	}
	got := firstTicket(r)
	signed := got["signedWaivers"].([]any)
	if len(got["pendingWaivers"].([]any)) != 0 || len(signed) != 1 {
		t.Fatalf("ticket after signing: %s", r.Raw)
	}
	if w := signed[0].(map[string]any); w["waiverId"] != "wvr_liability" || w["version"] != 2.0 || w["signedAt"] != "2027-05-01T10:00:00Z" {
		t.Fatalf("signed waiver %v", w)
	}
	if n := updatedEvents(t, env, reg["registrationId"].(string)); n != before+1 {
		t.Fatalf("registration.updated events %d, want %d", n, before+1)
	}
	if obj := lastObject(t, env, domain.EventRegUpdated, reg["registrationId"].(string)); fmt.Sprint(obj) != fmt.Sprint(r.Body) {
		t.Fatalf("updated event's object\n%v\nthe API's answer\n%v", obj, r.Body)
	}

	// Signing again is the same answer, with no new event.
	env.Clock.Advance(time.Hour)
	again := sign(map[string]any{"wvr_liability": true}, tok)
	if again.Status != 200 || fmt.Sprint(firstTicket(again)) != fmt.Sprint(got) {
		t.Fatalf("retry: %d %s", again.Status, again.Raw)
	}
	if n := updatedEvents(t, env, reg["registrationId"].(string)); n != before+1 {
		t.Fatalf("a retry announced again: %d events", n)
	}

	// A cancelled ticket's waivers are not signed.
	if d := env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+ticket, nil, tok); d.Status != 200 {
		t.Fatalf("cancel: %d %s", d.Status, d.Raw)
	}
	r = sign(map[string]any{"wvr_liability": true}, tok)
	wantError(t, r, 409, "is cancelled")
	wantCode(t, r, domain.CodeTicketCancelled)
	wantError(t, sign(map[string]any{"wvr_liability": true}, tok), 409)
	wantError(t, env.Do(t, "POST", waiversPath("tkt_unknown"), map[string]any{"waiversAccepted": map[string]any{"wvr_liability": true}}, tok), 404)
}

func TestTransferSignsTheWaiversAcceptedWithIt(t *testing.T) {
	env := start(t, regtest.Options{})
	env.Clock.Set(time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC))
	tok := env.Secret(t, orgA)
	ticket := ticketOf(create(t, env, createBody("Ana")), 0)
	transfer := func(a map[string]any, accepted map[string]any) testkit.Response {
		r := env.Do(t, "POST", transferPath(ticket), map[string]any{"athlete": a, "waiversAccepted": accepted}, tok)
		env.Valid(t, "organizerTransferRegistration", r)
		return r
	}
	bea := athlete("Bea", "FEMALE", "1992-03-04")

	r := transfer(bea, map[string]any{"wvr_liability": true, "wvr_photos": true})
	wantError(t, r, 422, "waiversAccepted.wvr_photos: is not a waiver the athlete has to sign")
	wantCode(t, r, domain.CodeWaiverNotPending)

	r = transfer(bea, map[string]any{"wvr_liability": true})
	got := firstTicket(r)
	if r.Status != 200 || len(got["pendingWaivers"].([]any)) != 0 || len(got["signedWaivers"].([]any)) != 1 {
		t.Fatalf("transfer with the waiver: %d %s", r.Status, r.Raw)
	}
	// Accepted false leaves the waiver pending; a new athlete starts with nothing signed.
	r = transfer(athlete("Cy", "MALE", "1990-01-01"), map[string]any{"wvr_liability": false})
	got = firstTicket(r)
	if r.Status != 200 || len(got["pendingWaivers"].([]any)) != 1 || len(got["signedWaivers"].([]any)) != 0 {
		t.Fatalf("transfer refusing the waiver: %d %s", r.Status, r.Raw)
	}
}
