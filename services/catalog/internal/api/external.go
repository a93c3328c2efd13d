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
// (no-store for clients: it is a POST).
func (h *handlers) search(c *fiber.Ctx, public bool) error {
	var req searchRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	org := identity.From(c).OrganizerID
	q, err := domain.NewSearch(org, domain.SearchRequest(req), public)
	if err != nil {
		return err
	}
	key := fmt.Sprintf("search\x00%s\x00%t\x00%s\x00%s\x00%d\x00%d", org, public, q.Text, q.Status, q.Limit, q.Offset)
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
		h.shareAtEdge(c, e)
	}
	return sendJSON(c, fiber.StatusCreated, e.Body, cacheNone)
}

func (h *handlers) organizerEvent(c *fiber.Ctx) error {
	org, id := identity.From(c).OrganizerID, param(c, "eventId")
	ctx := loadCtx(c)
	e, err := h.cache.Load("event\x00organizer\x00"+org+"\x00"+id, []string{cache.OrganizerTag(org)}, func() (cache.Fill, error) {
		ev, err := h.svc.OrganizerEvent(ctx, domain.ForOrganizer(org), id)
		if err != nil {
			return cache.Fill{}, err
		}
		return render(views.NewOrganizerDetail(ev), h.svc.Now().Add(h.ttl))
	})
	if err != nil {
		return err
	}
	return sendValidated(c, e, cacheOrganizer)
}

// browserEvent serves the public detail, from the cache; with a preview token it is computed
// for this request only and never stored, by the service or by clients.
func (h *handlers) browserEvent(c *fiber.Ctx) error {
	org, id, token := identity.From(c).OrganizerID, param(c, "eventId"), query(c, "previewToken")
	if token != "" {
		ev, err := h.svc.BrowserEvent(c.UserContext(), domain.ForOrganizer(org), id, token)
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
	e, err := h.cache.Load("event\x00browser\x00"+org+"\x00"+id, []string{cache.OrganizerTag(org)}, func() (cache.Fill, error) {
		ev, err := h.svc.BrowserEvent(ctx, domain.ForOrganizer(org), id, "")
		if err != nil {
			return cache.Fill{}, err
		}
		return render(views.NewPublicDetail(ev), h.svc.Now().Add(h.ttl))
	})
	if err != nil {
		return err
	}
	h.shareAtEdge(c, e)
	return sendValidated(c, e, cacheBrowserDetail)
}

func (h *handlers) organizerPricing(c *fiber.Ctx) error {
	org, id := identity.From(c).OrganizerID, param(c, "eventId")
	ctx := loadCtx(c)
	e, err := h.cache.Load("pricing\x00organizer\x00"+org+"\x00"+id, pricingTags(org, id), func() (cache.Fill, error) {
		p, err := h.svc.OrganizerPricing(ctx, domain.ForOrganizer(org), id)
		if err != nil {
			return cache.Fill{}, err
		}
		return h.renderPricing(p, true)
	})
	if err != nil {
		return err
	}
	return sendValidated(c, e, cacheOrganizer)
}

func (h *handlers) browserPricing(c *fiber.Ctx) error {
	org, id, token := identity.From(c).OrganizerID, param(c, "eventId"), query(c, "previewToken")
	if token != "" {
		p, err := h.svc.BrowserPricing(c.UserContext(), domain.ForOrganizer(org), id, token)
		if err != nil {
			return err
		}
		f, err := render(views.NewPricing(p, false), time.Time{})
		if err != nil {
			return err
		}
		return sendJSON(c, fiber.StatusOK, f.Body, cachePreview)
	}
	ctx := loadCtx(c)
	e, err := h.cache.Load("pricing\x00browser\x00"+org+"\x00"+id, pricingTags(org, id), func() (cache.Fill, error) {
		p, err := h.svc.BrowserPricing(ctx, domain.ForOrganizer(org), id, "")
		if err != nil {
			return cache.Fill{}, err
		}
		return h.renderPricing(p, false)
	})
	if err != nil {
		return err
	}
	h.shareAtEdge(c, e)
	return sendValidated(c, e, cacheBrowserPricing)
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
// the caller's token names.
func (h *handlers) internalEvent(c *fiber.Ctx) error {
	org, id := identity.From(c).OrganizerID, param(c, "eventId")
	e, pricing, err := h.svc.InternalEvent(c.UserContext(), domain.ForOrganizer(org), id)
	if err != nil {
		return err
	}
	return sendInternalEvent(c, e, pricing)
}

// internalEventOfCategory serves GET /internal/categories/{categoryId}/event: the same
// document as internalEvent for the event of the category, scoped the same way.
func (h *handlers) internalEventOfCategory(c *fiber.Ctx) error {
	org, id := identity.From(c).OrganizerID, param(c, "categoryId")
	e, pricing, err := h.svc.InternalEventOfCategory(c.UserContext(), domain.ForOrganizer(org), id)
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
