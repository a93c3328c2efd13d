package domain

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/podiumhq/podium/libs/fault"
)

// CheckPromocodeFormat refuses a promocode with lower-case letters (codes are upper case).
func CheckPromocodeFormat(code string) error {
	if strings.IndexFunc(code, unicode.IsLower) >= 0 {
		return fault.NewUnprocessable("promocode must be upper case: it has lower-case letters")
	}
	return nil
}

// CheckPromocode returns the event's promocode for code if it may be used at now, given how
// many uses it has (checkouts with the code awaiting payment with their hold alive, or paid).
// The categories it allows are checked when pricing. A code in lower case is refused as such;
// any other refusal is InvalidPromocode's, whatever the reason.
func CheckPromocode(ev *Event, code string, now time.Time, used int64) (*Promocode, error) {
	if err := CheckPromocodeFormat(code); err != nil {
		return nil, err
	}
	p, ok := ev.Promocode(code)
	if !ok || p.ValidFrom != nil && now.Before(*p.ValidFrom) || p.ValidUntil != nil && !now.Before(*p.ValidUntil) ||
		p.MaxUses != nil && used >= *p.MaxUses {
		return nil, InvalidPromocode(code)
	}
	return &p, nil
}

// allows reports whether the promocode applies to the category.
func (p *Promocode) allows(categoryID string) bool {
	return len(p.CategoryIDs) == 0 || slices.Contains(p.CategoryIDs, categoryID)
}

// discount is the promocode's reduction of amount, never more than amount.
func (p *Promocode) discount(amount int64) int64 {
	d := p.Amount
	if p.Type == AmountPercent {
		d = ApplyBasisPoints(amount, p.BasisPoints)
	}
	return min(max(d, 0), amount)
}
