package apispec

import "testing"

func TestCreateRegistrationRules(t *testing.T) {
	runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
		ok("bib 1", "bibRaceNumber", 1),
		ok("bib at the safe maximum", "bibRaceNumber", num(maxSafe)),
		bad("bib 0", "bibRaceNumber", 0, "bibRaceNumber must be greater than 0"),
		bad("bib above the safe maximum", "bibRaceNumber", num("9007199254740992"),
			"bibRaceNumber must be at most "+maxSafe),
		bad("bib fraction", "bibRaceNumber", 1.5, "bibRaceNumber must be an integer"),
		bad("bib string", "bibRaceNumber", "12", "bibRaceNumber must be an integer"),
		bad("no athletes", "athletes", []any{}, "athletes must have at least 1 item"),
		bad("athletes missing", "athletes", remove, "athletes is required"),
		bad("eventId empty", "eventId", "", "eventId must not be empty"),
		bad("eventId missing", "eventId", remove, "eventId is required"),
		bad("categoryId missing", "categoryId", remove, "categoryId is required"),
		bad("teamName empty", "teamName", "", "teamName must not be empty"),
		bad("teamName missing", "teamName", remove, "teamName is required"),
		ok("club empty", "club", ""),
		ok("check-in timestamp", "checkedInAt", []any{"2025-05-01T08:00:00+02:00"}),
		bad("check-in not a timestamp", "checkedInAt", []any{"yesterday"},
			"checkedInAt[0] must be an RFC 3339 date-time, for example 2025-05-01T08:00:00Z"),
		ok("custom field value null", "customFields[0].value", nil),
		ok("custom field value object", "customFields[0].value", map[string]any{"a": 1}),
		bad("custom field value missing", "customFields[0].value", remove, "customFields[0].value is required"),
		bad("custom field id empty", "customFields[0].fieldId", "", "customFields[0].fieldId must not be empty"),
		bad("supplement option missing", "supplementSelections[0].optionId", remove,
			"supplementSelections[0].optionId is required"),
		bad("supplement id empty", "supplementSelections[0].supplementId", "",
			"supplementSelections[0].supplementId must not be empty"),
		bad("selected supplement not a string", "selectedSupplementIds[0]", 7,
			"selectedSupplementIds[0] must be a string"),
		ok("unknown property ignored", "source", "import"),
	})
}

func TestUpdateRegistrationRules(t *testing.T) {
	empty := func() map[string]any { return map[string]any{} }
	runRules(t, "organizerUpdateRegistration", empty, []ruleCase{
		ok("notifyEmailChange", "notifyEmailChange", true),
		ok("teamName only", "teamName", "New name"),
		ok("athletes only", "athletes", []any{athlete()}),
		bad("notifyEmailChange string", "notifyEmailChange", "yes", "notifyEmailChange must be a boolean"),
		bad("no athletes", "athletes", []any{}, "athletes must have at least 1 item"),
		bad("bib 0", "bibRaceNumber", 0, "bibRaceNumber must be greater than 0"),
		bad("eventId empty", "eventId", "", "eventId must not be empty"),
		bad("athlete phone", "athletes", []any{with(t, athlete(), "phone", "600")}, phoneRule),
	})
}

func TestSearchRegistrationsRules(t *testing.T) {
	filter := func(i int) any { return map[string]any{"fieldId": "f", "operator": "is-empty"} }
	suppFilter := func(i int) any { return map[string]any{"supplementId": "s"} }
	runRules(t, "organizerSearchRegistrations", searchRegistrations, []ruleCase{
		bad("search empty", "search", "", "search must not be empty"),
		ok("search 100 chars", "search", str(100, "a")),
		bad("search 101 chars", "search", str(101, "a"), "search must be at most 100 characters long"),
		ok("ageMin 0", "ageMin", 0),
		ok("ageMax 120", "ageMax", 120),
		bad("ageMin -1", "ageMin", -1, "ageMin must be at least 0"),
		bad("ageMin 121", "ageMin", 121, "ageMin must be at most 120"),
		bad("ageMax -1", "ageMax", -1, "ageMax must be at least 0"),
		bad("ageMax 121", "ageMax", 121, "ageMax must be at most 120"),
		bad("ageMin fraction", "ageMin", 20.5, "ageMin must be an integer"),
		ok("limit 1", "limit", 1),
		ok("limit 100", "limit", 100),
		bad("limit 0", "limit", 0, "limit must be at least 1"),
		bad("limit 101", "limit", 101, "limit must be at most 100"),
		ok("offset 0", "offset", 0),
		ok("offset large", "offset", num("9007199254740992")),
		bad("offset -1", "offset", -1, "offset must be at least 0"),
		ok("ticketStatus default omitted", "ticketStatus", remove),
		bad("ticketStatus lowercase", "ticketStatus", "all", "ticketStatus must be one of: ACTIVE, CANCELLED, ALL"),
		bad("status unknown", "status", "PAID",
			"status must be one of: PENDING, COMPLETED, FAILED, CANCELLED, REFUNDED"),
		bad("checkIn unknown", "checkIn", "yes", "checkIn must be one of: checked-in, pending"),
		bad("sortBy unknown", "sortBy", "name", "sortBy must be one of: createdAt-desc, createdAt-asc, "+
			"athlete-asc, amount-desc, bib-asc, category-asc"),
		bad("participantDataStatus unknown", "participantDataStatus", "DONE",
			"participantDataStatus must be one of: READY, PENDING_PARTICIPANTS"),
		bad("gender unknown", "gender", "X", "gender must be one of: MALE, FEMALE"),
		bad("cancelledFrom bare date", "cancelledFrom", []any{"2025-01-01"},
			"cancelledFrom[0] must be an RFC 3339 date-time, for example 2025-05-01T08:00:00Z"),
		bad("cancelledTo string", "cancelledTo", "2025-01-01T00:00:00Z", "cancelledTo must be an array"),
		ok("customFieldFilters 20", "customFieldFilters", repeat(20, filter)),
		bad("customFieldFilters 21", "customFieldFilters", repeat(21, filter),
			"customFieldFilters must have at most 20 items"),
		bad("filter operator unknown", "customFieldFilters[0].operator", "like",
			"customFieldFilters[0].operator must be one of: contains, equals, has-any, is-empty, is-not-empty"),
		bad("filter operator missing", "customFieldFilters[0].operator", remove,
			"customFieldFilters[0].operator is required"),
		bad("filter fieldId empty", "customFieldFilters[0].fieldId", "",
			"customFieldFilters[0].fieldId must not be empty"),
		ok("filter value number", "customFieldFilters[0].value", 3.5),
		ok("filter value boolean", "customFieldFilters[0].value", true),
		ok("filter value strings", "customFieldFilters[0].value", []any{"M", "L"}),
		ok("filter value absent", "customFieldFilters[0].value", remove),
		bad("filter value object", "customFieldFilters[0].value", map[string]any{"a": "b"},
			"customFieldFilters[0].value must be a boolean, a number, a string or an array"),
		bad("filter value null", "customFieldFilters[0].value", nil,
			"customFieldFilters[0].value must be a boolean, a number, a string or an array"),
		bad("filter value array of numbers", "customFieldFilters[0].value", []any{1},
			"customFieldFilters[0].value[0] must be a string"),
		ok("supplementFilters 20", "supplementFilters", repeat(20, suppFilter)),
		bad("supplementFilters 21", "supplementFilters", repeat(21, suppFilter),
			"supplementFilters must have at most 20 items"),
		bad("supplement filter id missing", "supplementFilters[0].supplementId", remove,
			"supplementFilters[0].supplementId is required"),
		bad("optionIds empty", "supplementFilters[0].optionIds", []any{},
			"supplementFilters[0].optionIds must have at least 1 item"),
		bad("optionIds empty string", "supplementFilters[0].optionIds", []any{""},
			"supplementFilters[0].optionIds[0] must not be empty"),
	})
}

func TestSearchEventsRules(t *testing.T) {
	common := []ruleCase{
		ok("limit 1", "limit", 1),
		ok("limit 100", "limit", 100),
		bad("limit 0", "limit", 0, "limit must be at least 1"),
		bad("limit 101", "limit", 101, "limit must be at most 100"),
		bad("limit fraction", "limit", 2.5, "limit must be an integer"),
		ok("offset 0", "offset", 0),
		ok("offset at the safe maximum", "offset", num(maxSafe)),
		bad("offset -1", "offset", -1, "offset must be at least 0"),
		bad("offset above the safe maximum", "offset", num("9007199254740992"),
			"offset must be at most "+maxSafe),
		ok("search empty", "search", ""),
		ok("search 100 chars", "search", str(100, "é")),
		bad("search 101 chars", "search", str(101, "é"), "search must be at most 100 characters long"),
		bad("search number", "search", 5, "search must be a string"),
	}
	t.Run("organizer", func(t *testing.T) {
		runRules(t, "organizerSearchEvents", searchEvents, append(common,
			ok("status ARCHIVED", "status", "ARCHIVED"),
			bad("status unknown", "status", "LIVE", "status must be one of: DRAFT, PUBLISHED, UNDER_REVIEW, "+
				"POSTPONED, COMPLETED, CANCELLED, ARCHIVED"),
		))
	})
	t.Run("browser", func(t *testing.T) {
		runRules(t, "browserSearchEvents", browserSearchEvents, append(common,
			bad("status is refused there", "status", "PUBLISHED", "status is not allowed"),
		))
	})
}
