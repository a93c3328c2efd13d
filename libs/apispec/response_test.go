package apispec

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Valid response bodies, one per documented success shape.
const (
	eventSummaryJSON = `{"id":"evt_1","name":"Madrid Throwdown","status":"PUBLISHED","startDate":"2025-06-07",` +
		`"endDate":"2025-06-08","timezone":"Europe/Madrid","currency":"EUR","location":{"city":"Madrid","countryCode":"ES"}}`
	eventListJSON    = `{"data":[` + eventSummaryJSON + `],"total":1,"limit":50,"offset":0}`
	publicDetailJSON = `{"id":"evt_1","name":"Madrid Throwdown","status":"PUBLISHED","startDate":"2025-06-07",` +
		`"endDate":"2025-06-08","timezone":"Europe/Madrid","currency":"EUR","location":{"venue":"Pabellón","city":"Madrid"},` +
		`"description":"Two days.",` +
		`"categories":[{"id":"cat_rx","name":"RX","teamSize":{"min":2,"max":2},"gender":"MIXED","ageMin":18,"ageMax":null,` +
		`"quota":40,"basePrice":9000}],` +
		`"formFields":[{"id":"fld_shirt","label":"Shirt","type":"select","required":true,"options":["S","M"],` +
		`"appliesTo":"ATHLETE","categoryIds":[]}],` +
		`"waivers":[{"id":"wvr_liability","title":"Liability","version":3,"text":"At my own risk.","required":true,"forMinors":false}],` +
		`"sponsors":[{"id":"spn_acme","name":"Acme","logoUrl":"https://cdn.example.com/acme.png"}],` +
		`"supplements":[{"id":"sup_shirt","name":"Shirt","kind":"OPTIONS","per":"ATHLETE","currency":"EUR",` +
		`"options":[{"id":"opt_m","name":"M","price":1500}]}]}`
	organizerDetailJSON = `{"id":"evt_1","externalId":"madrid-2025","name":"Madrid Throwdown","status":"DRAFT","private":true,` +
		`"startDate":"2025-06-07","endDate":"2025-06-08","timezone":"Europe/Madrid","currency":"EUR","location":{},` +
		`"description":"Two days.","internalNotes":"","previewToken":"prv_x","version":2,` +
		`"categories":[{"id":"cat_rx","name":"RX","teamSize":{"min":1,"max":1},"gender":"OPEN","ageMin":null,"ageMax":null,` +
		`"quota":null,"basePrice":9000,"private":true,"published":false}],` +
		`"formFields":[],"waivers":[],"sponsors":[],` +
		`"supplements":[{"id":"sup_park","name":"Parking","kind":"SINGLE_PRICE","per":"REGISTRATION","price":800,"currency":"EUR"}],` +
		`"promocodes":[{"id":"prm_1","code":"EARLY10","type":"PERCENT","basisPoints":1000,"amount":null,"validFrom":null,` +
		`"validUntil":"2025-03-01T00:00:00Z","maxUses":100,"categoryIds":["cat_rx"]}],` +
		`"fees":[{"id":"fee_1","name":"Service","type":"FIXED","basisPoints":null,"amount":150,"per":"ORDER"}],` +
		`"createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-02T00:00:00Z"}`
	pricingJSON = `{"eventId":"evt_1","currency":"EUR","cards":[{"categoryId":"cat_rx","name":"RX","quota":null,` +
		`"registeredCount":12,"heldCount":1,"availableCount":null,"basePrice":9000,"activePrice":7500,"tiers":[{"id":"tir_1",` +
		`"name":"Early","price":7500,"startsAt":null,"endsAt":"2025-03-01T00:00:00Z","upToCount":null,"active":true}]}]}`
	ticketJSON       = `{"ticketId":"tkt_1","athleteId":"ath_1","status":"ACTIVE","checkedInAt":[]}`
	athleteRecJSON   = `{"athleteId":"ath_1","fullname":"Ana","email":"ana@example.com","gender":"FEMALE","birthDate":"1990-05-17"}`
	registrationJSON = `{"registrationId":"reg_1","eventId":"evt_1","categoryId":"cat_rx","teamName":"Atlas",` +
		`"bibRaceNumber":12,"participantDataStatus":"READY","tickets":[` + ticketJSON + `],` +
		`"order":{"orderId":"ord_1","status":"COMPLETED","amount":7500,"currency":"EUR","paidAt":null}}`
	searchRowsJSON = `{"data":[{"ticket":` + ticketJSON + `,"athlete":` + athleteRecJSON + `,` +
		`"registration":{"registrationId":"reg_1","eventId":"evt_1","categoryId":"cat_rx","teamName":"Atlas"}}],` +
		`"total":1,"limit":20,"offset":0}`
	summaryJSON = `{"currency":"EUR","lineItems":[{"kind":"REGISTRATION","categoryId":"cat_rx","price":7500,` +
		`"supplements":[{"supplementId":"sup_shirt","optionId":"opt_m","amount":1500}],"subtotal":9000,"total":8200},` +
		`{"kind":"GUEST","guestIndex":0,"categoryId":"cat_rx","price":7500,"subtotal":7500,"total":7500}],` +
		`"subtotal":16500,"discount":900,"fees":100,"total":15700,"promocode":{"code":"SPRING-10","applied":true}}`
	errorJSON = `{"statusCode":400,"code":"validation_failed","message":["limit must be at most 100"],` +
		`"problems":[{"path":"limit","code":"too_large","message":"limit must be at most 100"}],"error":"Bad Request","requestId":"req_1"}`
)

func TestValidateResponse(t *testing.T) {
	v := validator(t)
	tests := []struct {
		op     string
		status int
		body   string
		want   []string
	}{
		{"organizerSearchEvents", 201, eventListJSON, nil},
		{"browserSearchEvents", 201, eventListJSON, nil},
		{"organizerGetEvent", 200, organizerDetailJSON, nil},
		{"browserGetEvent", 200, publicDetailJSON, nil},
		{"organizerGetPricingCards", 200, pricingJSON, nil},
		{"browserGetPricingCards", 200, pricingJSON, nil},
		{"organizerCreateRegistration", 201, registrationJSON, nil},
		{"organizerUpdateRegistration", 200, registrationJSON, nil},
		{"organizerSearchRegistrations", 201, searchRowsJSON, nil},
		{"organizerDeleteRegistration", 200, `{"ticketId":"tkt_1","result":"CANCELLED","ticketStatus":"CANCELLED"}`, nil},
		{"browserCheckoutSummary", 201, summaryJSON, nil},
		{"browserCheckoutSession", 201, `{"sessionId":"cs_test_1","sessionUrl":"https://checkout.stripe.com/c/pay/cs_test_1"}`, nil},
		{"browserLookupReceipts", 201, `{"found":true,"count":2}`, nil},
		{"browserSendReceipts", 201, `{"accepted":true,"count":2}`, nil},
		{"organizerCreateRegistration", 400, errorJSON, nil},
		{"browserCheckoutSession", 429, `{"statusCode":429,"code":"rate_limited","message":"Too many requests","error":"Too Many Requests","requestId":"r"}`, nil},
		{"browserGetEvent", 503, `{"statusCode":503,"code":"service_unavailable","message":"Try again later","error":"Service Unavailable","requestId":"r"}`, nil},

		{"organizerSearchEvents", 201, `{"data":[{"id":"1","name":"x","status":"LIVE","startDate":"2025-06-07","endDate":"2025-06-07",` +
			`"timezone":"UTC","currency":"EUR","location":{}}],"total":1,"limit":50,"offset":0}`,
			[]string{"data[0].id must be an opaque id that starts with evt_",
				"data[0].status must be one of: DRAFT, PUBLISHED, UNDER_REVIEW, POSTPONED, COMPLETED, CANCELLED, ARCHIVED"}},
		{"browserSearchEvents", 201, `{"data":[{"id":"evt_1","name":"x","status":"PUBLISHED"}],"total":1,"limit":50,"offset":0}`,
			[]string{"data[0].currency is required", "data[0].endDate is required", "data[0].location is required",
				"data[0].startDate is required", "data[0].timezone is required"}},
		{"browserGetEvent", 200, strings.Replace(publicDetailJSON, `"gender":"MIXED"`, `"gender":"ANY"`, 1),
			[]string{"categories[0].gender must be one of: OPEN, MALE, FEMALE, MIXED"}},
		{"organizerGetEvent", 200, strings.Replace(organizerDetailJSON, `"previewToken":"prv_x"`, `"previewToken":"x"`, 1),
			[]string{"previewToken must be a preview token that starts with prv_"}},
		{"browserGetPricingCards", 200, strings.Replace(pricingJSON, `"heldCount":1,`, ``, 1),
			[]string{"cards[0].heldCount is required"}},
		{"organizerSearchEvents", 201, `{"data":[]}`, []string{"limit is required", "offset is required", "total is required"}},
		{"browserGetEvent", 200, `{"id":"evt_1","name":"x","status":"PUBLISHED","startDate":"2025-06-07","endDate":"2025-06-07",` +
			`"timezone":"UTC","currency":"EUR","location":{}}`, []string{"categories is required", "description is required",
			"formFields is required", "sponsors is required", "supplements is required", "waivers is required"}},
		{"organizerGetPricingCards", 200, `{"eventId":"evt_1","currency":"eur","cards":[]}`,
			[]string{"currency must be an ISO 4217 currency code in uppercase, for example EUR"}},
		{"organizerCreateRegistration", 201, `{"registrationId":"reg_1","eventId":"evt_1","categoryId":"cat_1",` +
			`"teamName":"A","tickets":[],"createdAt":"2025-05-01T10:00:00+02:00"}`,
			[]string{"createdAt must be an RFC 3339 timestamp in UTC, for example 2025-05-01T08:00:00Z"}},
		{"organizerDeleteRegistration", 200, `{"ticketId":"tkt_1","result":"GONE"}`,
			[]string{"result must be one of: DELETED, CANCELLED"}},
		{"browserCheckoutSession", 201, `{"sessionId":"cs_1","sessionUrl":"/pay"}`,
			[]string{"sessionUrl must be an absolute URI"}},
		{"browserCheckoutSummary", 201, `{"currency":"EUR","lineItems":[],"subtotal":-1,"discount":0,"fees":0,"total":0}`,
			[]string{"lineItems must have at least 1 item", "subtotal must be at least 0"}},
		{"browserLookupReceipts", 201, `{"found":true}`, []string{"count is required"}},
		{"organizerGetEvent", 404, `{"statusCode":500,"code":"not_found","message":"Not found","error":"Not Found","requestId":"r"}`,
			[]string{"statusCode must be 404"}},
		{"organizerGetEvent", 404, `{"statusCode":404,"code":"not_found","message":"Not found","error":"Not Found"}`, []string{"requestId is required"}},
		{"organizerGetEvent", 404, `{"statusCode":404,"code":"event_missing","message":"Not found","error":"Not Found","requestId":"r"}`,
			[]string{"code must be one of: validation_failed, bad_request, redirect_not_allowed, key_missing, key_malformed, key_unknown, key_revoked, key_expired, unauthorized, key_wrong_surface, scope_missing, origin_missing, origin_not_allowed, forbidden, test_key_required, not_found, route_not_found, method_not_allowed, conflict, quota_exhausted, bib_taken, registration_cancelled, idempotency_key_in_use, hold_released, member_exists, webhook_endpoint_limit, webhook_endpoint_disabled, last_owner, nonce_reused, ticket_cancelled, ticket_unpaid, category_not_sold_out, waitlist_closed, waitlist_offer_not_valid, waitlist_entry_not_waiting, body_too_large, unsupported_media_type, headers_too_large, rule_violated, idempotency_key_reused, promocode_invalid, signature_invalid, rate_limited, internal_error, service_unavailable, timeout, transfer_deadline_passed, athlete_gender_not_allowed, athlete_age_not_allowed, team_composition_invalid, order_not_paid, refund_exceeds_paid, ticket_already_refunded, idempotency_key_required, waiver_not_pending, waiver_refused, waitlist_email_limit"}},
		{"organizerCreateRegistration", 400, `{"statusCode":400,"code":"validation_failed","message":["a is odd"],"error":"Bad Request","requestId":"r",` +
			`"problems":[{"path":"a","code":"odd","message":"a is odd"}]}`, []string{"problems[0].code must be one of: required, invalid_type, invalid_format, not_allowed, too_short, too_long, too_small, too_large, duplicate, invalid_json, too_deep, invalid, rule_violated, redirect_not_allowed, more_problems, nonce_reused"}},
		{"organizerCreateRegistration", 400, `{"statusCode":400,"code":"validation_failed","message":[],"error":"Bad Request","requestId":"r"}`,
			[]string{"message must have at least 1 item"}},
		{"organizerCreateRegistration", 400, `{"statusCode":400,"code":"validation_failed","message":[1],"error":"Bad Request","requestId":"r"}`,
			[]string{"message[0] must be a string"}},
		{"browserGetEvent", 200, ``, []string{"body must be valid JSON"}},
	}
	for _, tc := range tests {
		t.Run(tc.op, func(t *testing.T) {
			got := problemsOf(t, v.ValidateResponse(tc.op, tc.status, []byte(tc.body)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("%d %s:\n got  %q\n want %q", tc.status, tc.body, got, tc.want)
			}
		})
	}
}

func TestValidateResponseUndocumentedStatus(t *testing.T) {
	v := validator(t)
	for _, tc := range []struct {
		op     string
		status int
	}{
		{"organizerGetEvent", 201},
		{"organizerGetEvent", 418},
		{"organizerGetEvent", 400},
		{"organizerSearchEvents", 404},
		{"browserCheckoutSession", 204},
	} {
		err := v.ValidateResponse(tc.op, tc.status, []byte(`{}`))
		if !errors.Is(err, ErrUndocumentedStatus) {
			t.Errorf("%s %d: got %v, want ErrUndocumentedStatus", tc.op, tc.status, err)
		}
	}
}
