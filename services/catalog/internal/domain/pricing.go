package domain

import "time"

// The active price rule, used by pricing cards here and by checkout through the internal API:
//
// A category's tiers are considered in their authored order. A tier applies when every
// condition it has holds:
//   - its date window [From, Until): from 00:00 in the event's time zone on From (inclusive)
//     to 00:00 in that zone on Until (exclusive), either side optional;
//   - its count bound: places taken (confirmed + held) < UpToPlaces.
//
// The active price is the price of the first tier that applies, else the base price.

// Window returns the tier's date window as instants, nil for an open side.
func (t Tier) Window(loc *time.Location) (startsAt, endsAt *time.Time) {
	if t.From != nil {
		s := t.From.StartIn(loc).UTC()
		startsAt = &s
	}
	if t.Until != nil {
		e := t.Until.StartIn(loc).UTC()
		endsAt = &e
	}
	return startsAt, endsAt
}

// Applies reports whether the tier applies at now with taken places taken.
func (t Tier) Applies(loc *time.Location, taken int, now time.Time) bool {
	startsAt, endsAt := t.Window(loc)
	if startsAt != nil && now.Before(*startsAt) {
		return false
	}
	if endsAt != nil && !now.Before(*endsAt) {
		return false
	}
	return t.UpToPlaces == nil || taken < *t.UpToPlaces
}

// ActivePrice returns the price of c at now and the index of the tier that sets it, or -1
// when no tier applies and the base price does.
func ActivePrice(c Category, loc *time.Location, now time.Time) (price int64, tier int) {
	taken := c.Places.Taken()
	for i, t := range c.Tiers {
		if t.Applies(loc, taken, now) {
			return t.Price, i
		}
	}
	return c.BasePrice, -1
}

// TierState is a tier with its window as instants and whether it sets the active price.
type TierState struct {
	Tier
	StartsAt *time.Time
	EndsAt   *time.Time
	Active   bool
}

// Card is the pricing of one category.
type Card struct {
	Category    Category
	ActivePrice int64
	Tiers       []TierState
}

// Pricing is the pricing of an event's categories at one instant.
type Pricing struct {
	EventID  string
	Currency string
	Cards    []Card
	// NextChange is the next instant after the pricing instant at which a date window of one of
	// the cards opens or closes (nil when none will): until then, only places change prices.
	NextChange *time.Time
}

// PricingAt returns the cards of the event's categories that include accepts, at now.
func (e Event) PricingAt(now time.Time, include func(Category) bool) (Pricing, error) {
	loc, err := e.Location()
	if err != nil {
		return Pricing{}, err
	}
	p := Pricing{EventID: e.ID, Currency: e.Currency, Cards: []Card{}}
	for _, c := range e.Categories {
		if !include(c) {
			continue
		}
		price, active := ActivePrice(c, loc, now)
		card := Card{Category: c, ActivePrice: price, Tiers: make([]TierState, len(c.Tiers))}
		for i, t := range c.Tiers {
			startsAt, endsAt := t.Window(loc)
			card.Tiers[i] = TierState{Tier: t, StartsAt: startsAt, EndsAt: endsAt, Active: i == active}
			p.NextChange = earliestAfter(now, p.NextChange, startsAt, endsAt)
		}
		p.Cards = append(p.Cards, card)
	}
	return p, nil
}

// earliestAfter returns the earliest of cur and the candidates that is after now.
func earliestAfter(now time.Time, cur *time.Time, candidates ...*time.Time) *time.Time {
	for _, c := range candidates {
		if c != nil && c.After(now) && (cur == nil || c.Before(*cur)) {
			cur = c
		}
	}
	return cur
}

// AllCategories includes every category (organizer surface, internal API).
func AllCategories(Category) bool { return true }

// PublicCategories includes the published, non-private categories (browser surface).
func PublicCategories(c Category) bool { return c.Public() }

// ActiveTierID is the id of the tier that sets the card's active price, or "" when the base
// price does.
func (c Card) ActiveTierID() string {
	for _, t := range c.Tiers {
		if t.Active {
			return t.ID
		}
	}
	return ""
}

// SoldOut reports whether the category has a quota and every place under it is taken.
func (c Card) SoldOut() bool {
	available := c.Category.Places.Available(c.Category.Quota)
	return available != nil && *available == 0
}

// PricingChanges returns the cards of after whose category is in before with another active
// tier, or sold out where it was not or the other way round: what buyers see switch. A
// category only in after (new) is no switch.
func PricingChanges(before, after Pricing) []Card {
	was := make(map[string]Card, len(before.Cards))
	for _, c := range before.Cards {
		was[c.Category.ID] = c
	}
	var out []Card
	for _, c := range after.Cards {
		b, ok := was[c.Category.ID]
		if ok && (b.ActiveTierID() != c.ActiveTierID() || b.SoldOut() != c.SoldOut()) {
			out = append(out, c)
		}
	}
	return out
}
