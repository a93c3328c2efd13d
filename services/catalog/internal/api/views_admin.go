package api

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// adminEventView is an event as stored, in the shape of the import file plus the ids and
// everything the catalog keeps (version, preview token, waiver versions, places).
type adminEventView struct {
	ID            string                `json:"id"`
	OrganizerID   string                `json:"organizerId"`
	ExternalID    string                `json:"externalId"`
	Name          string                `json:"name"`
	Description   string                `json:"description"`
	InternalNotes string                `json:"internalNotes"`
	Status        string                `json:"status"`
	Private       bool                  `json:"private"`
	StartDate     string                `json:"startDate"`
	EndDate       string                `json:"endDate"`
	Timezone      string                `json:"timezone"`
	Currency      string                `json:"currency"`
	Venue         adminVenueView        `json:"venue"`
	PreviewToken  string                `json:"previewToken"`
	Version       int64                 `json:"version"`
	CreatedAt     time.Time             `json:"createdAt"`
	UpdatedAt     time.Time             `json:"updatedAt"`
	Categories    []adminCategoryView   `json:"categories"`
	FormFields    []adminFormFieldView  `json:"formFields"`
	Waivers       []adminWaiverView     `json:"waivers"`
	Sponsors      []adminSponsorView    `json:"sponsors"`
	Supplements   []adminSupplementView `json:"supplements"`
	Promocodes    []adminPromocodeView  `json:"promocodes"`
	Fees          []adminFeeView        `json:"fees"`
}

type adminVenueView struct {
	Name        string `json:"name"`
	Address     string `json:"address"`
	City        string `json:"city"`
	Region      string `json:"region"`
	CountryCode string `json:"countryCode"`
}

type adminCategoryView struct {
	ID          string          `json:"id"`
	Key         string          `json:"key"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	TeamSize    teamSizeView    `json:"teamSize"`
	Gender      string          `json:"gender"`
	AgeMin      *int            `json:"ageMin"`
	AgeMax      *int            `json:"ageMax"`
	Quota       *int            `json:"quota"`
	BasePrice   int64           `json:"basePrice"`
	Private     bool            `json:"private"`
	Published   bool            `json:"published"`
	Tiers       []adminTierView `json:"tiers"`
	Confirmed   int             `json:"confirmed"`
	Held        int             `json:"held"`
}

type adminTierView struct {
	ID         string  `json:"id"`
	Key        string  `json:"key"`
	Name       string  `json:"name"`
	Price      int64   `json:"price"`
	From       *string `json:"from"`
	Until      *string `json:"until"`
	UpToPlaces *int    `json:"upToPlaces"`
}

type adminFormFieldView struct {
	ID         string   `json:"id"`
	Key        string   `json:"key"`
	Label      string   `json:"label"`
	Type       string   `json:"type"`
	Required   bool     `json:"required"`
	Options    []string `json:"options"`
	AppliesTo  string   `json:"appliesTo"`
	Categories []string `json:"categories"`
}

type adminWaiverView struct {
	ID        string `json:"id"`
	Key       string `json:"key"`
	Title     string `json:"title"`
	Text      string `json:"text"`
	Required  bool   `json:"required"`
	ForMinors bool   `json:"forMinors"`
	Version   int    `json:"version"`
}

type adminSponsorView struct {
	ID         string `json:"id"`
	Key        string `json:"key"`
	Name       string `json:"name"`
	LogoURL    string `json:"logoUrl"`
	WebsiteURL string `json:"websiteUrl"`
}

type adminSupplementView struct {
	ID          string            `json:"id"`
	Key         string            `json:"key"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Active      bool              `json:"active"`
	Per         string            `json:"per"`
	Price       *int64            `json:"price"`
	Options     []adminOptionView `json:"options"`
}

type adminOptionView struct {
	ID     string `json:"id"`
	Key    string `json:"key"`
	Name   string `json:"name"`
	Price  int64  `json:"price"`
	Active bool   `json:"active"`
}

type adminPromocodeView struct {
	ID          string     `json:"id"`
	Key         string     `json:"key"`
	Code        string     `json:"code"`
	Percent     *float64   `json:"percent"`
	Amount      *int64     `json:"amount"`
	BasisPoints *int       `json:"basisPoints"`
	ValidFrom   *time.Time `json:"validFrom"`
	ValidUntil  *time.Time `json:"validUntil"`
	MaxUses     *int       `json:"maxUses"`
	Categories  []string   `json:"categories"`
}

type adminFeeView struct {
	ID          string   `json:"id"`
	Key         string   `json:"key"`
	Name        string   `json:"name"`
	Percent     *float64 `json:"percent"`
	Amount      *int64   `json:"amount"`
	BasisPoints *int     `json:"basisPoints"`
	Per         string   `json:"per"`
}

// adminSummaryView is an event in the admin list.
type adminSummaryView struct {
	ID         string    `json:"id"`
	ExternalID string    `json:"externalId"`
	Name       string    `json:"name"`
	Status     string    `json:"status"`
	Private    bool      `json:"private"`
	StartDate  string    `json:"startDate"`
	EndDate    string    `json:"endDate"`
	Version    int64     `json:"version"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

type adminListView struct {
	Data   []adminSummaryView `json:"data"`
	Total  int64              `json:"total"`
	Limit  int                `json:"limit"`
	Offset int64              `json:"offset"`
}

func newAdminList(p domain.Page) adminListView {
	v := adminListView{Data: make([]adminSummaryView, len(p.Events)), Total: p.Total, Limit: p.Limit, Offset: p.Offset}
	for i, e := range p.Events {
		v.Data[i] = adminSummaryView{
			ID: e.ID, ExternalID: e.ExternalID, Name: e.Name, Status: string(e.Status), Private: e.Private,
			StartDate: e.StartDate.String(), EndDate: e.EndDate.String(), Version: e.Version, UpdatedAt: e.UpdatedAt.UTC(),
		}
	}
	return v
}

func newAdminEvent(e domain.Event) adminEventView {
	v := adminEventView{
		ID: e.ID, OrganizerID: e.OrganizerID, ExternalID: e.ExternalID, Name: e.Name, Description: e.Description,
		InternalNotes: e.InternalNotes, Status: string(e.Status), Private: e.Private,
		StartDate: e.StartDate.String(), EndDate: e.EndDate.String(), Timezone: e.Timezone, Currency: e.Currency,
		Venue: adminVenueView(e.Venue), PreviewToken: e.PreviewToken, Version: e.Version,
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC(),
		Categories: make([]adminCategoryView, len(e.Categories)), FormFields: make([]adminFormFieldView, len(e.FormFields)),
		Waivers: make([]adminWaiverView, len(e.Waivers)), Sponsors: make([]adminSponsorView, len(e.Sponsors)),
		Supplements: make([]adminSupplementView, len(e.Supplements)), Promocodes: make([]adminPromocodeView, len(e.Promocodes)),
		Fees: make([]adminFeeView, len(e.Fees)),
	}
	for i, c := range e.Categories {
		v.Categories[i] = newAdminCategory(c)
	}
	for i, f := range e.FormFields {
		v.FormFields[i] = adminFormFieldView{
			ID: f.ID, Key: f.Key, Label: f.Label, Type: string(f.Type), Required: f.Required, Options: f.Options,
			AppliesTo: string(f.AppliesTo), Categories: f.CategoryKeys,
		}
	}
	for i, w := range e.Waivers {
		v.Waivers[i] = adminWaiverView{ID: w.ID, Key: w.Key, Title: w.Title, Text: w.Text, Required: w.Required, ForMinors: w.ForMinors, Version: w.Version}
	}
	for i, s := range e.Sponsors {
		v.Sponsors[i] = adminSponsorView{ID: s.ID, Key: s.Key, Name: s.Name, LogoURL: s.LogoURL, WebsiteURL: s.WebsiteURL}
	}
	for i, s := range e.Supplements {
		sv := adminSupplementView{
			ID: s.ID, Key: s.Key, Name: s.Name, Description: s.Description, Active: s.Active, Per: string(s.Per), Price: s.Price,
			Options: make([]adminOptionView, len(s.Options)),
		}
		for j, o := range s.Options {
			sv.Options[j] = adminOptionView{ID: o.ID, Key: o.Key, Name: o.Name, Price: o.Price, Active: o.Active}
		}
		v.Supplements[i] = sv
	}
	for i, p := range e.Promocodes {
		pct, amount, bp := adminAdjustment(p.Discount)
		v.Promocodes[i] = adminPromocodeView{
			ID: p.ID, Key: p.Key, Code: p.Code, Percent: pct, Amount: amount, BasisPoints: bp,
			ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil, MaxUses: p.MaxUses, Categories: p.CategoryKeys,
		}
	}
	for i, f := range e.Fees {
		pct, amount, bp := adminAdjustment(f.Charge)
		v.Fees[i] = adminFeeView{ID: f.ID, Key: f.Key, Name: f.Name, Percent: pct, Amount: amount, BasisPoints: bp, Per: string(f.Per)}
	}
	return v
}

func newAdminCategory(c domain.Category) adminCategoryView {
	v := adminCategoryView{
		ID: c.ID, Key: c.Key, Name: c.Name, Description: c.Description, TeamSize: teamSizeView(c.TeamSize), Gender: string(c.Gender),
		AgeMin: c.AgeMin, AgeMax: c.AgeMax, Quota: c.Quota, BasePrice: c.BasePrice, Private: c.Private, Published: c.Published,
		Tiers: make([]adminTierView, len(c.Tiers)), Confirmed: c.Places.Confirmed, Held: c.Places.Held,
	}
	for j, t := range c.Tiers {
		v.Tiers[j] = adminTierView{ID: t.ID, Key: t.Key, Name: t.Name, Price: t.Price, From: dateString(t.From), Until: dateString(t.Until), UpToPlaces: t.UpToPlaces}
	}
	return v
}

func adminAdjustment(a domain.Adjustment) (percent *float64, amount *int64, bp *int) {
	if a.Type == domain.Percent {
		return ptr(float64(a.BasisPoints) / 100), nil, ptr(a.BasisPoints)
	}
	return nil, ptr(a.Amount), nil
}

func dateString(d *domain.Date) *string {
	if d == nil {
		return nil
	}
	return ptr(d.String())
}
