package domain

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// CheckPromocode returns the event's promocode for code if it may be used at now, given how
// many redemptions it has (checkouts with the code still pending payment or completed). The
// categories it allows are checked when pricing. Every refusal is a 422 naming the code.
func CheckPromocode(ev *Event, code string, now time.Time, used int64) (*Promocode, error) {
	if strings.IndexFunc(code, unicode.IsLower) >= 0 {
		return nil, Rule("promocode must be upper case: it has lower-case letters")
	}
	p, ok := ev.Promocode(code)
	if !ok {
		return nil, Rule("promocode %q is not valid for this event", code)
	}
	if p.ValidFrom != nil && now.Before(*p.ValidFrom) {
		return nil, Rule("promocode %q is not valid before %s", code, p.ValidFrom.UTC().Format(time.RFC3339))
	}
	if p.ValidUntil != nil && !now.Before(*p.ValidUntil) {
		return nil, Rule("promocode %q expired at %s", code, p.ValidUntil.UTC().Format(time.RFC3339))
	}
	if p.MaxUses != nil && used >= *p.MaxUses {
		return nil, Rule("promocode %q has reached its maximum number of uses", code)
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
