// Package views renders events as the catalog's APIs show them: the external API's organizer
// and browser views (libs/apispec/openapi.yaml), the internal API's
// (GET /internal/events/{eventId}), and the objects the catalog's messages carry, which are the
// organizer views. The admin API serves the import file's shape instead (importfile.FileOf): it
// names items by key, these views by id.
package views

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// The event views are built from the parts below. Each part shows what its audience sees; a
// field only some audiences see is a pointer left nil, or a string left empty, for the others.

// Audience is who an event view is for.
type Audience int

const (
	// Browser is the public browser surface.
	Browser Audience = iota
	// Organizer is the organizer surface: the browser's fields and the organizer-only ones.
	Organizer
	// Service is the internal API: what registration and checkout need, with places and
	// active prices, without descriptions.
	Service
)

type teamSizeView struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type categoryView struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Description *string      `json:"description,omitempty"` // not service
	TeamSize    teamSizeView `json:"teamSize"`
	Gender      string       `json:"gender"`
	AgeMin      *int         `json:"ageMin"`
	AgeMax      *int         `json:"ageMax"`
	Quota       *int         `json:"quota"`
	BasePrice   int64        `json:"basePrice"`
	*salesView
	Private   *bool `json:"private,omitempty"` // not browser
	Published *bool `json:"published,omitempty"`
}

// salesView is the state of a category's sales, shown to service only.
type salesView struct {
	ActivePrice int64 `json:"activePrice"`
	Confirmed   int   `json:"confirmed"`
	Held        int   `json:"held"`
}

type formFieldView struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Options     []string `json:"options,omitempty"`
	AppliesTo   string   `json:"appliesTo"`
	CategoryIDs []string `json:"categoryIds"`
}

type waiverView struct {
	ID        string  `json:"id"`
	Title     string  `json:"title"`
	Version   int     `json:"version"`
	Text      *string `json:"text,omitempty"` // not service
	Required  bool    `json:"required"`
	ForMinors bool    `json:"forMinors"`
}

type optionView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Price  int64  `json:"price"`
	Active *bool  `json:"active,omitempty"` // service only
}

type promocodeView struct {
	ID   string `json:"id,omitempty"` // not service
	Code string `json:"code"`
	adjustmentView
	ValidFrom   *time.Time `json:"validFrom"`
	ValidUntil  *time.Time `json:"validUntil"`
	MaxUses     *int       `json:"maxUses"`
	CategoryIDs []string   `json:"categoryIds"`
}

type feeView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	adjustmentView
	Per string `json:"per"`
}

// adjustmentView is a promocode's discount or a fee: basis points for PERCENT, an amount for
// FIXED, the other null.
type adjustmentView struct {
	Type        string `json:"type"`
	BasisPoints *int   `json:"basisPoints"`
	Amount      *int64 `json:"amount"`
}

// eventParts builds the parts of one event's view for one Audience.
type eventParts struct {
	e domain.Event
	a Audience
}

func (p eventParts) category(c domain.Category) categoryView {
	v := categoryView{
		ID: c.ID, Name: c.Name, TeamSize: teamSizeView(c.TeamSize), Gender: string(c.Gender),
		AgeMin: c.AgeMin, AgeMax: c.AgeMax, Quota: c.Quota, BasePrice: c.BasePrice,
	}
	if p.a != Service {
		v.Description = &c.Description
	}
	if p.a != Browser {
		v.Private, v.Published = &c.Private, &c.Published
	}
	return v
}

// card is the category of a pricing card with the state of its sales.
func (p eventParts) card(card domain.Card) categoryView {
	v := p.category(card.Category)
	v.salesView = &salesView{ActivePrice: card.ActivePrice, Confirmed: card.Category.Places.Confirmed, Held: card.Category.Places.Held}
	return v
}

func (p eventParts) formField(f domain.FormField) formFieldView {
	v := formFieldView{
		ID: f.ID, Label: f.Label, Type: string(f.Type), Required: f.Required,
		AppliesTo: string(f.AppliesTo), CategoryIDs: p.e.CategoryIDs(f.CategoryKeys),
	}
	if f.Type.HasOptions() {
		v.Options = f.Options
	}
	return v
}

func (p eventParts) waiver(w domain.Waiver) waiverView {
	v := waiverView{ID: w.ID, Title: w.Title, Version: w.Version, Required: w.Required, ForMinors: w.ForMinors}
	if p.a != Service {
		v.Text = &w.Text
	}
	return v
}

func (p eventParts) option(o domain.SupplementOption) optionView {
	v := optionView{ID: o.ID, Name: o.Name, Price: o.Price}
	if p.a == Service {
		v.Active = &o.Active
	}
	return v
}

func (p eventParts) promocode(c domain.Promocode) promocodeView {
	v := promocodeView{
		Code: c.Code, adjustmentView: newAdjustment(c.Discount),
		ValidFrom: c.ValidFrom, ValidUntil: c.ValidUntil, MaxUses: c.MaxUses, CategoryIDs: p.e.CategoryIDs(c.CategoryKeys),
	}
	if p.a != Service {
		v.ID = c.ID
	}
	return v
}

func (eventParts) fee(f domain.Fee) feeView {
	return feeView{ID: f.ID, Name: f.Name, adjustmentView: newAdjustment(f.Charge), Per: string(f.Per)}
}

func supplementKind(s domain.Supplement) string {
	if s.HasOptions() {
		return "OPTIONS"
	}
	return "SINGLE_PRICE"
}

func newAdjustment(a domain.Adjustment) adjustmentView {
	v := adjustmentView{Type: string(a.Type)}
	if a.Type == domain.Percent {
		v.BasisPoints = &a.BasisPoints
	} else {
		v.Amount = &a.Amount
	}
	return v
}

// each returns the views of xs, never nil.
func each[T, V any](xs []T, view func(T) V) []V {
	out := make([]V, len(xs))
	for i, x := range xs {
		out[i] = view(x)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
