package api

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// internalEventView is GET /internal/events/{eventId}, exactly as
// docs/contracts/catalog-internal.md defines it.
type internalEventView struct {
	ID           string                   `json:"id"`
	OrganizerID  string                   `json:"organizerId"`
	Name         string                   `json:"name"`
	Status       string                   `json:"status"`
	Private      bool                     `json:"private"`
	StartDate    string                   `json:"startDate"`
	EndDate      string                   `json:"endDate"`
	Timezone     string                   `json:"timezone"`
	Currency     string                   `json:"currency"`
	PreviewToken string                   `json:"previewToken"`
	Version      int64                    `json:"version"`
	UpdatedAt    time.Time                `json:"updatedAt"`
	Categories   []internalCategoryView   `json:"categories"`
	FormFields   []internalFormFieldView  `json:"formFields"`
	Waivers      []internalWaiverView     `json:"waivers"`
	Supplements  []internalSupplementView `json:"supplements"`
	Promocodes   []internalPromocodeView  `json:"promocodes"`
	Fees         []feeView                `json:"fees"`
}

type internalCategoryView struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	TeamSize    teamSizeView `json:"teamSize"`
	Gender      string       `json:"gender"`
	AgeMin      *int         `json:"ageMin"`
	AgeMax      *int         `json:"ageMax"`
	Quota       *int         `json:"quota"`
	BasePrice   int64        `json:"basePrice"`
	ActivePrice int64        `json:"activePrice"`
	Confirmed   int          `json:"confirmed"`
	Held        int          `json:"held"`
	Private     bool         `json:"private"`
	Published   bool         `json:"published"`
}

type internalFormFieldView struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Options     []string `json:"options,omitempty"`
	AppliesTo   string   `json:"appliesTo"`
	CategoryIDs []string `json:"categoryIds"`
}

type internalWaiverView struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Version   int    `json:"version"`
	Required  bool   `json:"required"`
	ForMinors bool   `json:"forMinors"`
}

type internalSupplementView struct {
	ID      string               `json:"id"`
	Name    string               `json:"name"`
	Kind    string               `json:"kind"`
	Price   *int64               `json:"price"`
	Active  bool                 `json:"active"`
	Per     string               `json:"per"`
	Options []internalOptionView `json:"options"`
}

type internalOptionView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Price  int64  `json:"price"`
	Active bool   `json:"active"`
}

type internalPromocodeView struct {
	Code        string     `json:"code"`
	Type        string     `json:"type"`
	BasisPoints *int       `json:"basisPoints"`
	Amount      *int64     `json:"amount"`
	ValidFrom   *time.Time `json:"validFrom"`
	ValidUntil  *time.Time `json:"validUntil"`
	MaxUses     *int       `json:"maxUses"`
	CategoryIDs []string   `json:"categoryIds"`
}

func newInternalEvent(e domain.Event, p domain.Pricing) internalEventView {
	v := internalEventView{
		ID: e.ID, OrganizerID: e.OrganizerID, Name: e.Name, Status: string(e.Status), Private: e.Private,
		StartDate: e.StartDate.String(), EndDate: e.EndDate.String(), Timezone: e.Timezone, Currency: e.Currency,
		PreviewToken: e.PreviewToken, Version: e.Version, UpdatedAt: e.UpdatedAt.UTC(),
		Categories: make([]internalCategoryView, len(p.Cards)), FormFields: make([]internalFormFieldView, len(e.FormFields)),
		Waivers: make([]internalWaiverView, len(e.Waivers)), Supplements: make([]internalSupplementView, len(e.Supplements)),
		Promocodes: make([]internalPromocodeView, len(e.Promocodes)), Fees: make([]feeView, len(e.Fees)),
	}
	for i, card := range p.Cards {
		c := card.Category
		v.Categories[i] = internalCategoryView{
			ID: c.ID, Name: c.Name, TeamSize: teamSizeView(c.TeamSize), Gender: string(c.Gender), AgeMin: c.AgeMin, AgeMax: c.AgeMax,
			Quota: c.Quota, BasePrice: c.BasePrice, ActivePrice: card.ActivePrice, Confirmed: c.Places.Confirmed, Held: c.Places.Held,
			Private: c.Private, Published: c.Published,
		}
	}
	for i, f := range e.FormFields {
		v.FormFields[i] = internalFormFieldView(newDetailField(e, f))
	}
	for i, w := range e.Waivers {
		v.Waivers[i] = internalWaiverView{ID: w.ID, Title: w.Title, Version: w.Version, Required: w.Required, ForMinors: w.ForMinors}
	}
	for i, s := range e.Supplements {
		sv := internalSupplementView{
			ID: s.ID, Name: s.Name, Kind: supplementKind(s), Price: s.Price, Active: s.Active, Per: string(s.Per),
			Options: make([]internalOptionView, len(s.Options)),
		}
		for j, o := range s.Options {
			sv.Options[j] = internalOptionView{ID: o.ID, Name: o.Name, Price: o.Price, Active: o.Active}
		}
		v.Supplements[i] = sv
	}
	for i, c := range e.Promocodes {
		bp, amount := adjustmentFields(c.Discount)
		v.Promocodes[i] = internalPromocodeView{
			Code: c.Code, Type: string(c.Discount.Type), BasisPoints: bp, Amount: amount, ValidFrom: c.ValidFrom,
			ValidUntil: c.ValidUntil, MaxUses: c.MaxUses, CategoryIDs: e.CategoryIDs(c.CategoryKeys),
		}
	}
	for i, f := range e.Fees {
		bp, amount := adjustmentFields(f.Charge)
		v.Fees[i] = feeView{ID: f.ID, Name: f.Name, Type: string(f.Charge.Type), BasisPoints: bp, Amount: amount, Per: string(f.Per)}
	}
	return v
}
