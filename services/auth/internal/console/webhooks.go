package console

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// The Webhooks tab: the organization's endpoints and their deliveries, which the webhooks
// service owns; every page asks it, for the signed-in member's organization, through
// app.Console. When it does not answer, the tab says so and the rest of the console works.

// webhookForm is a create-endpoint form as posted, kept to show it again with its problems.
type webhookForm struct {
	URL, Description string
	EventTypes       []string
	Problems         []string
}

type webhooksData struct {
	Endpoints     []domain.WebhookEndpoint
	Pager         *pager
	AllEventTypes []string
	Form          webhookForm
	Notice        string
}

func (h *handlers) webhooksTab(c *fiber.Ctx) error {
	return h.renderWebhooksTab(c, http.StatusOK, webhooksData{Notice: webhookNotice(c)})
}

func (h *handlers) renderWebhooksTab(c *fiber.Ctx, status int, d webhooksData) error {
	p := pageOf(c)
	list, total, err := h.Console.WebhookEndpoints(c.UserContext(), modeOf(c), session(c).Email, c.Params("organizerId"), p)
	if err != nil {
		return h.webhooksFailure(c, err)
	}
	d.Endpoints, d.Pager, d.AllEventTypes = list, newPager(p, len(list), total), domain.WebhookEventTypes
	return render(c, status, "webhooks", page(c, "Webhooks", "webhooks", d))
}

func (h *handlers) createWebhookEndpoint(c *fiber.Ctx) error {
	form := webhookForm{URL: strings.TrimSpace(c.FormValue("url")), Description: c.FormValue("description"), EventTypes: formValues(c, "eventTypes")}
	if len(form.EventTypes) == 0 {
		form.Problems = []string{"choose at least one event type"}
		return h.renderWebhooksTab(c, http.StatusBadRequest, webhooksData{Form: form})
	}
	req := domain.WebhookEndpointRequest{URL: form.URL, EventTypes: form.EventTypes, Description: form.Description}
	created, err := h.Console.CreateWebhookEndpoint(c.UserContext(), modeOf(c), session(c).Email, c.Params("organizerId"), req)
	if problems := webhookProblems(err); problems != nil {
		form.Problems = problems
		return h.renderWebhooksTab(c, http.StatusBadRequest, webhooksData{Form: form})
	}
	if err != nil {
		return h.webhooksFailure(c, err)
	}
	// The secret is in this response only, as a new API key is (see createKey).
	return render(c, http.StatusCreated, "webhook_secret", page(c, "New webhook endpoint", "webhooks", created))
}

// webhookProblems returns the problems of a refused endpoint to show on its form (a URL the
// webhooks service does not allow, too many endpoints), or nil for other failures.
func webhookProblems(err error) []string {
	switch fault.KindOf(err) {
	case fault.Invalid, fault.Unprocessable, fault.Conflict:
		f, _ := fault.Of(err)
		return f.Problems
	}
	return nil
}

type endpointData struct {
	Endpoint      domain.WebhookEndpoint
	Deliveries    []domain.WebhookDelivery
	Pager         *pager
	Notice        string
	Since         string
	Problems      []string
	RetentionDays int
}

// retentionDays is how far back the webhooks service keeps deliveries to recover.
const retentionDays = 30

func (h *handlers) webhookEndpoint(c *fiber.Ctx) error {
	return h.renderWebhookEndpoint(c, http.StatusOK, endpointData{Notice: webhookNotice(c)})
}

func (h *handlers) renderWebhookEndpoint(c *fiber.Ctx, status int, d endpointData) error {
	p := pageOf(c)
	e, list, total, err := h.Console.WebhookEndpoint(c.UserContext(), modeOf(c), session(c).Email, c.Params("organizerId"), c.Params("endpointId"), p)
	if err != nil {
		return h.webhooksFailure(c, err)
	}
	d.Endpoint, d.Deliveries, d.Pager = e, list, newPager(p, len(list), total)
	d.RetentionDays = retentionDays
	return render(c, status, "webhook_endpoint", page(c, "Webhook endpoint", "webhooks", d))
}

func (h *handlers) setWebhookEnabled(enabled bool) fiber.Handler {
	done := map[bool]string{true: "enabled", false: "disabled"}[enabled]
	return func(c *fiber.Ctx) error {
		orgID, id := c.Params("organizerId"), c.Params("endpointId")
		if err := h.Console.SetWebhookEndpointEnabled(c.UserContext(), modeOf(c), session(c).Email, orgID, id, enabled); err != nil {
			return h.webhooksFailure(c, err)
		}
		return c.Redirect(withMode(c, endpointURL(orgID, id)+"?done="+done), http.StatusSeeOther)
	}
}

func (h *handlers) confirmDeleteWebhookPage(c *fiber.Ctx) error {
	if !domain.CanManage(membership(c).Role) {
		return errNotAllowed
	}
	e, _, _, err := h.Console.WebhookEndpoint(c.UserContext(), modeOf(c), session(c).Email, c.Params("organizerId"), c.Params("endpointId"), domain.Page{Limit: 1})
	if err != nil {
		return h.webhooksFailure(c, err)
	}
	return render(c, http.StatusOK, "webhook_delete", page(c, "Delete webhook endpoint", "webhooks", e))
}

func (h *handlers) deleteWebhookEndpoint(c *fiber.Ctx) error {
	orgID := c.Params("organizerId")
	if err := h.Console.DeleteWebhookEndpoint(c.UserContext(), modeOf(c), session(c).Email, orgID, c.Params("endpointId")); err != nil {
		return h.webhooksFailure(c, err)
	}
	return c.Redirect(withMode(c, "/orgs/"+orgID+"/webhooks?done=deleted"), http.StatusSeeOther)
}

func (h *handlers) rotateWebhookSecret(c *fiber.Ctx) error {
	rotated, err := h.Console.RotateWebhookSecret(c.UserContext(), modeOf(c), session(c).Email, c.Params("organizerId"), c.Params("endpointId"))
	if err != nil {
		return h.webhooksFailure(c, err)
	}
	return render(c, http.StatusOK, "webhook_secret", page(c, "New signing secret", "webhooks", rotated))
}

func (h *handlers) sendWebhookTest(c *fiber.Ctx) error {
	orgID, id := c.Params("organizerId"), c.Params("endpointId")
	if _, err := h.Console.SendWebhookTest(c.UserContext(), modeOf(c), session(c).Email, orgID, id); err != nil {
		return h.webhooksFailure(c, err)
	}
	return c.Redirect(withMode(c, endpointURL(orgID, id)+"?done=test"), http.StatusSeeOther)
}

func (h *handlers) recoverWebhookDeliveries(c *fiber.Ctx) error {
	orgID, id, since := c.Params("organizerId"), c.Params("endpointId"), c.FormValue("since")
	at, err := time.Parse("2006-01-02T15:04", since)
	if err != nil {
		at, err = time.Parse("2006-01-02T15:04:05", since) // datetime-local with seconds
	}
	if err != nil {
		return h.renderWebhookEndpoint(c, http.StatusBadRequest, endpointData{Since: since, Problems: []string{"since must be a date and time such as 2026-05-01T09:30 (UTC)"}})
	}
	n, err := h.Console.RecoverWebhookDeliveries(c.UserContext(), modeOf(c), session(c).Email, orgID, id, at.UTC())
	if problems := webhookProblems(err); problems != nil {
		return h.renderWebhookEndpoint(c, http.StatusBadRequest, endpointData{Since: since, Problems: problems})
	}
	if err != nil {
		return h.webhooksFailure(c, err)
	}
	return c.Redirect(withMode(c, endpointURL(orgID, id)+"?done=recovered&n="+strconv.Itoa(n)), http.StatusSeeOther)
}

type deliveryData struct {
	EndpointID string
	Delivery   domain.WebhookDelivery
	Notice     string
}

func (h *handlers) webhookDelivery(c *fiber.Ctx) error {
	endpointID := c.Params("endpointId")
	d, err := h.Console.WebhookDelivery(c.UserContext(), modeOf(c), session(c).Email, c.Params("organizerId"), endpointID, c.Params("deliveryId"))
	if err != nil {
		return h.webhooksFailure(c, err)
	}
	return render(c, http.StatusOK, "webhook_delivery", page(c, "Webhook delivery", "webhooks", deliveryData{EndpointID: endpointID, Delivery: d, Notice: webhookNotice(c)}))
}

func (h *handlers) retryWebhookDelivery(c *fiber.Ctx) error {
	orgID, id, deliveryID := c.Params("organizerId"), c.Params("endpointId"), c.Params("deliveryId")
	if err := h.Console.RetryWebhookDelivery(c.UserContext(), modeOf(c), session(c).Email, orgID, id, deliveryID); err != nil {
		return h.webhooksFailure(c, err)
	}
	return c.Redirect(withMode(c, endpointURL(orgID, id)+"/deliveries/"+deliveryID+"?done=retried"), http.StatusSeeOther)
}

func endpointURL(orgID, id string) string { return "/orgs/" + orgID + "/webhooks/" + id }

// webhookNotices are the confirmations shown after a redirect, by the done query parameter.
var webhookNotices = map[string]string{
	"enabled":  "The endpoint is enabled: new events are delivered to it.",
	"disabled": "The endpoint is disabled: it gets no new deliveries, and its pending ones fail.",
	"deleted":  "The endpoint was deleted.",
	"test":     "A test event (ping) is on its way: it shows in the delivery log below.",
	"retried":  "The delivery is attempted again now.",
}

func webhookNotice(c *fiber.Ctx) string {
	if c.Query("done") == "recovered" {
		n, _ := strconv.Atoi(c.Query("n"))
		return strconv.Itoa(max(n, 0)) + " failed deliveries are delivered again."
	}
	return webhookNotices[c.Query("done")]
}

// codeWebhooksUnavailable is the stable code of the tab's answer when the webhooks service
// does not answer.
const codeWebhooksUnavailable = "webhooks_unavailable"

// webhooksFailure answers err: the webhooks service not answering is a page of the tab that
// says so (503, X-Console-Error webhooks_unavailable), still with the organization's other
// tabs; any other failure is the console's usual answer.
func (h *handlers) webhooksFailure(c *fiber.Ctx, err error) error {
	if !errors.Is(err, app.ErrWebhooksUnavailable) {
		return err
	}
	c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(app.ErrWebhooksUnavailable.RetryAfter/time.Second)))
	c.Set("X-Console-Error", codeWebhooksUnavailable)
	return render(c, http.StatusServiceUnavailable, "webhooks_unavailable", page(c, "Webhooks unavailable", "webhooks", nil))
}
