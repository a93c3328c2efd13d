package api

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

type pricingView struct {
	EventID  string     `json:"eventId"`
	Currency string     `json:"currency"`
	Cards    []cardView `json:"cards"`
}

type cardView struct {
	CategoryID      string     `json:"categoryId"`
	Name            string     `json:"name"`
	Quota           *int       `json:"quota"`
	RegisteredCount int        `json:"registeredCount"`
	HeldCount       int        `json:"heldCount"`
	AvailableCount  *int       `json:"availableCount"`
	BasePrice       int64      `json:"basePrice"`
	ActivePrice     int64      `json:"activePrice"`
	Tiers           []tierView `json:"tiers"`
	Private         *bool      `json:"private,omitempty"`
	Published       *bool      `json:"published,omitempty"`
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

func newPricing(p domain.Pricing, organizer bool) pricingView {
	v := pricingView{EventID: p.EventID, Currency: p.Currency, Cards: make([]cardView, len(p.Cards))}
	for i, card := range p.Cards {
		c := card.Category
		cv := cardView{
			CategoryID: c.ID, Name: c.Name, Quota: c.Quota, RegisteredCount: c.Places.Confirmed, HeldCount: c.Places.Held,
			AvailableCount: c.Places.Available(c.Quota), BasePrice: c.BasePrice, ActivePrice: card.ActivePrice,
			Tiers: make([]tierView, len(card.Tiers)),
		}
		if organizer {
			cv.Private, cv.Published = ptr(c.Private), ptr(c.Published)
		}
		for j, t := range card.Tiers {
			cv.Tiers[j] = tierView{
				ID: t.ID, Name: t.Name, Price: t.Price, StartsAt: t.StartsAt, EndsAt: t.EndsAt, UpToCount: t.UpToPlaces, Active: t.Active,
			}
		}
		v.Cards[i] = cv
	}
	return v
}
