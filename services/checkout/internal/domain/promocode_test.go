package domain_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestCheckPromocode(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ev := event()
	ev.Promocodes = []domain.Promocode{
		{Code: "OPEN", Type: domain.AmountPercent, BasisPoints: 1000},
		{Code: "WINDOW", Type: domain.AmountPercent, BasisPoints: 1000, ValidFrom: ptr(now.Add(-time.Hour)), ValidUntil: ptr(now.Add(time.Hour))},
		{Code: "SOON", Type: domain.AmountPercent, BasisPoints: 1000, ValidFrom: ptr(now.Add(time.Second))},
		{Code: "GONE", Type: domain.AmountPercent, BasisPoints: 1000, ValidUntil: ptr(now)},
		{Code: "TWICE", Type: domain.AmountFixed, Amount: 100, MaxUses: ptr(int64(2))},
		{Code: "NEVER", Type: domain.AmountFixed, Amount: 100, MaxUses: ptr(int64(0))},
	}
	for _, c := range []struct {
		code string
		used int64
		want string
	}{
		{"OPEN", 1000, ""},
		{"WINDOW", 0, ""},
		{"TWICE", 1, ""},
		// Unknown and unusable codes get one answer, whatever the reason.
		{"TWICE", 2, `promocode "TWICE" is not valid for this purchase`},
		{"NEVER", 0, `promocode "NEVER" is not valid for this purchase`},
		{"SOON", 0, `promocode "SOON" is not valid for this purchase`},
		{"GONE", 0, `promocode "GONE" is not valid for this purchase`},
		{"open", 0, "promocode must be upper case: it has lower-case letters"},
		{"OPEn", 0, "promocode must be upper case: it has lower-case letters"},
		{"MISSING", 0, `promocode "MISSING" is not valid for this purchase`},
	} {
		p, err := domain.CheckPromocode(&ev, c.code, now, c.used)
		if c.want == "" {
			if err != nil || p == nil || p.Code != c.code {
				t.Errorf("%s used %d: %v %v", c.code, c.used, p, err)
			}
			continue
		}
		wantProblems(t, err, c.want)
	}
}
