package views

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// Pricing is the pricing cards of an event (both surfaces).
type Pricing struct {
	EventID  string `json:"eventId"`
	Currency string `json:"currency"`
	Cards    []Card `json:"cards"`
}

// Card is the pricing card of one category.
type Card struct {
	CategoryID      string     `json:"categoryId"`
	Name            string     `json:"name"`
	Quota           *int       `json:"quota"`
	RegisteredCount int        `json:"registeredCount"`
	HeldCount       int        `json:"heldCount"`
	AvailableCount  *int       `json:"availableCount"`
	BasePrice       int64      `json:"basePrice"`
	ActivePrice     int64      `json:"activePrice"`
	Tiers           []tierView `json:"tiers"`
	Private         *bool      `json:"private,omitempty"` // organizer only
	Published       *bool      `json:"published,omitempty"`
}

// EventCard is an organizer pricing card with the id of its event: the object of a
// podium.catalog.pricing.changed.v1 message.
type EventCard struct {
	EventID string `json:"eventId"`
	Card
}

type tierView struct {
	ID        string     `json:"id"`
	Name      string     `json:"name,omitempty"`
	Price     int64      `json:"price"`
	StartsAt  *time.Time `json:"startsAt"`
	EndsAt    *time.Time `json:"endsAt"`
	UpToCount *int       `json:"upToCount"`
	Active    bool       `json:"active"`
}

// NewPricing renders the cards of p, with the organizer-only fields when organizer is set.
func NewPricing(p domain.Pricing, organizer bool) Pricing {
	v := Pricing{EventID: p.EventID, Currency: p.Currency, Cards: make([]Card, len(p.Cards))}
	for i, card := range p.Cards {
		v.Cards[i] = NewCard(card, organizer)
	}
	return v
}

// NewCard renders one card, with the organizer-only fields when organizer is set.
func NewCard(card domain.Card, organizer bool) Card {
	c := card.Category
	v := Card{
		CategoryID: c.ID, Name: c.Name, Quota: c.Quota, RegisteredCount: c.Places.Confirmed, HeldCount: c.Places.Held,
		AvailableCount: c.Places.Available(c.Quota), BasePrice: c.BasePrice, ActivePrice: card.ActivePrice,
		Tiers: make([]tierView, len(card.Tiers)),
	}
	if organizer {
		v.Private, v.Published = ptr(c.Private), ptr(c.Published)
	}
	for j, t := range card.Tiers {
		v.Tiers[j] = tierView{
			ID: t.ID, Name: t.Name, Price: t.Price, StartsAt: t.StartsAt, EndsAt: t.EndsAt, UpToCount: t.UpToPlaces, Active: t.Active,
		}
	}
	return v
}

// NewEventCard renders the organizer card of a category of event eventID.
func NewEventCard(eventID string, card domain.Card) EventCard {
	return EventCard{EventID: eventID, Card: NewCard(card, true)}
}
