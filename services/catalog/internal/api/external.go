package api

import (
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/catalog/internal/cache"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/views"
)

// searchRequest is the body of both event searches (status on the organizer surface only).
type searchRequest struct {
	Search *string `json:"search"`
	Status *string `json:"status"`
	Limit  *int64  `json:"limit"`
	Offset *int64  `json:"offset"`
}

func (h *handlers) organizerSearch(c *fiber.Ctx) error { return h.search(c, false) }

func (h *handlers) browserSearch(c *fiber.Ctx) error { return h.search(c, true) }

// search answers 201 with a page of the caller's organizer's events, served from the cache
// (no-store for clients: it is a POST). A test key's browser search also lists the
// organizer's unpublished, non-private events.
func (h *handlers) search(c *fiber.Ctx, public bool) error {
	var req searchRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	p := identity.From(c)
	org := p.OrganizerID
	q, err := domain.NewSearch(org, domain.SearchRequest(req), public)
	if err != nil {
		return err
	}
	q.Unpublished = public && p.Test
	key := fmt.Sprintf("search\x00%s\x00%s\x00%t\x00%s\x00%s\x00%d\x00%d", modeKey(p), org, public, q.Text, q.Status, q.Limit, q.Offset)
	ctx := loadCtx(c)
	e, err := h.cache.Load(key, []string{cache.OrganizerTag(org)}, func() (cache.Fill, error) {
		page, err := h.svc.Search(ctx, q)
		if err != nil {
			return cache.Fill{}, err
		}
		a := views.Organizer
		if public {
			a = views.Browser
		}
		return render(views.NewEventList(page, a), h.svc.Now().Add(h.ttl))
	})
	if err != nil {
		return err
	}
	if public {
		h.shareAtEdge(c, p, e)
	}
	return sendJSON(c, fiber.StatusCreated, e.Body, cacheControlFor(p, cacheNone))
}

func (h *handlers) organizerEvent(c *fiber.Ctx) error {
	p, id := identity.From(c), param(c, "eventId")
	org := p.OrganizerID
	ctx := loadCtx(c)
	e, err := h.cache.Load("event\x00organizer\x00"+modeKey(p)+"\x00"+org+"\x00"+id, []string{cache.OrganizerTag(org)}, func() (cache.Fill, error) {
		ev, err := h.svc.OrganizerEvent(ctx, scopeOf(p), id)
		if err != nil {
			return cache.Fill{}, err
		}
		return render(views.NewOrganizerDetail(ev), h.svc.Now().Add(h.ttl))
	})
	if err != nil {
		return err
	}
	return sendValidated(c, e, cacheControlFor(p, cacheOrganizer))
}

// browserEvent serves the public detail, from the cache; with a preview token it is computed
// for this request only and never stored, by the service or by clients. A test key's answers
// are cached apart from live ones and never shared (they may show a draft).
func (h *handlers) browserEvent(c *fiber.Ctx) error {
	p, id, token := identity.From(c), param(c, "eventId"), query(c, "previewToken")
	org := p.OrganizerID
	if token != "" {
		ev, err := h.svc.BrowserEvent(c.UserContext(), scopeOf(p), id, token)
		if err != nil {
			return err
		}
		f, err := render(views.NewPublicDetail(ev), time.Time{})
		if err != nil {
			return err
		}
		return sendJSON(c, fiber.StatusOK, f.Body, cachePreview)
	}
	ctx := loadCtx(c)
	e, err := h.cache.Load("event\x00browser\x00"+modeKey(p)+"\x00"+org+"\x00"+id, []string{cache.OrganizerTag(org)}, func() (cache.Fill, error) {
		ev, err := h.svc.BrowserEvent(ctx, scopeOf(p), id, "")
		if err != nil {
			return cache.Fill{}, err
		}
		return render(views.NewPublicDetail(ev), h.svc.Now().Add(h.ttl))
	})
	if err != nil {
		return err
	}
	h.shareAtEdge(c, p, e)
	return sendValidated(c, e, cacheControlFor(p, cacheBrowserDetail))
}

// organizerPricing serves the cards with the places of the caller's mode.
func (h *handlers) organizerPricing(c *fiber.Ctx) error {
	p, id := identity.From(c), param(c, "eventId")
	org := p.OrganizerID
	ctx := loadCtx(c)
	e, err := h.cache.Load("pricing\x00organizer\x00"+modeKey(p)+"\x00"+org+"\x00"+id, pricingTags(org, id), func() (cache.Fill, error) {
		pricing, err := h.svc.OrganizerPricing(ctx, scopeOf(p), id)
		if err != nil {
			return cache.Fill{}, err
		}
		return h.renderPricing(pricing, true)
	})
	if err != nil {
		return err
	}
	return sendValidated(c, e, cacheControlFor(p, cacheOrganizer))
}

// browserPricing serves the public cards with the places of the caller's mode.
func (h *handlers) browserPricing(c *fiber.Ctx) error {
	p, id, token := identity.From(c), param(c, "eventId"), query(c, "previewToken")
	org := p.OrganizerID
	if token != "" {
		pricing, err := h.svc.BrowserPricing(c.UserContext(), scopeOf(p), id, token)
		if err != nil {
			return err
		}
		f, err := render(views.NewPricing(pricing, false), time.Time{})
		if err != nil {
			return err
		}
		return sendJSON(c, fiber.StatusOK, f.Body, cachePreview)
	}
	ctx := loadCtx(c)
	e, err := h.cache.Load("pricing\x00browser\x00"+modeKey(p)+"\x00"+org+"\x00"+id, pricingTags(org, id), func() (cache.Fill, error) {
		pricing, err := h.svc.BrowserPricing(ctx, scopeOf(p), id, "")
		if err != nil {
			return cache.Fill{}, err
		}
		return h.renderPricing(pricing, false)
	})
	if err != nil {
		return err
	}
	h.shareAtEdge(c, p, e)
	return sendValidated(c, e, cacheControlFor(p, cacheBrowserPricing))
}

func pricingTags(org, eventID string) []string {
	return []string{cache.OrganizerTag(org), cache.PlacesTag(eventID)}
}

// renderPricing renders cards of p, stale after the pricing TTL (places taken in other
// instances) or at the next date boundary of a tier, whichever comes first, and untrue from
// that boundary on.
func (h *handlers) renderPricing(p domain.Pricing, organizer bool) (cache.Fill, error) {
	f, err := render(views.NewPricing(p, organizer), h.svc.Now().Add(h.pricingTTL))
	if p.NextChange != nil {
		f.Until = *p.NextChange
		f.Expires = minTime(f.Expires, f.Until)
	}
	return f, err
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// internalEvent serves GET /internal/events/{eventId}: never cached, scoped by the organizer
// the caller's token names, priced with the places of its principal's mode.
func (h *handlers) internalEvent(c *fiber.Ctx) error {
	p, id := identity.From(c), param(c, "eventId")
	e, pricing, err := h.svc.InternalEvent(c.UserContext(), scopeOf(p), id)
	if err != nil {
		return err
	}
	return sendInternalEvent(c, e, pricing)
}

// internalEventOfCategory serves GET /internal/categories/{categoryId}/event: the same
// document as internalEvent for the event of the category, scoped the same way.
func (h *handlers) internalEventOfCategory(c *fiber.Ctx) error {
	p, id := identity.From(c), param(c, "categoryId")
	e, pricing, err := h.svc.InternalEventOfCategory(c.UserContext(), scopeOf(p), id)
	if err != nil {
		return err
	}
	return sendInternalEvent(c, e, pricing)
}

func sendInternalEvent(c *fiber.Ctx, e domain.Event, pricing domain.Pricing) error {
	f, err := render(views.NewInternalEvent(e, pricing), time.Time{})
	if err != nil {
		return err
	}
	return sendJSON(c, fiber.StatusOK, f.Body, cacheNone)
}
