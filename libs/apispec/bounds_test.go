package apispec

import (
	"fmt"
	"testing"
)

// Each bound at its value is accepted and one past it refused with a readable problem. The
// spec's own limits are tested with their rules (request_*_test.go).

// long is the problem of a string past its bound.
func long(path string, n int) string {
	return fmt.Sprintf("%s must be at most %d characters long", path, n)
}

// many is the problem of an array past its bound.
func many(path string, n int) string { return fmt.Sprintf("%s must have at most %d items", path, n) }

// members is the problem of an object past its bound.
func members(path string, n int) string {
	return fmt.Sprintf("%s must have at most %d members", path, n)
}

func TestAthleteBounds(t *testing.T) {
	const a = "athletes[0]"
	runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
		ok("fullname of 200 characters", a+".fullname", str(200, "ñ")),
		bad("fullname of 201", a+".fullname", str(201, "ñ"), long(a+".fullname", 200)),
		ok("idNumber of 80", a+".idNumber", str(80, "1")),
		bad("idNumber of 81", a+".idNumber", str(81, "1"), long(a+".idNumber", 80)),
		ok("email of 254", a+".email", longEmail(254)),
		bad("email of 255", a+".email", longEmail(255), long(a+".email", 254)),
		bad("phone of 32 is worded by its pattern", a+".phone", "+"+str(31, "1"), phoneRule),
		bad("phone of 33", a+".phone", "+"+str(32, "1"), long(a+".phone", 32)),
		bad("birthDate of 32 is worded by its pattern", a+".birthDate", str(32, "1"), dateRule),
		bad("birthDate of 33", a+".birthDate", str(33, "1"), long(a+".birthDate", 32)),
		ok("athlete of 64 members", a, grown(athlete(), 64)),
		bad("athlete of 65 members", a, grown(athlete(), 65), members(a, 64)),
	})
}

func TestRegistrationBounds(t *testing.T) {
	answer := func(v any) func(int) any {
		return func(int) any { return map[string]any{"fieldId": "fld_1", "value": v} }
	}
	selection := func(int) any { return map[string]any{"supplementId": "sup_1", "optionId": "opt_1"} }
	supplement := func(int) any { return "sup_1" }
	checkIn := func(int) any { return "2025-05-01T08:00:00Z" }
	scalarTypes := "must be null, a boolean, a number or a string"
	for _, op := range []string{"organizerCreateRegistration", "organizerUpdateRegistration"} {
		t.Run(op, func(t *testing.T) {
			runRules(t, op, createRegistration, []ruleCase{
				ok("athletes 100", "athletes", repeat(100, func(int) any { return athlete() })),
				bad("athletes 101", "athletes", repeat(101, func(int) any { return athlete() }), many("athletes", 100)),
				ok("customFields 1000", "customFields", repeat(1000, answer("M"))),
				bad("customFields 1001", "customFields", repeat(1001, answer("M")), many("customFields", 1000)),
				ok("answer of 1000 characters", "customFields[0].value", str(1000, "ñ")),
				bad("answer of 1001", "customFields[0].value", str(1001, "ñ"), long("customFields[0].value", 1000)),
				ok("answer of 100 options", "customFields[0].value", repeat(100, supplement)),
				bad("answer of 101 options", "customFields[0].value", repeat(101, supplement), many("customFields[0].value", 100)),
				bad("option of 1001 characters", "customFields[0].value", []any{str(1001, "o")}, long("customFields[0].value[0]", 1000)),
				bad("options nested in options", "customFields[0].value", []any{[]any{"a"}}, "customFields[0].value[0] "+scalarTypes),
				ok("answer of 64 members", "customFields[0].value", grown(map[string]any{}, 64)),
				bad("answer of 65 members", "customFields[0].value", grown(map[string]any{}, 65), members("customFields[0].value", 64)),
				bad("answer member of 1001 characters", "customFields[0].value", map[string]any{"a": str(1001, "o")}, long("customFields[0].value.a", 1000)),
				bad("objects nested in an answer", "customFields[0].value", map[string]any{"a": map[string]any{}}, "customFields[0].value.a "+scalarTypes),
				ok("fieldId of 128", "customFields[0].fieldId", "fld_"+str(124, "f")),
				bad("fieldId of 129", "customFields[0].fieldId", "fld_"+str(125, "f"), long("customFields[0].fieldId", 128)),
				bad("answer of 65 members", "customFields[0]", grown(map[string]any{"fieldId": "f", "value": 1}, 65), members("customFields[0]", 64)),
				ok("eventId of 128", "eventId", str(128, "e")),
				bad("eventId of 129", "eventId", str(129, "e"), long("eventId", 128)),
				bad("categoryId of 129", "categoryId", str(129, "c"), long("categoryId", 128)),
				ok("teamName of 200", "teamName", str(200, "t")),
				bad("teamName of 201", "teamName", str(201, "t"), long("teamName", 200)),
				bad("club of 201", "club", str(201, "c"), long("club", 200)),
				ok("note of 5000", "note", str(5000, "n")),
				bad("note of 5001", "note", str(5001, "n"), long("note", 5000)),
				ok("checkedInAt 100", "checkedInAt", repeat(100, checkIn)),
				bad("checkedInAt 101", "checkedInAt", repeat(101, checkIn), many("checkedInAt", 100)),
				bad("check-in of 65 characters", "checkedInAt", []any{str(65, "1")}, long("checkedInAt[0]", 64)),
				ok("selectedSupplementIds 50", "selectedSupplementIds", repeat(50, supplement)),
				bad("selectedSupplementIds 51", "selectedSupplementIds", repeat(51, supplement), many("selectedSupplementIds", 50)),
				bad("supplement id of 129", "selectedSupplementIds", []any{str(129, "s")}, long("selectedSupplementIds[0]", 128)),
				ok("supplementSelections 50", "supplementSelections", repeat(50, selection)),
				bad("supplementSelections 51", "supplementSelections", repeat(51, selection), many("supplementSelections", 50)),
				bad("option id of 129", "supplementSelections[0].optionId", str(129, "o"), long("supplementSelections[0].optionId", 128)),
			})
		})
	}
}

// TestBodiesHaveAtMost64Members checks the bound on the members of every request body.
func TestBodiesHaveAtMost64Members(t *testing.T) {
	v := validator(t)
	bodies := map[string]map[string]any{
		"organizerSearchEvents": searchEvents(), "browserSearchEvents": browserSearchEvents(),
		"organizerCreateRegistration": createRegistration(), "organizerUpdateRegistration": createRegistration(),
		"organizerSearchRegistrations": searchRegistrations(), "browserCheckoutSummary": checkoutSummary(),
		"browserCheckoutSession": checkoutSession(), "browserLookupReceipts": receipt(), "browserSendReceipts": receipt(),
		"organizerCreateWebhookEndpoint": webhookEndpoint(), "organizerUpdateWebhookEndpoint": webhookEndpointUpdate(),
		"organizerRecoverWebhookDeliveries": recoverDeliveries(), "browserJoinWaitlist": waitlistJoin(),
		"organizerCreateRefund": createRefund(),
		"organizerCheckIn":      checkInScan(), "organizerCheckInBatch": checkInBatch(),
		"organizerTransferRegistration": {"athlete": athlete()},

		"organizerSignRegistrationWaivers": {"waiversAccepted": map[string]any{"wvr_liability": true}},
	}
	for _, op := range Operations() {
		if !op.HasBody {
			continue
		}
		t.Run(op.ID, func(t *testing.T) {
			body, ok := bodies[op.ID]
			if !ok {
				t.Fatal("no body")
			}
			if err := v.ValidateRequest(op.ID, encode(t, grown(body, 64))); err != nil {
				t.Errorf("64 members: %v", err)
			}
			got := problemsOf(t, v.ValidateRequest(op.ID, encode(t, grown(body, 65))))
			if want := members("body", 64); len(got) != 1 || got[0] != want {
				t.Errorf("65 members: got %q, want %q", got, want)
			}
		})
	}
}

func TestSearchRegistrationsBounds(t *testing.T) {
	at := func(int) any { return "2025-01-01T00:00:00Z" }
	option := func(int) any { return "opt_1" }
	runRules(t, "organizerSearchRegistrations", searchRegistrations, []ruleCase{
		ok("athleteId of 128", "athleteId", str(128, "a")),
		bad("athleteId of 129", "athleteId", str(129, "a"), long("athleteId", 128)),
		bad("eventId of 129", "eventId", str(129, "e"), long("eventId", 128)),
		bad("ticketId of 129", "ticketId", str(129, "t"), long("ticketId", 128)),
		bad("categoryId of 129", "categoryId", str(129, "c"), long("categoryId", 128)),
		ok("cancelledFrom 10", "cancelledFrom", repeat(10, at)),
		bad("cancelledFrom 11", "cancelledFrom", repeat(11, at), many("cancelledFrom", 10)),
		ok("cancelledTo 10", "cancelledTo", repeat(10, at)),
		bad("cancelledTo 11", "cancelledTo", repeat(11, at), many("cancelledTo", 10)),
		ok("filter value of 1000 characters", "customFieldFilters[0].value", str(1000, "v")),
		bad("filter value of 1001", "customFieldFilters[0].value", str(1001, "v"), long("customFieldFilters[0].value", 1000)),
		ok("filter values 100", "customFieldFilters[0].value", repeat(100, option)),
		bad("filter values 101", "customFieldFilters[0].value", repeat(101, option), many("customFieldFilters[0].value", 100)),
		bad("filter value item of 1001", "customFieldFilters[0].value", []any{str(1001, "v")},
			long("customFieldFilters[0].value[0]", 1000)),
		bad("filter fieldId of 129", "customFieldFilters[0].fieldId", str(129, "f"), long("customFieldFilters[0].fieldId", 128)),
		bad("filter of 65 members", "customFieldFilters[0]", grown(map[string]any{"fieldId": "f", "operator": "is-empty"}, 65),
			members("customFieldFilters[0]", 64)),
		ok("optionIds 50", "supplementFilters[0].optionIds", repeat(50, option)),
		bad("optionIds 51", "supplementFilters[0].optionIds", repeat(51, option), many("supplementFilters[0].optionIds", 50)),
		bad("option id of 129", "supplementFilters[0].optionIds", []any{str(129, "o")}, long("supplementFilters[0].optionIds[0]", 128)),
		bad("supplementId of 129", "supplementFilters[0].supplementId", str(129, "s"), long("supplementFilters[0].supplementId", 128)),
	})
}

func TestCheckoutSummaryBounds(t *testing.T) {
	supplement := func(int) any { return "sup_1" }
	runRules(t, "browserCheckoutSummary", checkoutSummary, []ruleCase{
		ok("previewToken of 128", "previewToken", "prv_"+str(124, "p")),
		bad("previewToken of 129", "previewToken", "prv_"+str(125, "p"), long("previewToken", 128)),
		bad("categoryId of 129", "categoryId", str(129, "c"), long("categoryId", 128)),
		ok("promocode of 64", "promocode", str(64, "Ñ")),
		bad("promocode of 65", "promocode", str(65, "Ñ"), long("promocode", 64)),
		ok("selectedSupplementIds 50", "selectedSupplementIds", repeat(50, supplement)),
		bad("selectedSupplementIds 51", "selectedSupplementIds", repeat(51, supplement), many("selectedSupplementIds", 50)),
		bad("guest selectedSupplementIds 51", "guestRegistrations[0].selectedSupplementIds", repeat(51, supplement),
			many("guestRegistrations[0].selectedSupplementIds", 50)),
		bad("guest categoryId of 129", "guestRegistrations[0].categoryId", str(129, "c"), long("guestRegistrations[0].categoryId", 128)),
		bad("guest of 65 members", "guestRegistrations[0]", grown(map[string]any{"categoryId": "c"}, 65), members("guestRegistrations[0]", 64)),
		bad("purchaserEmail of 255", "purchaserEmail", longEmail(255), long("purchaserEmail", 254)),
	})
}

func TestCheckoutSessionBounds(t *testing.T) {
	const g, l = "guestRegistrations[0]", "legalSignature"
	waiverMap := func(n int) map[string]any {
		m := map[string]any{}
		for i := range n {
			m[fmt.Sprintf("wvr_%d", i)] = true
		}
		return m
	}
	runRules(t, session, checkoutSession, []ruleCase{
		bad("idempotencyKey of 256 is worded by its pattern", "idempotencyKey", str(256, "k"), keyRule),
		bad("idempotencyKey of 257", "idempotencyKey", str(257, "k"), long("idempotencyKey", 256)),
		ok("waiversAccepted 50", "waiversAccepted", waiverMap(50)),
		bad("waiversAccepted 51", "waiversAccepted", waiverMap(51), members("waiversAccepted", 50)),
		bad("participant waivers 51", "deferredTeamCompletion.participantWaivers[0].waiversAccepted", waiverMap(51),
			members("deferredTeamCompletion.participantWaivers[0].waiversAccepted", 50)),
		ok("guest athletes 100", g+".athletes", repeat(100, func(int) any { return athlete() })),
		bad("guest athletes 101", g+".athletes", repeat(101, func(int) any { return athlete() }), many(g+".athletes", 100)),
		ok("guestName of 200", g+".guestName", str(200, "n")),
		bad("guestName of 201", g+".guestName", str(201, "n"), long(g+".guestName", 200)),
		bad("guest teamName of 201", g+".teamName", str(201, "t"), long(g+".teamName", 200)),
		bad("guest club of 201", g+".club", str(201, "c"), long(g+".club", 200)),
		bad("guest waivers 51", g+".waiversAccepted", waiverMap(51), members(g+".waiversAccepted", 50)),
		bad("guestEmail of 255", g+".guestEmail", longEmail(255), long(g+".guestEmail", 254)),
		ok("successUrl of 2048", "successUrl", "https://shop.example.com/"+str(2048-25, "a")),
		bad("successUrl of 2049", "successUrl", "https://shop.example.com/"+str(2049-25, "a"), long("successUrl", 2048)),
		bad("countryCode of 16 is worded by its pattern", "ipEnrichment.countryCode", str(16, "E"),
			"ipEnrichment.countryCode must be a 2-letter country code"),
		bad("countryCode of 17", "ipEnrichment.countryCode", str(17, "E"), long("ipEnrichment.countryCode", 16)),
		bad("ipEnrichment of 65 members", "ipEnrichment", grown(map[string]any{"provider": "ipquery", "countryCode": "ES"}, 65),
			members("ipEnrichment", 64)),
		bad("waiverId of 129", l+".waiverVersions[0].waiverId", str(129, "w"), long(l+".waiverVersions[0].waiverId", 128)),
		bad("signature of 65 members", l, grown(checkoutSession()[l].(map[string]any), 65), members(l, 64)),
		bad("point of 65 members", l+".strokes[0][0]", grown(map[string]any{"x": 0, "y": 0, "t": 0}, 65), members(l+".strokes[0][0]", 64)),
		bad("deferred of 65 members", "deferredTeamCompletion",
			grown(checkoutSession()["deferredTeamCompletion"].(map[string]any), 65), members("deferredTeamCompletion", 64)),
	})
}

// TestBoundProblemsComeWithTheOthers: a value past its bound is reported with every other
// problem of the body, and nothing is said of what lies inside it (it is not checked).
func TestBoundProblemsComeWithTheOthers(t *testing.T) {
	athletes := make([]any, 101)
	for i := range athletes {
		athletes[i] = map[string]any{"email": "not an e-mail"}
	}
	for name, c := range map[string]struct {
		op   string
		body map[string]any
		want []string
	}{
		"a long search beside a limit too high": {
			"organizerSearchRegistrations", map[string]any{"search": str(101, "a"), "limit": 101},
			[]string{"limit must be at most 100", long("search", 100)},
		},
		"too many athletes, each broken, beside a missing team name": {
			"organizerCreateRegistration", map[string]any{"eventId": "evt_1", "categoryId": "cat_1", "athletes": athletes},
			[]string{many("athletes", 100), "teamName is required"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			got := problemsOf(t, validator(t).ValidateRequest(c.op, encode(t, c.body)))
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("problems %q, want %q", got, c.want)
			}
		})
	}
}
