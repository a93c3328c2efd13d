// Package catalog reads events from the catalog service's internal API
// (docs/contracts/catalog-internal.md), signing its calls on the purchase's behalf.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/peer"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Client implements app.Catalog.
type Client struct{ c *peer.Client }

var _ app.Catalog = (*Client)(nil)

// New returns a client of the catalog at base.
func New(base string, timeout time.Duration, signer *identity.Signer) *Client {
	return &Client{c: peer.New(identity.Catalog, base, timeout, signer)}
}

// Event reads GET /internal/events/{eventId}.
func (c *Client) Event(ctx context.Context, caller domain.Caller, eventID string) (domain.Event, error) {
	return c.get(ctx, caller, "/internal/events/"+url.PathEscape(eventID), &domain.NotFoundError{What: "event", ID: eventID})
}

// EventOfCategory reads GET /internal/categories/{categoryId}/event: the same document as
// Event, for the event the category belongs to (the summary body names no event).
func (c *Client) EventOfCategory(ctx context.Context, caller domain.Caller, categoryID string) (domain.Event, error) {
	return c.get(ctx, caller, "/internal/categories/"+url.PathEscape(categoryID)+"/event", &domain.NotFoundError{What: "category", ID: categoryID})
}

func (c *Client) get(ctx context.Context, caller domain.Caller, path string, notFound error) (domain.Event, error) {
	var doc eventDoc
	_, err := c.c.Do(ctx, caller, http.MethodGet, path, nil, &doc)
	var p *peer.Problem
	switch {
	case errors.As(err, &p) && p.Status == http.StatusNotFound:
		return domain.Event{}, notFound
	case errors.As(err, &p):
		return domain.Event{}, &domain.UnavailableError{Service: "catalog", Err: p}
	case err != nil:
		return domain.Event{}, err
	}
	ev, err := doc.toDomain()
	if err != nil {
		return domain.Event{}, &domain.UnavailableError{Service: "catalog", Err: err}
	}
	return ev, nil
}

// eventDoc is the catalog's event document.
type eventDoc struct {
	ID           string `json:"id"`
	OrganizerID  string `json:"organizerId"`
	Name         string `json:"name"`
	Status       string `json:"status"`
	Private      bool   `json:"private"`
	StartDate    string `json:"startDate"`
	Currency     string `json:"currency"`
	PreviewToken string `json:"previewToken"`
	Categories   []struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		TeamSize struct {
			Min int `json:"min"`
			Max int `json:"max"`
		} `json:"teamSize"`
		ActivePrice int64 `json:"activePrice"`
		Private     bool  `json:"private"`
		Published   bool  `json:"published"`
	} `json:"categories"`
	Waivers []struct {
		ID        string `json:"id"`
		Title     string `json:"title"`
		Version   int64  `json:"version"`
		Required  bool   `json:"required"`
		ForMinors bool   `json:"forMinors"`
	} `json:"waivers"`
	Supplements []struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Price   *int64 `json:"price"`
		Active  bool   `json:"active"`
		Per     string `json:"per"`
		Options []struct {
			ID     string `json:"id"`
			Name   string `json:"name"`
			Price  int64  `json:"price"`
			Active bool   `json:"active"`
		} `json:"options"`
	} `json:"supplements"`
	Promocodes []struct {
		Code        string     `json:"code"`
		Type        string     `json:"type"`
		BasisPoints *int64     `json:"basisPoints"`
		Amount      *int64     `json:"amount"`
		ValidFrom   *time.Time `json:"validFrom"`
		ValidUntil  *time.Time `json:"validUntil"`
		MaxUses     *int64     `json:"maxUses"`
		CategoryIDs []string   `json:"categoryIds"`
	} `json:"promocodes"`
	Fees []struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		Type        string `json:"type"`
		BasisPoints *int64 `json:"basisPoints"`
		Amount      *int64 `json:"amount"`
		Per         string `json:"per"`
	} `json:"fees"`
}

func (d *eventDoc) toDomain() (domain.Event, error) {
	start, err := time.Parse(time.DateOnly, d.StartDate)
	if err != nil {
		return domain.Event{}, fmt.Errorf("event %s: startDate %q is not a date", d.ID, d.StartDate)
	}
	ev := domain.Event{
		ID: d.ID, OrganizerID: d.OrganizerID, Name: d.Name, Status: d.Status, Private: d.Private, StartDate: start,
		Currency: d.Currency, PreviewToken: d.PreviewToken,
	}
	for _, c := range d.Categories {
		ev.Categories = append(ev.Categories, domain.Category{
			ID: c.ID, Name: c.Name, TeamMin: c.TeamSize.Min, TeamMax: c.TeamSize.Max, ActivePrice: c.ActivePrice,
			Private: c.Private, Published: c.Published,
		})
	}
	for _, w := range d.Waivers {
		ev.Waivers = append(ev.Waivers, domain.Waiver{ID: w.ID, Title: w.Title, Version: w.Version, Required: w.Required, ForMinors: w.ForMinors})
	}
	for _, s := range d.Supplements {
		sup := domain.Supplement{ID: s.ID, Name: s.Name, Kind: s.Kind, Price: val(s.Price), Active: s.Active, PerAthlete: s.Per == "ATHLETE"}
		for _, o := range s.Options {
			sup.Options = append(sup.Options, domain.SupplementOption{ID: o.ID, Name: o.Name, Price: o.Price, Active: o.Active})
		}
		ev.Supplements = append(ev.Supplements, sup)
	}
	for _, p := range d.Promocodes {
		ev.Promocodes = append(ev.Promocodes, domain.Promocode{
			Code: p.Code, Type: p.Type, BasisPoints: val(p.BasisPoints), Amount: val(p.Amount),
			ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil, MaxUses: p.MaxUses, CategoryIDs: p.CategoryIDs,
		})
	}
	for _, f := range d.Fees {
		ev.Fees = append(ev.Fees, domain.Fee{
			ID: f.ID, Name: f.Name, Type: f.Type, BasisPoints: val(f.BasisPoints), Amount: val(f.Amount), PerOrder: f.Per == "ORDER",
		})
	}
	return ev, nil
}

func val(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
