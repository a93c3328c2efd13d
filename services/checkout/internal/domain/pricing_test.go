package domain_test

import (
	"testing"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestApplyBasisPointsRoundsHalfUp(t *testing.T) {
	for _, c := range []struct{ amount, bp, want int64 }{
		{5500, 1000, 550},
		{1, 5000, 1},   // 0.5 rounds up
		{1, 4999, 0},   // 0.4999 rounds down
		{3, 5000, 2},   // 1.5 rounds up
		{5, 500, 0},    // 0.25
		{10, 500, 1},   // 0.5
		{999, 333, 33}, // 33.2667
		{1234, 10000, 1234},
		{0, 2500, 0},
	} {
		if got := domain.ApplyBasisPoints(c.amount, c.bp); got != c.want {
			t.Errorf("ApplyBasisPoints(%d, %d) = %d, want %d", c.amount, c.bp, got, c.want)
		}
	}
}

func TestPriceLinesAndTotals(t *testing.T) {
	ev := event()
	ev.Fees = []domain.Fee{
		{ID: "fee_pct", Name: "Service", Type: domain.AmountPercent, BasisPoints: 500},
		{ID: "fee_fix", Name: "Booking", Type: domain.AmountFixed, Amount: 100, PerOrder: true},
		{ID: "fee_reg", Name: "Insurance", Type: domain.AmountFixed, Amount: 50},
	}
	guest := 0
	q, err := domain.Price(&ev, []domain.Selection{
		{CategoryID: "cat_rx", SupplementIDs: []string{"sup_shirt", "sup_meal"}, SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_hoodie", OptionID: "opt_m"}}, Athletes: 1},
		{GuestIndex: &guest, Path: "guestRegistrations[0].", CategoryID: "cat_team", SupplementIDs: []string{"sup_meal"}, Athletes: 3},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	main, g := q.Registrations[0], q.Registrations[1]
	// main: 5500 + 1500 + 800 + 3000 = 10800; guest: 10000 + 3×800 = 12400
	if main.Subtotal != 10800 || g.Subtotal != 12400 || len(main.Lines) != 4 || g.Lines[1].Quantity != 3 || g.Lines[1].Amount != 2400 {
		t.Fatalf("registrations %+v", q.Registrations)
	}
	if g.GuestIndex == nil || *g.GuestIndex != 0 || main.GuestIndex != nil {
		t.Fatalf("guest index %v %v", main.GuestIndex, g.GuestIndex)
	}
	// fees: 5 % of 10800 = 540 and of 12400 = 620; 50 per registration; 100 per order
	if q.Fees[0].Amount != 1160 || q.Fees[1].Amount != 100 || q.Fees[2].Amount != 100 || q.FeesTotal != 1360 {
		t.Fatalf("fees %+v total %d", q.Fees, q.FeesTotal)
	}
	if main.Fees != 590 || main.Total != 11390 || q.Subtotal != 23200 || q.Discount != 0 || q.Total != 24560 {
		t.Fatalf("totals %+v", q)
	}
	assertPaymentLinesSum(t, q)
}

func TestPricePerAthleteSupplementsWithoutAthletesUseTheMinimumTeamSize(t *testing.T) {
	ev := event()
	q, err := domain.Price(&ev, []domain.Selection{{CategoryID: "cat_team", SupplementIDs: []string{"sup_meal"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l := q.Registrations[0].Lines[1]; l.Quantity != 2 || l.Amount != 1600 {
		t.Fatalf("per-athlete line %+v, want 2 × 800", l)
	}
}

func TestPriceRefusals(t *testing.T) {
	ev := event()
	for name, c := range map[string]struct {
		sel  domain.Selection
		want []string
	}{
		"unknown supplement": {domain.Selection{CategoryID: "cat_rx", SupplementIDs: []string{"sup_x"}},
			[]string{`selectedSupplementIds[0] "sup_x" is not a supplement of this event`}},
		"inactive supplement": {domain.Selection{CategoryID: "cat_rx", SupplementIDs: []string{"sup_shirt", "sup_old"}},
			[]string{`selectedSupplementIds[1] "sup_old" (Old) is no longer available`}},
		"options as single": {domain.Selection{CategoryID: "cat_rx", SupplementIDs: []string{"sup_hoodie"}},
			[]string{`selectedSupplementIds[0] "sup_hoodie" (Hoodie) has options: choose one in supplementSelections`}},
		"twice": {domain.Selection{CategoryID: "cat_rx", SupplementIDs: []string{"sup_shirt", "sup_shirt"}},
			[]string{`selectedSupplementIds[1] "sup_shirt" is chosen more than once`}},
		"single as options": {domain.Selection{CategoryID: "cat_rx", SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_shirt", OptionID: "x"}}},
			[]string{`supplementSelections[0].supplementId "sup_shirt" (Shirt) has a single price: list it in selectedSupplementIds`}},
		"unknown option": {domain.Selection{Path: "guestRegistrations[3].", CategoryID: "cat_rx", SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_hoodie", OptionID: "opt_s"}}},
			[]string{`guestRegistrations[3].supplementSelections[0].optionId "opt_s" is not an option of "Hoodie"`}},
		"inactive option": {domain.Selection{CategoryID: "cat_rx", SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_hoodie", OptionID: "opt_xl"}}},
			[]string{`supplementSelections[0].optionId "opt_xl" (XL) is no longer available`}},
		"unknown options supplement": {domain.Selection{CategoryID: "cat_rx", SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_y", OptionID: "o"}}},
			[]string{`supplementSelections[0].supplementId "sup_y" is not a supplement of this event`}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := domain.Price(&ev, []domain.Selection{c.sel}, nil)
			wantProblems(t, err, c.want...)
		})
	}
	for _, cat := range []string{"cat_private", "cat_draft", "cat_missing"} {
		_, err := domain.Price(&ev, []domain.Selection{{CategoryID: cat}}, nil)
		wantNotFound(t, err, "category "+cat+" not found")
	}
}

func TestPromocodeDiscounts(t *testing.T) {
	ev := event()
	ev.Fees = []domain.Fee{
		{ID: "fee_pct", Name: "Service", Type: domain.AmountPercent, BasisPoints: 500},
		{ID: "fee_fix", Name: "Booking", Type: domain.AmountFixed, Amount: 100, PerOrder: true},
	}
	sels := []domain.Selection{{CategoryID: "cat_rx"}, {Path: "guestRegistrations[0].", CategoryID: "cat_team", GuestIndex: ptr(0)}}
	for name, c := range map[string]struct {
		promo                     domain.Promocode
		discount, fees, total     int64
		mainDiscount, guestDiscnt int64
	}{
		"percent on each":         {domain.Promocode{Code: "P", Type: domain.AmountPercent, BasisPoints: 1000}, 1550, 248 + 450 + 100, 15500 - 1550 + 798, 550, 1000},
		"percent rounds half up":  {domain.Promocode{Code: "P", Type: domain.AmountPercent, BasisPoints: 1}, 2, 100 + 775, 15500 - 2 + 875, 1, 1},
		"fixed per registration":  {domain.Promocode{Code: "F", Type: domain.AmountFixed, Amount: 500}, 1000, 725 + 100, 15500 - 1000 + 825, 500, 500},
		"fixed never below zero":  {domain.Promocode{Code: "F", Type: domain.AmountFixed, Amount: 7000}, 5500 + 7000, 150 + 100, 3000 + 250, 5500, 7000},
		"only allowed category":   {domain.Promocode{Code: "T", Type: domain.AmountPercent, BasisPoints: 2000, CategoryIDs: []string{"cat_team"}}, 2000, 275 + 400 + 100, 15500 - 2000 + 775, 0, 2000},
		"hundred percent is free": {domain.Promocode{Code: "FREE", Type: domain.AmountPercent, BasisPoints: 10000}, 15500, 0, 0, 5500, 10000},
	} {
		t.Run(name, func(t *testing.T) {
			q, err := domain.Price(&ev, sels, &c.promo)
			if err != nil {
				t.Fatal(err)
			}
			if q.Discount != c.discount || q.FeesTotal != c.fees || q.Total != c.total ||
				q.Registrations[0].Discount != c.mainDiscount || q.Registrations[1].Discount != c.guestDiscnt || q.Promocode != c.promo.Code {
				t.Fatalf("discount %d fees %d total %d (main %d guest %d), want %d %d %d (%d %d)",
					q.Discount, q.FeesTotal, q.Total, q.Registrations[0].Discount, q.Registrations[1].Discount,
					c.discount, c.fees, c.total, c.mainDiscount, c.guestDiscnt)
			}
			assertPaymentLinesSum(t, q)
		})
	}
	_, err := domain.Price(&ev, sels[:1], &domain.Promocode{Code: "T", Type: domain.AmountPercent, BasisPoints: 1, CategoryIDs: []string{"cat_team"}})
	wantProblems(t, err, `promocode "T" is not valid for this purchase`)
}

func assertPaymentLinesSum(t *testing.T, q domain.Quote) {
	t.Helper()
	var sum int64
	for _, l := range q.PaymentLines("Summer", []string{"A", "B"}) {
		if l.UnitAmount <= 0 || l.Quantity <= 0 || l.Name == "" {
			t.Fatalf("payment line %+v", l)
		}
		sum += l.Quantity * l.UnitAmount
	}
	if sum != q.Total {
		t.Fatalf("payment lines add up to %d, total is %d", sum, q.Total)
	}
}

func TestPaymentLinesNameTheRegistration(t *testing.T) {
	ev := event()
	q, _ := domain.Price(&ev, []domain.Selection{{CategoryID: "cat_rx", SupplementIDs: []string{"sup_shirt"}}}, nil)
	lines := q.PaymentLines("Summer", []string{"Team A"})
	if len(lines) != 2 || lines[0].Name != "Summer: RX (Team A)" || lines[1].Name != "Shirt (Team A)" {
		t.Fatalf("lines %+v", lines)
	}
	q, _ = domain.Price(&ev, []domain.Selection{{CategoryID: "cat_rx"}}, &domain.Promocode{Code: "P", Type: domain.AmountPercent, BasisPoints: 1000})
	if lines := q.PaymentLines("Summer", []string{"Team A"}); len(lines) != 1 || lines[0].Name != "Summer: RX (Team A), promocode P" || lines[0].UnitAmount != 4950 {
		t.Fatalf("discounted lines %+v", lines)
	}
}
