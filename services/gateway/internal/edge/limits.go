package edge

import (
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// Limits are the gateway's rate limits; a zero Limit is off.
type Limits struct {
	// PerKey applies to every organizer route, per secret key.
	PerKey ratelimit.Limit
	// BrowserPerKey and BrowserPerIP apply to every browser route: a publishable key is shared
	// by every visitor of a site, so it gets a high limit, and each visitor's address its own.
	BrowserPerKey ratelimit.Limit
	BrowserPerIP  ratelimit.Limit
	// CheckoutSessionPerKey and CheckoutSessionPerIP limit checkout-session creation.
	CheckoutSessionPerKey ratelimit.Limit
	CheckoutSessionPerIP  ratelimit.Limit
	// ReceiptsPerKey and ReceiptsPerIP limit receipt lookups and sends together, against
	// enumeration of e-mail addresses.
	ReceiptsPerKey ratelimit.Limit
	ReceiptsPerIP  ratelimit.Limit
	// KeyLookupPerIP limits keys the gateway has not seen recently, per client address.
	KeyLookupPerIP ratelimit.Limit
	// PublicPerIP limits routes without a key: preflights and the OpenAPI document.
	PublicPerIP ratelimit.Limit
	// WebhookPerIP limits the payment provider's webhook deliveries.
	WebhookPerIP ratelimit.Limit
	// WaitlistPerKey and WaitlistPerIP limit waitlist joins.
	WaitlistPerKey ratelimit.Limit
	WaitlistPerIP  ratelimit.Limit
}

// limits are the limits of the keys of mode: test traffic has its own, lower ones (of which
// PublicPerIP and WebhookPerIP are unused: those routes take no key).
func (g *Gateway) limits(mode apikey.Mode) *Limits {
	if mode == apikey.Test {
		return &g.TestLimits
	}
	return &g.Limits
}

// bucketPrefix keeps the buckets of test traffic apart from those of live traffic: a test
// suite never spends a live key's or a live visitor's address's budget, nor the other way round.
func bucketPrefix(mode apikey.Mode) string {
	if mode == apikey.Test {
		return "test:"
	}
	return ""
}

type rule struct {
	bucket string
	byIP   bool
	limit  ratelimit.Limit
}

// rules returns the operation-specific limits besides PerKey.
func (l Limits) rules(opID string) []rule {
	switch opID {
	case opCheckoutSession:
		return []rule{{"checkout-session", false, l.CheckoutSessionPerKey}, {"checkout-session", true, l.CheckoutSessionPerIP}}
	case "browserLookupReceipts", "browserSendReceipts":
		return []rule{{"receipts", false, l.ReceiptsPerKey}, {"receipts", true, l.ReceiptsPerIP}}
	case "browserJoinWaitlist":
		return []rule{{"waitlist", false, l.WaitlistPerKey}, {"waitlist", true, l.WaitlistPerIP}}
	}
	return nil
}

// limit applies the surface's limits and the operation's own, those of the key's mode in
// buckets of that mode, sets the RateLimit headers of the
// tightest one and refuses with 429 when any is exhausted. Buckets are charged narrowest first,
// each stage only when every bucket before it admitted the request: the client address's, then
// the operation's bucket of the key (checkout sessions, receipts), then the surface's bucket of
// the key, which every request of a site draws from. An address past its own limits spends
// nothing of the key's, and a flood the operation's bucket refuses spends nothing of the
// site's page reads.
func (g *Gateway) limit(c *fiber.Ctx, op apispec.Operation, keyID, ip string, mode apikey.Mode) error {
	var perAddress, perOperation [2]ratelimit.Bucket
	var nAddress, nOperation int
	var perSurface ratelimit.Bucket
	limits, prefix := g.limits(mode), bucketPrefix(mode)
	network := ""
	if op.Surface == apispec.Browser {
		network = identity.ClientNetwork(ip)
		perAddress[0], nAddress = ratelimit.Bucket{Key: prefix + "browser:ip:" + network, Limit: limits.BrowserPerIP}, 1
		perSurface = ratelimit.Bucket{Key: prefix + "browser:key:" + keyID, Limit: limits.BrowserPerKey}
	} else {
		perSurface = ratelimit.Bucket{Key: prefix + "key:" + keyID, Limit: limits.PerKey}
	}
	for _, r := range limits.rules(op.ID) {
		if r.byIP {
			if network == "" {
				network = identity.ClientNetwork(ip)
			}
			perAddress[nAddress] = ratelimit.Bucket{Key: prefix + r.bucket + ":ip:" + network, Limit: r.limit}
			nAddress++
		} else {
			perOperation[nOperation] = ratelimit.Bucket{Key: prefix + r.bucket + ":key:" + keyID, Limit: r.limit}
			nOperation++
		}
	}
	d := g.Limiter.AllowAll(c.UserContext(), perAddress[:nAddress], perOperation[:nOperation], []ratelimit.Bucket{perSurface})
	if !d.Allowed {
		return tooMany(c, d)
	}
	setRateHeaders(c, d)
	return nil
}

// allowAddress takes one request from the client address's bucket of one purpose (lookups,
// preflights, webhooks) and answers 429 when it is empty.
func (g *Gateway) allowAddress(c *fiber.Ctx, purpose, ip string, limit ratelimit.Limit) error {
	if d := g.addressDecision(c, purpose, ip, limit); !d.Allowed {
		return tooMany(c, d)
	}
	return nil
}

// addressDecision takes one request from the client address's bucket of one purpose: IPv6
// clients are counted by their /64.
func (g *Gateway) addressDecision(c *fiber.Ctx, purpose, ip string, limit ratelimit.Limit) ratelimit.Decision {
	return g.Limiter.Allow(c.UserContext(), purpose+":ip:"+identity.ClientNetwork(ip), limit)
}

// tooMany is the 429 answer for a refused decision, with the refusing limit's RateLimit headers.
func tooMany(c *fiber.Ctx, d ratelimit.Decision) error {
	setRateHeaders(c, d)
	return httpserver.TooManyRequests("rate limit exceeded: "+strconv.Itoa(d.Limit.Rate)+" requests per "+d.Limit.Period.String()+"; retry after the Retry-After seconds", d.RetryAfter)
}

// setRateHeaders sets the RateLimit headers of d's limit, formatting the numbers on the stack.
func setRateHeaders(c *fiber.Ctx, d ratelimit.Decision) {
	if d.Limit.IsZero() {
		return
	}
	h := &c.Response().Header
	var buf [40]byte
	h.SetCanonical(headerRateLimitLimit, strconv.AppendInt(buf[:0], int64(d.Limit.Rate), 10))
	h.SetCanonical(headerRateLimitRemaining, strconv.AppendInt(buf[:0], int64(max(0, d.Remaining)), 10))
	h.SetCanonical(headerRateLimitReset, appendSeconds(buf[:0], d.ResetAfter))
	policy := append(strconv.AppendInt(buf[:0], int64(d.Limit.Rate), 10), ";w="...)
	h.SetCanonical(headerRateLimitPolicy, strconv.AppendInt(policy, int64(d.Limit.Period.Seconds()), 10))
}

// The RateLimit headers' names, as fasthttp writes them.
var (
	headerRateLimitLimit     = []byte("Ratelimit-Limit")
	headerRateLimitRemaining = []byte("Ratelimit-Remaining")
	headerRateLimitReset     = []byte("Ratelimit-Reset")
	headerRateLimitPolicy    = []byte("Ratelimit-Policy")
)

// appendSeconds appends d rounded up to whole seconds, at least 1 when positive.
func appendSeconds(b []byte, d time.Duration) []byte {
	if d <= 0 {
		return append(b, '0')
	}
	return strconv.AppendInt(b, int64(math.Ceil(d.Seconds())), 10)
}
