package api

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// The JSON of the external API's catalog operations (libs/apispec/openapi.yaml): the
// organizer views add the organizer-only fields to the public ones.

type locationView struct {
	Venue       string `json:"venue,omitempty"`
	Address     string `json:"address,omitempty"`
	City        string `json:"city,omitempty"`
	Region      string `json:"region,omitempty"`
	CountryCode string `json:"countryCode,omitempty"`
}

type summaryView struct {
	ID         string       `json:"id"`
	ExternalID string       `json:"externalId,omitempty"`
	Name       string       `json:"name"`
	Status     string       `json:"status"`
	Private    *bool        `json:"private,omitempty"`
	StartDate  string       `json:"startDate"`
	EndDate    string       `json:"endDate"`
	Timezone   string       `json:"timezone"`
	Currency   string       `json:"currency"`
	Location   locationView `json:"location"`
}

type eventListView struct {
	Data   []summaryView `json:"data"`
	Total  int64         `json:"total"`
	Limit  int           `json:"limit"`
	Offset int64         `json:"offset"`
}

type teamSizeView struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type categoryView struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Description string       `json:"description"`
	TeamSize    teamSizeView `json:"teamSize"`
	Gender      string       `json:"gender"`
	AgeMin      *int         `json:"ageMin"`
	AgeMax      *int         `json:"ageMax"`
	Quota       *int         `json:"quota"`
	BasePrice   int64        `json:"basePrice"`
	Private     *bool        `json:"private,omitempty"`
	Published   *bool        `json:"published,omitempty"`
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
	ID        string `json:"id"`
	Title     string `json:"title"`
	Version   int    `json:"version"`
	Text      string `json:"text"`
	Required  bool   `json:"required"`
	ForMinors bool   `json:"forMinors"`
}

type sponsorView struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	LogoURL    string `json:"logoUrl,omitempty"`
	WebsiteURL string `json:"websiteUrl,omitempty"`
}

type optionView struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Price int64  `json:"price"`
}

type supplementView struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Kind        string       `json:"kind"`
	Per         string       `json:"per"`
	Price       *int64       `json:"price,omitempty"`
	Currency    string       `json:"currency"`
	Options     []optionView `json:"options,omitempty"`
}

type promocodeView struct {
	ID          string     `json:"id"`
	Code        string     `json:"code"`
	Type        string     `json:"type"`
	BasisPoints *int       `json:"basisPoints"`
	Amount      *int64     `json:"amount"`
	ValidFrom   *time.Time `json:"validFrom"`
	ValidUntil  *time.Time `json:"validUntil"`
	MaxUses     *int       `json:"maxUses"`
	CategoryIDs []string   `json:"categoryIds"`
}

type feeView struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	BasisPoints *int   `json:"basisPoints"`
	Amount      *int64 `json:"amount"`
	Per         string `json:"per"`
}

// publicDetailView is the browser event detail.
type publicDetailView struct {
	summaryView
	Description string           `json:"description"`
	Categories  []categoryView   `json:"categories"`
	FormFields  []formFieldView  `json:"formFields"`
	Waivers     []waiverView     `json:"waivers"`
	Sponsors    []sponsorView    `json:"sponsors"`
	Supplements []supplementView `json:"supplements"`
}

// organizerDetailView is the organizer event detail: the public one with every category and
// the organizer-only fields.
type organizerDetailView struct {
	publicDetailView
	InternalNotes string          `json:"internalNotes"`
	PreviewToken  string          `json:"previewToken"`
	Version       int64           `json:"version"`
	Promocodes    []promocodeView `json:"promocodes"`
	Fees          []feeView       `json:"fees"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
}

func newSummary(e domain.Event, organizer bool) summaryView {
	v := summaryView{
		ID: e.ID, Name: e.Name, Status: string(e.Status), StartDate: e.StartDate.String(), EndDate: e.EndDate.String(),
		Timezone: e.Timezone, Currency: e.Currency,
		Location: locationView{
			Venue: e.Venue.Name, Address: e.Venue.Address, City: e.Venue.City, Region: e.Venue.Region, CountryCode: e.Venue.CountryCode,
		},
	}
	if organizer {
		v.ExternalID, v.Private = e.ExternalID, ptr(e.Private)
	}
	return v
}

func newEventList(p domain.Page, organizer bool) eventListView {
	v := eventListView{Data: make([]summaryView, len(p.Events)), Total: p.Total, Limit: p.Limit, Offset: p.Offset}
	for i, e := range p.Events {
		v.Data[i] = newSummary(e, organizer)
	}
	return v
}

// newPublicDetail renders e, which must already be the public view (domain.Event.PublicView).
func newPublicDetail(e domain.Event) publicDetailView {
	return newDetail(e, e.Supplements, false)
}

func newOrganizerDetail(e domain.Event) organizerDetailView {
	v := organizerDetailView{
		publicDetailView: newDetail(e, e.ActiveSupplements(), true),
		InternalNotes:    e.InternalNotes, PreviewToken: e.PreviewToken, Version: e.Version,
		Promocodes: make([]promocodeView, len(e.Promocodes)), Fees: make([]feeView, len(e.Fees)),
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC(),
	}
	for i, p := range e.Promocodes {
		bp, amount := adjustmentFields(p.Discount)
		v.Promocodes[i] = promocodeView{
			ID: p.ID, Code: p.Code, Type: string(p.Discount.Type), BasisPoints: bp, Amount: amount,
			ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil, MaxUses: p.MaxUses, CategoryIDs: e.CategoryIDs(p.CategoryKeys),
		}
	}
	for i, f := range e.Fees {
		bp, amount := adjustmentFields(f.Charge)
		v.Fees[i] = feeView{ID: f.ID, Name: f.Name, Type: string(f.Charge.Type), BasisPoints: bp, Amount: amount, Per: string(f.Per)}
	}
	return v
}

func newDetail(e domain.Event, supplements []domain.Supplement, organizer bool) publicDetailView {
	v := publicDetailView{
		summaryView: newSummary(e, organizer), Description: e.Description,
		Categories: make([]categoryView, len(e.Categories)), FormFields: make([]formFieldView, len(e.FormFields)),
		Waivers: make([]waiverView, len(e.Waivers)), Sponsors: make([]sponsorView, len(e.Sponsors)),
		Supplements: make([]supplementView, len(supplements)),
	}
	for i, c := range e.Categories {
		v.Categories[i] = categoryView{
			ID: c.ID, Name: c.Name, Description: c.Description, TeamSize: teamSizeView(c.TeamSize), Gender: string(c.Gender),
			AgeMin: c.AgeMin, AgeMax: c.AgeMax, Quota: c.Quota, BasePrice: c.BasePrice,
		}
		if organizer {
			v.Categories[i].Private, v.Categories[i].Published = ptr(c.Private), ptr(c.Published)
		}
	}
	for i, f := range e.FormFields {
		v.FormFields[i] = newDetailField(e, f)
	}
	for i, w := range e.Waivers {
		v.Waivers[i] = waiverView{ID: w.ID, Title: w.Title, Version: w.Version, Text: w.Text, Required: w.Required, ForMinors: w.ForMinors}
	}
	for i, s := range e.Sponsors {
		v.Sponsors[i] = sponsorView{ID: s.ID, Name: s.Name, LogoURL: s.LogoURL, WebsiteURL: s.WebsiteURL}
	}
	for i, s := range supplements {
		v.Supplements[i] = newSupplement(s, e.Currency)
	}
	return v
}

func newSupplement(s domain.Supplement, currency string) supplementView {
	v := supplementView{
		ID: s.ID, Name: s.Name, Description: s.Description, Kind: supplementKind(s), Per: string(s.Per),
		Price: s.Price, Currency: currency,
	}
	for _, o := range s.Options {
		v.Options = append(v.Options, optionView{ID: o.ID, Name: o.Name, Price: o.Price})
	}
	return v
}

func supplementKind(s domain.Supplement) string {
	if s.HasOptions() {
		return "OPTIONS"
	}
	return "SINGLE_PRICE"
}

// adjustmentFields returns basis points for PERCENT and an amount for FIXED, the other nil.
func adjustmentFields(a domain.Adjustment) (*int, *int64) {
	if a.Type == domain.Percent {
		return ptr(a.BasisPoints), nil
	}
	return nil, ptr(a.Amount)
}

func ptr[T any](v T) *T { return &v }

func newDetailField(e domain.Event, f domain.FormField) formFieldView {
	v := formFieldView{
		ID: f.ID, Label: f.Label, Type: string(f.Type), Required: f.Required,
		AppliesTo: string(f.AppliesTo), CategoryIDs: e.CategoryIDs(f.CategoryKeys),
	}
	if f.Type.HasOptions() {
		v.Options = f.Options
	}
	return v
}
