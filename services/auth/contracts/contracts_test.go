package contracts_test

import (
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/services/auth/contracts"
)

func TestInternalContractLoads(t *testing.T) {
	if ops := contracttest.Load(t, contracts.Internal).Operations(); len(ops) != 3 {
		t.Fatalf("%d operations", len(ops))
	}
}
