package apispec

import "testing"

const session = "browserCheckoutSession"

func TestCheckoutSummaryRules(t *testing.T) {
	guestItem := func(i int) any { return map[string]any{"categoryId": "cat_1"} }
	runRules(t, "browserCheckoutSummary", checkoutSummary, []ruleCase{
		bad("categoryId missing", "categoryId", remove, "categoryId is required"),
		bad("purchaserEmail missing", "purchaserEmail", remove, "purchaserEmail is required"),
		bad("purchaserEmail leading dot", "purchaserEmail", ".b@example.com",
			"purchaserEmail must be a valid e-mail address: no leading dot, no consecutive dots, "+
				"and a domain ending in a top-level part of 2 or more letters"),
		bad("previewToken empty", "previewToken", "", "previewToken must not be empty"),
		ok("promocode digits and symbols", "promocode", "2025-ÑU_10%"),
		bad("promocode with a lowercase letter", "promocode", "SPRINg10",
			"promocode must not contain lowercase letters (send the code in uppercase)"),
		bad("promocode with a lowercase accented letter", "promocode", "ñU",
			"promocode must not contain lowercase letters (send the code in uppercase)"),
		ok("guestRegistrations 10", "guestRegistrations", repeat(10, guestItem)),
		bad("guestRegistrations 11", "guestRegistrations", repeat(11, guestItem),
			"guestRegistrations must have at most 10 items"),
		bad("guest categoryId missing", "guestRegistrations[0].categoryId", remove,
			"guestRegistrations[0].categoryId is required"),
		bad("guest supplement selection incomplete", "guestRegistrations[0].supplementSelections",
			[]any{map[string]any{"optionId": "o"}}, "guestRegistrations[0].supplementSelections[0].supplementId is required"),
	})
}

func TestCheckoutSessionTopLevelRules(t *testing.T) {
	runRules(t, session, checkoutSession, []ruleCase{
		ok("idempotencyKey 8 chars", "idempotencyKey", str(8, "a")),
		ok("idempotencyKey 120 chars", "idempotencyKey", str(120, "Z")),
		ok("idempotencyKey every allowed character", "idempotencyKey", "aZ09._:-"),
		bad("idempotencyKey 7 chars", "idempotencyKey", str(7, "a"), keyRule),
		bad("idempotencyKey 121 chars", "idempotencyKey", str(121, "a"), keyRule),
		bad("idempotencyKey with a space", "idempotencyKey", "order 2025-05", keyRule),
		bad("idempotencyKey with a slash", "idempotencyKey", "order/2025-05", keyRule),
		bad("idempotencyKey with an accent", "idempotencyKey", "pedido-ñ-2025", keyRule),
		ok("purchaserName 2 chars", "purchaserName", "Al"),
		ok("purchaserName 120 chars", "purchaserName", str(120, "n")),
		bad("purchaserName 1 char", "purchaserName", "A", "purchaserName must be at least 2 characters long"),
		bad("purchaserName 121 chars", "purchaserName", str(121, "n"),
			"purchaserName must be at most 120 characters long"),
		ok("checkoutResumeSecret 32 chars", "checkoutResumeSecret", str(32, "s")),
		ok("checkoutResumeSecret 128 chars", "checkoutResumeSecret", str(128, "s")),
		bad("checkoutResumeSecret 31 chars", "checkoutResumeSecret", str(31, "s"),
			"checkoutResumeSecret must be at least 32 characters long"),
		bad("checkoutResumeSecret 129 chars", "checkoutResumeSecret", str(129, "s"),
			"checkoutResumeSecret must be at most 128 characters long"),
		bad("termsAccepted missing", "termsAccepted", remove, "termsAccepted is required"),
		bad("termsAccepted string", "termsAccepted", "true", "termsAccepted must be a boolean"),
		ok("termsAccepted false is a business rule", "termsAccepted", false),
		bad("successUrl relative", "successUrl", "/done", "successUrl must be an absolute URI, for example https://example.com/done"),
		bad("cancelUrl not a URI", "cancelUrl", "http://exa mple.com", "cancelUrl must be an absolute URI, for example https://example.com/done"),
		bad("successUrl missing", "successUrl", remove, "successUrl is required"),
		bad("athletes empty", "athletes", []any{}, "athletes must have at least 1 item"),
		bad("second athlete phone", "athletes[1].phone", "0034600111222",
			"athletes[1].phone must be in E.164 form: a plus sign, a digit 1-9, then 6 to 14 digits"),
		bad("promocode lowercase", "promocode", "spring",
			"promocode must not contain lowercase letters (send the code in uppercase)"),
		bad("waiver value not boolean", "waiversAccepted.wvr_liability", "yes",
			"waiversAccepted.wvr_liability must be a boolean"),
		bad("waiver with an empty id", "waiversAccepted", map[string]any{"": true},
			`waiversAccepted[""] is not allowed: waiver identifiers must not be empty`),
		bad("waiver id with a space is quoted", "waiversAccepted", map[string]any{"wvr 1": 1},
			`waiversAccepted["wvr 1"] must be a boolean`),
		ok("unknown top-level property", "utm", map[string]any{"source": "newsletter"}),
		ok("unknown athlete property", "athletes[0].shirt", "M"),
	})
}

// keyRule is the problem of a malformed idempotency key.
const keyRule = "idempotencyKey must be 8 to 120 characters long, using only letters, digits, " +
	"'.', '_', ':' and '-'"

func TestCheckoutSessionGuests(t *testing.T) {
	runRules(t, session, checkoutSession, []ruleCase{
		ok("guestRegistrations 10", "guestRegistrations", repeat(10, func(i int) any { return guest(i) })),
		bad("guestRegistrations 11", "guestRegistrations", repeat(11, func(i int) any { return guest(i) }),
			"guestRegistrations must have at most 10 items"),
		bad("guestName 1 char", "guestRegistrations[0].guestName", "L",
			"guestRegistrations[0].guestName must be at least 2 characters long"),
		bad("guestEmail invalid", "guestRegistrations[0].guestEmail", "luis@example",
			"guestRegistrations[0].guestEmail must be a valid e-mail address: no leading dot, "+
				"no consecutive dots, and a domain ending in a top-level part of 2 or more letters"),
		bad("guest athletes empty", "guestRegistrations[0].athletes", []any{},
			"guestRegistrations[0].athletes must have at least 1 item"),
		bad("guest athlete date", "guestRegistrations[0].athletes[0].birthDate", "2023-02-29",
			"guestRegistrations[0].athletes[0].birthDate must be a real calendar date in the form YYYY-MM-DD"),
		bad("guest teamName missing", "guestRegistrations[0].teamName", remove,
			"guestRegistrations[0].teamName is required"),
		bad("guest waiver not boolean", "guestRegistrations[0].waiversAccepted.wvr_liability", 1,
			"guestRegistrations[0].waiversAccepted.wvr_liability must be a boolean"),
		ok("unknown guest property", "guestRegistrations[0].note", "friend"),
	})
}

func TestCheckoutSessionDeferredTeamCompletion(t *testing.T) {
	const d = "deferredTeamCompletion"
	pos := func(i int) any { return i }
	gender := func(i int) any { return "MALE" }
	runRules(t, session, checkoutSession, []ruleCase{
		ok("count at the safe maximum", d+".pendingParticipantCount", num(maxSafe)),
		bad("count 0", d+".pendingParticipantCount", 0, d+".pendingParticipantCount must be at least 1"),
		bad("count above the safe maximum", d+".pendingParticipantCount", num("9007199254740992"),
			d+".pendingParticipantCount must be at most "+maxSafe),
		bad("count missing", d+".pendingParticipantCount", remove, d+".pendingParticipantCount is required"),
		ok("positions 100 items", d+".pendingParticipantPositions", repeat(100, pos)),
		bad("positions 0 items", d+".pendingParticipantPositions", []any{},
			d+".pendingParticipantPositions must have at least 1 item"),
		bad("positions 101 items", d+".pendingParticipantPositions", repeat(101, pos),
			d+".pendingParticipantPositions must have at most 100 items"),
		bad("position -1", d+".pendingParticipantPositions[0]", -1, d+".pendingParticipantPositions[0] must be at least 0"),
		bad("position above the safe maximum", d+".pendingParticipantPositions[0]", num("9007199254740992"),
			d+".pendingParticipantPositions[0] must be at most "+maxSafe),
		ok("slotGenders 100 items", d+".slotGenders", repeat(100, gender)),
		bad("slotGenders 0 items", d+".slotGenders", []any{}, d+".slotGenders must have at least 1 item"),
		bad("slotGenders 101 items", d+".slotGenders", repeat(101, gender), d+".slotGenders must have at most 100 items"),
		bad("slotGenders unknown", d+".slotGenders[0]", "ANY", d+".slotGenders[0] must be one of: MALE, FEMALE"),
		bad("participantWaivers 0 items", d+".participantWaivers", []any{}, d+".participantWaivers must have at least 1 item"),
		bad("participantWaivers 101 items", d+".participantWaivers",
			repeat(101, func(int) any { return map[string]any{"waiversAccepted": map[string]any{}} }),
			d+".participantWaivers must have at most 100 items"),
		bad("participantWaivers missing", d+".participantWaivers", remove, d+".participantWaivers is required"),
		bad("participant waiver map missing", d+".participantWaivers[0].waiversAccepted", remove,
			d+".participantWaivers[0].waiversAccepted is required"),
		ok("unknown property", d+".comment", "later"),
	})
}
