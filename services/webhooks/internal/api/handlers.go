package api

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
)

// handlers parse requests, call the use cases and write their results.
type handlers struct {
	svc *app.Service
	v   *apispec.Validator
}

func (h handlers) create(c *fiber.Ctx) error {
	change, err := h.endpointChange(c, opCreate)
	if err != nil {
		return err
	}
	created, err := h.svc.CreateEndpoint(c.UserContext(), owner(c), change)
	if err != nil {
		return err
	}
	return c.Status(http.StatusCreated).JSON(newSecretView(created))
}

func (h handlers) list(c *fiber.Ctx) error {
	page, err := pageQuery(c)
	if err != nil {
		return err
	}
	eps, total, err := h.svc.Endpoints(c.UserContext(), owner(c), page)
	if err != nil {
		return err
	}
	views := make([]endpointView, len(eps))
	for i, ep := range eps {
		views[i] = newEndpointView(ep)
	}
	return c.JSON(listView[endpointView]{Data: views, Total: total, Limit: page.Limit, Offset: page.Offset})
}

func (h handlers) get(c *fiber.Ctx) error {
	ep, err := h.svc.Endpoint(c.UserContext(), owner(c), c.Params("endpointId"))
	if err != nil {
		return err
	}
	return c.JSON(newEndpointView(ep))
}

func (h handlers) update(c *fiber.Ctx) error {
	change, err := h.endpointChange(c, opUpdate)
	if err != nil {
		return err
	}
	ep, err := h.svc.UpdateEndpoint(c.UserContext(), owner(c), c.Params("endpointId"), change)
	if err != nil {
		return err
	}
	return c.JSON(newEndpointView(ep))
}

func (h handlers) remove(c *fiber.Ctx) error {
	ep, err := h.svc.DeleteEndpoint(c.UserContext(), owner(c), c.Params("endpointId"))
	if err != nil {
		return err
	}
	return c.JSON(newEndpointView(ep))
}

func (h handlers) rotate(c *fiber.Ctx) error {
	if err := noBody(c); err != nil {
		return err
	}
	rotated, err := h.svc.RotateSecret(c.UserContext(), owner(c), c.Params("endpointId"))
	if err != nil {
		return err
	}
	return c.JSON(newSecretView(rotated))
}

func (h handlers) test(c *fiber.Ctx) error {
	if err := noBody(c); err != nil {
		return err
	}
	d, err := h.svc.Test(c.UserContext(), owner(c), c.Params("endpointId"))
	if err != nil {
		return err
	}
	return c.Status(http.StatusAccepted).JSON(testView{Delivery: newDeliveryView(d)})
}

func (h handlers) recover(c *fiber.Ctx) error {
	since, err := h.recoverBody(c)
	if err != nil {
		return err
	}
	n, err := h.svc.Recover(c.UserContext(), owner(c), c.Params("endpointId"), since)
	if err != nil {
		return err
	}
	return c.Status(http.StatusAccepted).JSON(recoveredView{Recovered: n})
}

func (h handlers) deliveries(c *fiber.Ctx) error {
	page, err := pageQuery(c)
	if err != nil {
		return err
	}
	status, err := statusQuery(c)
	if err != nil {
		return err
	}
	ds, total, err := h.svc.Deliveries(c.UserContext(), owner(c), c.Params("endpointId"), status, page)
	if err != nil {
		return err
	}
	views := make([]deliveryView, len(ds))
	for i, d := range ds {
		views[i] = newDeliveryView(d)
	}
	return c.JSON(listView[deliveryView]{Data: views, Total: total, Limit: page.Limit, Offset: page.Offset})
}

func (h handlers) delivery(c *fiber.Ctx) error {
	d, attempts, err := h.svc.Delivery(c.UserContext(), owner(c), c.Params("endpointId"), c.Params("deliveryId"))
	if err != nil {
		return err
	}
	return c.JSON(newDeliveryDetail(d, attempts))
}

func (h handlers) retry(c *fiber.Ctx) error {
	if err := noBody(c); err != nil {
		return err
	}
	d, err := h.svc.Retry(c.UserContext(), owner(c), c.Params("endpointId"), c.Params("deliveryId"))
	if err != nil {
		return err
	}
	return c.Status(http.StatusAccepted).JSON(newDeliveryView(d))
}
