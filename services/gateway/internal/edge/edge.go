// Package edge is the gateway's HTTP surface: every operation of the OpenAPI document is routed
// to its owner after the checks the spec lists for its surface (keys, scopes, Origin, CORS),
// the rate limits and request-body validation.
package edge

import (
	"cmp"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/admission"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// BasePath prefixes every external route.
const BasePath = "/external/v1"

// Owners of the services the gateway routes to; each name is also the audience of the identity
// tokens the gateway sends there.
const (
	Catalog      = identity.Catalog
	Registration = identity.Registration
	Checkout     = identity.Checkout
	Webhooks     = identity.Webhooks
)

// owners maps each operation of the document to the service that serves it.
var owners = map[string]string{
	"organizerSearchEvents":        Catalog,
	"organizerGetEvent":            Catalog,
	"organizerGetPricingCards":     Catalog,
	"browserSearchEvents":          Catalog,
	"browserGetEvent":              Catalog,
	"browserGetPricingCards":       Catalog,
	"organizerCreateRegistration":  Registration,
	"organizerSearchRegistrations": Registration,
	"organizerUpdateRegistration":  Registration,
	"organizerDeleteRegistration":  Registration,
	"browserLookupReceipts":        Registration,
	"browserSendReceipts":          Registration,
	"browserCheckoutSummary":       Checkout,
	"browserCheckoutSession":       Checkout,

	"organizerCreateWebhookEndpoint":       Webhooks,
	"organizerListWebhookEndpoints":        Webhooks,
	"organizerGetWebhookEndpoint":          Webhooks,
	"organizerUpdateWebhookEndpoint":       Webhooks,
	"organizerDeleteWebhookEndpoint":       Webhooks,
	"organizerRotateWebhookEndpointSecret": Webhooks,
	"organizerTestWebhookEndpoint":         Webhooks,
	"organizerListWebhookDeliveries":       Webhooks,
	"organizerGetWebhookDelivery":          Webhooks,
	"organizerRetryWebhookDelivery":        Webhooks,
	"organizerRecoverWebhookDeliveries":    Webhooks,

	"organizerDeleteTestData":              Registration,
	"organizerListTestMail":                Registration,
	"organizerCompleteTestCheckoutSession": Checkout,
	"organizerFailTestCheckoutSession":     Checkout,
	"organizerExpireTestCheckoutSession":   Checkout,

	"organizerCheckIn":              Registration,
	"organizerCheckInBatch":         Registration,
	"organizerUndoCheckIn":          Registration,
	"browserJoinWaitlist":           Registration,
	"organizerListWaitlist":         Registration,
	"organizerCloseWaitlist":        Registration,
	"organizerOfferWaitlistEntry":   Registration,
	"organizerTransferRegistration": Registration,
	"organizerCreateRefund":         Checkout,
	"organizerListRefunds":          Checkout,
	"organizerGetRefund":            Checkout,

	// The waivers a transfer leaves pending.
	"organizerSignRegistrationWaivers": Registration,
}

// priorities order the operations for shedding (see admission): money in flight last, public
// reads first.
var priorities = map[string]admission.Priority{
	"browserCheckoutSession":       admission.Payments,
	"organizerCreateRegistration":  admission.Writes,
	"organizerUpdateRegistration":  admission.Writes,
	"organizerDeleteRegistration":  admission.Writes,
	"browserCheckoutSummary":       admission.Writes,
	"organizerSearchEvents":        admission.Reads,
	"organizerGetEvent":            admission.Reads,
	"organizerGetPricingCards":     admission.Reads,
	"organizerSearchRegistrations": admission.Reads,
	"browserSearchEvents":          admission.Public,
	"browserGetEvent":              admission.Public,
	"browserGetPricingCards":       admission.Public,
	"browserLookupReceipts":        admission.Public,
	"browserSendReceipts":          admission.Public,

	"organizerCreateWebhookEndpoint":       admission.Writes,
	"organizerUpdateWebhookEndpoint":       admission.Writes,
	"organizerDeleteWebhookEndpoint":       admission.Writes,
	"organizerRotateWebhookEndpointSecret": admission.Writes,
	"organizerTestWebhookEndpoint":         admission.Writes,
	"organizerRetryWebhookDelivery":        admission.Writes,
	"organizerRecoverWebhookDeliveries":    admission.Writes,
	"organizerListWebhookEndpoints":        admission.Reads,
	"organizerGetWebhookEndpoint":          admission.Reads,
	"organizerListWebhookDeliveries":       admission.Reads,
	"organizerGetWebhookDelivery":          admission.Reads,

	"organizerDeleteTestData":              admission.Writes,
	"organizerListTestMail":                admission.Reads,
	"organizerCompleteTestCheckoutSession": admission.Writes,
	"organizerFailTestCheckoutSession":     admission.Writes,
	"organizerExpireTestCheckoutSession":   admission.Writes,

	"organizerCheckIn":              admission.Writes,
	"organizerCheckInBatch":         admission.Writes,
	"organizerUndoCheckIn":          admission.Writes,
	"browserJoinWaitlist":           admission.Public,
	"organizerListWaitlist":         admission.Reads,
	"organizerCloseWaitlist":        admission.Writes,
	"organizerOfferWaitlistEntry":   admission.Writes,
	"organizerTransferRegistration": admission.Writes,
	"organizerCreateRefund":         admission.Payments,
	"organizerListRefunds":          admission.Reads,
	"organizerGetRefund":            admission.Reads,

	// The waivers a transfer leaves pending.
	"organizerSignRegistrationWaivers": admission.Writes,
}

// shareable are the operations whose answers the edge cache may keep when their owner allows
// it: the public reads a busy event page repeats.
var shareable = map[string]bool{
	"browserSearchEvents": true, "browserGetEvent": true, "browserGetPricingCards": true,
}

// Gateway holds what the routes need.
type Gateway struct {
	Keys    *keys.Store
	Limiter *ratelimit.Limiter
	Limits  Limits
	// TestLimits are the limits of test keys, in buckets of their own (see limits).
	TestLimits Limits
	Signer     *identity.Signer
	Validator  *apispec.Validator
	// Validated remembers large bodies that passed validation (nil: remember none).
	Validated *ValidatedBodies
	// Edge keeps owners' shareable answers (nil: keeps none).
	Edge      *edgecache.Cache
	ClientIP  *clientip.Resolver
	Upstreams map[string]*proxy.Upstream
	// Admission sheds requests an owner has no room for (nil: sheds none).
	Admission *admission.Controller
	Log       *slog.Logger
	// Now is the clock keys are checked against (tests move it).
	Now func() time.Time
}

// Register adds every route to app.
func (g *Gateway) Register(app *fiber.App) error {
	app.Use(refuseEncodedBodies)
	app.Get(BasePath+"/openapi.json", g.document(apispec.Document()))
	app.Get(BasePath+"/openapi-3.0.json", g.document(apispec.Document30()))
	if err := g.registerReference(app); err != nil {
		return err
	}
	preflight := map[string][]string{}
	for _, op := range apispec.Operations() {
		owner, ok := g.Upstreams[owners[op.ID]]
		if !ok {
			return fmt.Errorf("edge: operation %s has no owner upstream", op.ID)
		}
		if _, ok := priorities[op.ID]; !ok {
			return fmt.Errorf("edge: operation %s has no priority", op.ID)
		}
		path := BasePath + fiberPath(op.Path)
		var h fiber.Handler
		switch op.Surface {
		case apispec.Organizer:
			h = g.organizer(op, owner)
		case apispec.Browser:
			if op.TestOnly { // the browser surface has none, and refuses none of them
				return fmt.Errorf("edge: operation %s is test-only on the browser surface", op.ID)
			}
			h = g.browser(op, owner)
			preflight[path] = append(preflight[path], op.Method)
		default:
			return fmt.Errorf("edge: operation %s has unknown surface %q", op.ID, op.Surface)
		}
		app.Add(op.Method, path, h)
	}
	// A literal segment must win over a parameter (/browser/events/search over
	// /browser/events/:eventId), and Fiber tries routes in the order they were added.
	paths := slices.SortedFunc(maps.Keys(preflight), func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.Count(a, ":"), strings.Count(b, ":")), cmp.Compare(a, b))
	})
	for _, path := range paths {
		app.Options(path, g.preflight(preflight[path]))
	}
	checkout, ok := g.Upstreams[Checkout]
	if !ok {
		return fmt.Errorf("edge: no %s upstream for the Stripe webhook", Checkout)
	}
	app.Post("/webhooks/stripe", g.webhook(checkout))
	return nil
}

// refuseEncodedBodies answers 415 to a request whose body is compressed (Content-Encoding):
// Fiber would inflate it, without a bound, each time the body is read, and the API takes plain
// JSON only.
func refuseEncodedBodies(c *fiber.Ctx) error {
	if ce := c.Request().Header.ContentEncoding(); len(ce) > 0 && !strings.EqualFold(string(ce), "identity") {
		return errEncodedBody
	}
	return c.Next()
}

var errEncodedBody = httpserver.NewError(http.StatusUnsupportedMediaType, "request bodies must not be compressed (Content-Encoding)")

// fiberPath turns an OpenAPI template (/events/{eventId}) into a Fiber route (/events/:eventId).
func fiberPath(p string) string {
	r := strings.NewReplacer("{", ":", "}", "")
	return r.Replace(p)
}

// forward mints the identity token for p, addressed to owner, and sends the request there with
// its place at the owner (see admit), which it gives back once the owner answered; f carries
// what the route adds besides the identity, the client address and the request id.
func (g *Gateway) forward(c *fiber.Ctx, owner *proxy.Upstream, place admission.Permit, p identity.Principal, ip string, f proxy.Forward) error {
	tok, err := g.Signer.Token(owner.Name, p)
	if err != nil {
		release(place)
		return fmt.Errorf("edge: mint identity: %w", err)
	}
	f.Identity, f.ClientIP, f.RequestID = tok, ip, httpserver.RequestID(c)
	err = owner.Do(c, f)
	switch {
	case place == nil:
	case err != nil: // unreachable or too slow: says nothing of how fast the owner answers
		place.Drop()
	default:
		place.Record()
	}
	return err
}

// shed refuses a request of priority prio for owner when the gateway, for its priority, or the
// owner has no room for it: once the request is known to need its owner, before it spends its
// client's rate limits, so a refused request costs them nothing and waits for none of them.
func (g *Gateway) shed(c *fiber.Ctx, owner *proxy.Upstream, prio admission.Priority) error {
	if g.Admission == nil {
		return nil
	}
	if err := g.Admission.Check(c.UserContext(), owner.Name, prio); err != nil {
		return errShed
	}
	return nil
}

// admit takes a place for a request of priority prio at owner, or refuses it when the owner has
// no room left: after its rate limits, before its body is validated. The place is nil when the
// gateway sheds nothing.
func (g *Gateway) admit(c *fiber.Ctx, owner *proxy.Upstream, prio admission.Priority) (admission.Permit, error) {
	if g.Admission == nil {
		return nil, nil
	}
	place, err := g.Admission.Acquire(c.UserContext(), owner.Name, prio)
	if err != nil {
		return nil, errShed
	}
	return place, nil
}

// release gives back a place the request will not use.
func release(place admission.Permit) {
	if place != nil {
		place.Drop()
	}
}

// errShed is the answer to a request shed to keep its owner out of overload.
var errShed = &httpserver.Error{
	Status:  http.StatusServiceUnavailable,
	Message: "the API is shedding load to keep serving what it has room for; retry after the Retry-After seconds",
	Headers: map[string]string{fiber.HeaderRetryAfter: "1"},
}

// clientIP is the address of the client behind the request (see clientip).
func (g *Gateway) clientIP(c *fiber.Ctx) string {
	remote, _ := netip.AddrFromSlice(c.Context().RemoteIP())
	return g.ClientIP.ResolveAddr(remote, c.Get(fiber.HeaderXForwardedFor)).String()
}
