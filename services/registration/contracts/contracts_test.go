package contracts_test

import (
	"slices"
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/services/registration/contracts"
)

// The contract loads (its schemas compile and its examples validate) and names the hold
// routes registration serves and the console's test-data routes; orders are confirmed by
// payment events, never over HTTP.
func TestInternalContractLoads(t *testing.T) {
	var ids []string
	for _, op := range contracttest.Load(t, contracts.Internal).Operations() {
		ids = append(ids, op.ID)
	}
	slices.Sort(ids)
	if want := []string{"createHold", "deleteTestData", "listTestMail", "releaseHold", "releaseHoldById"}; !slices.Equal(ids, want) {
		t.Fatalf("operations %v, want %v", ids, want)
	}
}
