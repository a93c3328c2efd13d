package apispec

import (
	"cmp"
	"slices"
	"testing"
)

// specOperations is the endpoint table of the contract.
var specOperations = []Operation{
	{"organizerSearchEvents", "POST", "/organizer/events/search", Organizer, "events:read", 201, true, 2048, false},
	{"organizerGetEvent", "GET", "/organizer/events/{eventId}", Organizer, "events:read", 200, false, 0, false},
	{"organizerGetPricingCards", "GET", "/organizer/events/{eventId}/pricing-cards", Organizer, "pricing:read", 200, false, 0, false},
	{"organizerCreateRegistration", "POST", "/organizer/registrations", Organizer, "registrations:write", 201, true, 163840, false},
	{"organizerSearchRegistrations", "POST", "/organizer/registrations/search", Organizer, "registrations:read", 201, true, 81920, false},
	{"organizerUpdateRegistration", "PATCH", "/organizer/registrations/{ticketId}", Organizer, "registrations:write", 200, true, 163840, false},
	{"organizerDeleteRegistration", "DELETE", "/organizer/registrations/{ticketId}", Organizer, "registrations:write", 200, false, 0, false},
	{"organizerCreateWebhookEndpoint", "POST", "/organizer/webhook-endpoints", Organizer, "webhooks:write", 201, true, 3072, false},
	{"organizerListWebhookEndpoints", "GET", "/organizer/webhook-endpoints", Organizer, "webhooks:write", 200, false, 0, false},
	{"organizerGetWebhookEndpoint", "GET", "/organizer/webhook-endpoints/{endpointId}", Organizer, "webhooks:write", 200, false, 0, false},
	{"organizerUpdateWebhookEndpoint", "PATCH", "/organizer/webhook-endpoints/{endpointId}", Organizer, "webhooks:write", 200, true, 3072, false},
	{"organizerDeleteWebhookEndpoint", "DELETE", "/organizer/webhook-endpoints/{endpointId}", Organizer, "webhooks:write", 200, false, 0, false},
	{"organizerRotateWebhookEndpointSecret", "POST", "/organizer/webhook-endpoints/{endpointId}/rotate-secret", Organizer, "webhooks:write", 200, false, 0, false},
	{"organizerTestWebhookEndpoint", "POST", "/organizer/webhook-endpoints/{endpointId}/test", Organizer, "webhooks:write", 202, false, 0, false},
	{"organizerListWebhookDeliveries", "GET", "/organizer/webhook-endpoints/{endpointId}/deliveries", Organizer, "webhooks:write", 200, false, 0, false},
	{"organizerGetWebhookDelivery", "GET", "/organizer/webhook-endpoints/{endpointId}/deliveries/{deliveryId}", Organizer, "webhooks:write", 200, false, 0, false},
	{"organizerRetryWebhookDelivery", "POST", "/organizer/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry", Organizer, "webhooks:write", 202, false, 0, false},
	{"organizerRecoverWebhookDeliveries", "POST", "/organizer/webhook-endpoints/{endpointId}/recover", Organizer, "webhooks:write", 202, true, 1024, false},
	{"organizerDeleteTestData", "DELETE", "/organizer/test-data", Organizer, "registrations:write", 200, false, 0, true},
	{"organizerListTestMail", "GET", "/organizer/test/mail", Organizer, "registrations:read", 200, false, 0, true},
	{"organizerCompleteTestCheckoutSession", "POST", "/organizer/test/checkout-sessions/{sessionId}/complete", Organizer, "registrations:write", 202, false, 0, true},
	{"organizerFailTestCheckoutSession", "POST", "/organizer/test/checkout-sessions/{sessionId}/fail", Organizer, "registrations:write", 202, false, 0, true},
	{"organizerExpireTestCheckoutSession", "POST", "/organizer/test/checkout-sessions/{sessionId}/expire", Organizer, "registrations:write", 202, false, 0, true},
	{"organizerCheckIn", "POST", "/organizer/check-ins", Organizer, "checkins:write", 201, true, 1024, false},
	{"organizerCheckInBatch", "POST", "/organizer/check-ins/batch", Organizer, "checkins:write", 201, true, 262144, false},
	{"organizerUndoCheckIn", "DELETE", "/organizer/check-ins/{checkInId}", Organizer, "checkins:write", 200, false, 0, false},
	{"organizerTransferRegistration", "POST", "/organizer/registrations/{ticketId}/transfer", Organizer, "registrations:write", 200, true, 1024, false},
	{"organizerSignRegistrationWaivers", "POST", "/organizer/registrations/{ticketId}/waivers", Organizer, "registrations:write", 200, true, 1024, false},
	{"organizerCreateRefund", "POST", "/organizer/refunds", Organizer, "refunds:write", 202, true, 2560, false},
	{"organizerListRefunds", "GET", "/organizer/refunds", Organizer, "refunds:write", 200, false, 0, false},
	{"organizerGetRefund", "GET", "/organizer/refunds/{refundId}", Organizer, "refunds:write", 200, false, 0, false},
	{"browserSearchEvents", "POST", "/browser/events/search", Browser, "", 201, true, 2048, false},
	{"browserGetEvent", "GET", "/browser/events/{eventId}", Browser, "", 200, false, 0, false},
	{"browserGetPricingCards", "GET", "/browser/events/{eventId}/pricing-cards", Browser, "", 200, false, 0, false},
	{"browserCheckoutSummary", "POST", "/browser/checkout/registration/summary", Browser, "", 201, true, 73728, false},
	{"browserCheckoutSession", "POST", "/browser/checkout/registration/session", Browser, "", 201, true, 1441792, false},
	{"browserLookupReceipts", "POST", "/browser/events/{eventId}/registration-receipts/lookup", Browser, "", 201, true, 1024, false},
	{"browserSendReceipts", "POST", "/browser/events/{eventId}/registration-receipts/send", Browser, "", 201, true, 1024, false},
	{"browserJoinWaitlist", "POST", "/browser/events/{eventId}/waitlist", Browser, "", 201, true, 3072, false},
	{"organizerListWaitlist", "GET", "/organizer/categories/{categoryId}/waitlist", Organizer, "registrations:read", 200, false, 0, false},
	{"organizerCloseWaitlist", "POST", "/organizer/categories/{categoryId}/waitlist/close", Organizer, "registrations:write", 200, false, 0, false},
	{"organizerOfferWaitlistEntry", "POST", "/organizer/waitlist/{entryId}/offer", Organizer, "registrations:write", 200, false, 0, false},
}

func TestOperationsMatchTheContract(t *testing.T) {
	got := Operations()
	if len(got) != len(specOperations) {
		t.Fatalf("got %d operations, want %d", len(got), len(specOperations))
	}
	byID := map[string]Operation{}
	for _, op := range got {
		byID[op.ID] = op
	}
	for _, want := range specOperations {
		if op, ok := byID[want.ID]; !ok {
			t.Errorf("missing %s", want.ID)
		} else if op != want {
			t.Errorf("%s:\n got  %+v\n want %+v", want.ID, op, want)
		}
	}
}

func TestOperationsAreSortedAndCopied(t *testing.T) {
	got := Operations()
	if !slices.IsSortedFunc(got, func(a, b Operation) int { return cmp.Compare(a.Path, b.Path) }) {
		t.Error("operations are not sorted by path")
	}
	got[0].ID = "changed"
	if Operations()[0].ID == "changed" {
		t.Error("Operations() shares its slice with the caller")
	}
}

func TestOptionalBodiesAreExactlyThoseWithoutRequiredFields(t *testing.T) {
	v := validator(t)
	for _, op := range Operations() {
		rs := v.requests[op.ID]
		if !op.HasBody {
			if rs.schema != nil {
				t.Errorf("%s: body-less operation has a body schema", op.ID)
			}
			continue
		}
		acceptsEmptyObject := rs.schema.Validate(map[string]any{}) == nil
		if rs.required == acceptsEmptyObject {
			t.Errorf("%s: requestBody.required is %v but {} is accepted: %v", op.ID, rs.required, acceptsEmptyObject)
		}
	}
}

func TestEveryOperationDocumentsItsErrors(t *testing.T) {
	v := validator(t)
	// Operations that name no resource: searches, lists and creates of what nothing else holds.
	unnamed := map[string]bool{"organizerSearchEvents": true, "browserSearchEvents": true,
		"organizerSearchRegistrations": true, "organizerListWebhookEndpoints": true, "organizerCreateWebhookEndpoint": true,
		"organizerCheckInBatch": true,
		"organizerListRefunds":  true}
	for _, op := range Operations() {
		statuses := []int{401, 403, 429, 500, 503}
		if op.HasBody {
			statuses = append(statuses, 400, 413, 415)
		}
		if !unnamed[op.ID] {
			statuses = append(statuses, 404)
		}
		set := v.responses[op.ID]
		for _, status := range statuses {
			if set.lookup(status) == nil {
				t.Errorf("%s does not document %d", op.ID, status)
			}
		}
		if set.lookup(op.SuccessStatus) == nil {
			t.Errorf("%s does not document its success status %d", op.ID, op.SuccessStatus)
		}
		for _, status := range []int{200, 201, 204} {
			if status != op.SuccessStatus && set.lookup(status) != nil {
				t.Errorf("%s documents a second success status %d", op.ID, status)
			}
		}
	}
}

func TestRateLimitedResponsesCarryTheirHeaders(t *testing.T) {
	resp, err := lookupPointer(spec.tree, "/components/responses/TooManyRequests/headers")
	if err != nil {
		t.Fatal(err)
	}
	headers := resp.(map[string]any)
	for _, h := range []string{"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "x-request-id"} {
		if _, ok := headers[h]; !ok {
			t.Errorf("429 response lacks header %s", h)
		}
	}
	for _, id := range []string{"browserCheckoutSession", "browserLookupReceipts", "browserSendReceipts"} {
		if validator(t).responses[id].lookup(429) == nil {
			t.Errorf("%s does not document 429", id)
		}
	}
}
