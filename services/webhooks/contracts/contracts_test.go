package contracts_test

import (
	"slices"
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/services/webhooks/contracts"
)

// The contract loads (its schemas compile and its examples validate) and names every route
// the console uses, and registration's wipe of test data.
func TestInternalContractLoads(t *testing.T) {
	var ids []string
	for _, op := range contracttest.Load(t, contracts.Internal).Operations() {
		ids = append(ids, op.ID)
	}
	slices.Sort(ids)
	want := []string{"createWebhookEndpoint", "deleteOrganizerTestData", "deleteWebhookEndpoint", "getWebhookDelivery", "getWebhookEndpoint", "listWebhookDeliveries",
		"listWebhookEndpoints", "recoverWebhookDeliveries", "retryWebhookDelivery", "rotateWebhookEndpointSecret", "testWebhookEndpoint",
		"updateWebhookEndpoint"}
	if !slices.Equal(ids, want) {
		t.Fatalf("operations %v, want %v", ids, want)
	}
}
