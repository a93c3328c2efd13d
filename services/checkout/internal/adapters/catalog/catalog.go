// Package catalog reads events from the catalog service's internal API
// (services/catalog/contracts) through libs/peer, on behalf of the principal of the
// browser request being served.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Client implements app.Catalog.
type Client struct{ peer *peer.Client }

var _ app.Catalog = (*Client)(nil)

// New returns a client of the catalog at base whose calls take at most timeout and carry the
// identity tokens signer mints.
func New(base string, timeout time.Duration, signer *identity.Signer) *Client {
	return &Client{peer: peer.New(peer.Options{Name: identity.Catalog, BaseURL: base, Timeout: timeout, Signer: signer})}
}

// Event reads GET /internal/events/{eventId}.
func (c *Client) Event(ctx context.Context, as identity.Principal, eventID string) (domain.Event, error) {
	return c.get(ctx, as, "/internal/events/"+url.PathEscape(eventID), "event "+eventID)
}

// EventOfCategory reads GET /internal/categories/{categoryId}/event: the same document as
// Event, for the event the category belongs to (the summary body names no event).
func (c *Client) EventOfCategory(ctx context.Context, as identity.Principal, categoryID string) (domain.Event, error) {
	return c.get(ctx, as, "/internal/categories/"+url.PathEscape(categoryID)+"/event", "category "+categoryID)
}

// get reads the event document at path. The catalog not finding what names it is answered
// in checkout's own words, those of an event or category the browser may not see, so that
// the two cannot be told apart; a document that does not read as an event is the catalog
// failing.
func (c *Client) get(ctx context.Context, as identity.Principal, path, what string) (domain.Event, error) {
	var doc eventDoc
	err := c.peer.Do(ctx, as, http.MethodGet, path, nil, &doc)
	switch {
	case errors.Is(err, fault.ErrNotFound):
		return domain.Event{}, fault.NewNotFound(what)
	case err != nil:
		return domain.Event{}, err
	}
	ev, err := doc.toDomain()
	if err != nil {
		return domain.Event{}, fault.NewUnavailable(identity.Catalog, err)
	}
	return ev, nil
}

// eventDoc is what checkout reads of the catalog's event document (checked against the
// catalog's contract by TestEventDocReadsOnlyWhatTheCatalogsContractSays).
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
