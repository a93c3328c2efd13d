package views

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// The JSON of the external API's event operations (libs/apispec/openapi.yaml): the organizer
// views add the organizer-only fields to the public ones.

type locationView struct {
	Venue       string `json:"venue,omitempty"`
	Address     string `json:"address,omitempty"`
	City        string `json:"city,omitempty"`
	Region      string `json:"region,omitempty"`
	CountryCode string `json:"countryCode,omitempty"`
}

// summaryView is an event in a list, and the head of every event view.
type summaryView struct {
	ID          string        `json:"id"`
	OrganizerID string        `json:"organizerId,omitempty"` // service only
	ExternalID  string        `json:"externalId,omitempty"`  // organizer only
	Name        string        `json:"name"`
	Status      string        `json:"status"`
	Private     *bool         `json:"private,omitempty"` // not browser
	StartDate   string        `json:"startDate"`
	EndDate     string        `json:"endDate"`
	Timezone    string        `json:"timezone"`
	Currency    string        `json:"currency"`
	Location    *locationView `json:"location,omitempty"` // not service
}

// EventList is a page of events (both searches).
type EventList struct {
	Data   []summaryView `json:"data"`
	Total  int64         `json:"total"`
	Limit  int           `json:"limit"`
	Offset int64         `json:"offset"`
}

type sponsorView struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	LogoURL    string `json:"logoUrl,omitempty"`
	WebsiteURL string `json:"websiteUrl,omitempty"`
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

// PublicDetail is the browser event detail.
type PublicDetail struct {
	summaryView
	Description string           `json:"description"`
	Categories  []categoryView   `json:"categories"`
	FormFields  []formFieldView  `json:"formFields"`
	Waivers     []waiverView     `json:"waivers"`
	Sponsors    []sponsorView    `json:"sponsors"`
	Supplements []supplementView `json:"supplements"`
}

// OrganizerDetail is the organizer event detail: the public one with every category and
// the organizer-only fields.
type OrganizerDetail struct {
	PublicDetail
	InternalNotes string          `json:"internalNotes"`
	PreviewToken  string          `json:"previewToken"`
	Version       int64           `json:"version"`
	Promocodes    []promocodeView `json:"promocodes"`
	Fees          []feeView       `json:"fees"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	// TransfersUntil is when the event stops taking ticket transfers; null is never.
	TransfersUntil *time.Time `json:"transfersUntil"`
}

func newSummary(e domain.Event, a Audience) summaryView {
	v := summaryView{
		ID: e.ID, Name: e.Name, Status: string(e.Status), StartDate: e.StartDate.String(), EndDate: e.EndDate.String(),
		Timezone: e.Timezone, Currency: e.Currency,
	}
	switch a {
	case Organizer:
		v.ExternalID = e.ExternalID
	case Service:
		v.OrganizerID = e.OrganizerID
	}
	if a != Browser {
		v.Private = &e.Private
	}
	if a != Service {
		v.Location = &locationView{
			Venue: e.Venue.Name, Address: e.Venue.Address, City: e.Venue.City, Region: e.Venue.Region, CountryCode: e.Venue.CountryCode,
		}
	}
	return v
}

// NewEventList renders a page of events for a.
func NewEventList(p domain.Page, a Audience) EventList {
	return EventList{
		Data:  each(p.Events, func(e domain.Event) summaryView { return newSummary(e, a) }),
		Total: p.Total, Limit: p.Limit, Offset: p.Offset,
	}
}

// NewPublicDetail renders e, which must already be the public view (domain.Event.PublicView).
func NewPublicDetail(e domain.Event) PublicDetail {
	return newDetail(e, e.Supplements, Browser)
}

// NewOrganizerDetail renders the organizer event detail of e.
func NewOrganizerDetail(e domain.Event) OrganizerDetail {
	parts := eventParts{e, Organizer}
	return OrganizerDetail{
		PublicDetail:  newDetail(e, e.ActiveSupplements(), Organizer),
		InternalNotes: e.InternalNotes, PreviewToken: e.PreviewToken, Version: e.Version,
		Promocodes: each(e.Promocodes, parts.promocode), Fees: each(e.Fees, parts.fee),
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC(), TransfersUntil: utcOf(e.TransfersUntil),
	}
}

// utcOf returns t in UTC, nil for nil.
func utcOf(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func newDetail(e domain.Event, supplements []domain.Supplement, a Audience) PublicDetail {
	parts := eventParts{e, a}
	return PublicDetail{
		summaryView: newSummary(e, a), Description: e.Description,
		Categories: each(e.Categories, parts.category), FormFields: each(e.FormFields, parts.formField),
		Waivers: each(e.Waivers, parts.waiver), Sponsors: each(e.Sponsors, newSponsor),
		Supplements: each(supplements, parts.supplement),
	}
}

func newSponsor(s domain.Sponsor) sponsorView {
	return sponsorView{ID: s.ID, Name: s.Name, LogoURL: s.LogoURL, WebsiteURL: s.WebsiteURL}
}

func (p eventParts) supplement(s domain.Supplement) supplementView {
	return supplementView{
		ID: s.ID, Name: s.Name, Description: s.Description, Kind: supplementKind(s), Per: string(s.Per),
		Price: s.Price, Currency: p.e.Currency, Options: each(s.Options, p.option),
	}
}
