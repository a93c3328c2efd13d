package domain_test

import (
	"encoding/json"
	"testing"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// FuzzPurchase feeds arbitrary request bodies through everything the service does with a
// body before any side effect: the idempotency hash, decoding, pricing and the rules. None
// may panic, and a priced order never adds up to less than zero.
func FuzzPurchase(f *testing.F) {
	f.Add([]byte(`{"eventId":"evt_1","categoryId":"cat_rx","athletes":[{"birthDate":"2010-01-01"}],"termsAccepted":true}`))
	f.Add([]byte(`{"categoryId":"cat_team","selectedSupplementIds":["sup_meal","sup_meal"],"deferredTeamCompletion":{"pendingParticipantCount":9007199254740991,"participantWaivers":[]}}`))
	f.Add([]byte(`{"categoryId":"cat_rx","supplementSelections":[{"supplementId":"sup_hoodie","optionId":"opt_m"}],"guestRegistrations":[{"categoryId":"cat_rx"}],"legalSignature":{"strokes":[[]],"waiverVersions":[{"waiverId":"wvr_l","version":-1}]}}`))
	ev := event()
	ev.Fees = []domain.Fee{{ID: "f", Name: "F", Type: domain.AmountPercent, BasisPoints: 500}, {ID: "o", Name: "O", Type: domain.AmountFixed, Amount: 100, PerOrder: true}}
	promo := &domain.Promocode{Code: "P", Type: domain.AmountFixed, Amount: 700}
	f.Fuzz(func(t *testing.T, body []byte) {
		_, _ = domain.RequestHash(body)
		var p domain.Purchase
		if json.Unmarshal(body, &p) != nil {
			return
		}
		_ = p.Check(&ev)
		for _, pr := range []*domain.Promocode{nil, promo} {
			q, err := domain.Price(&ev, p.Selections(), pr)
			if err == nil && (q.Total < 0 || q.Discount > q.Subtotal) {
				t.Fatalf("quote %+v", q)
			}
		}
	})
}
