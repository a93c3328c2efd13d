package e2e

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// sessionFrom posts a checkout session with a publishable key as the client at ip (the suite's
// gateways trust X-Forwarded-For from 127.0.0.1). The body need not be valid: limits apply first.
func sessionFrom(t *testing.T, key, ip string) response {
	return sessionAt(t, sys.GatewayURL(), key, ip)
}

// sessionAt is sessionFrom through the gateway at base.
func sessionAt(t *testing.T, base, key, ip string) response {
	h := browser(key, site)
	h["X-Forwarded-For"] = ip
	return do(t, req{"POST", base + "/external/v1/browser/checkout/registration/session", h, "{}"})
}

func TestCheckoutSessionLimitPerKey(t *testing.T) {
	org := newOrganizer(t)
	k := newKey(t, org, stack.KeySpec{Type: "publishable", Origins: []string{site}})
	// Each request comes from another address, so only the per-key limit can refuse.
	for i := range checkoutPerKeyLimit {
		if res := sessionFrom(t, k.Key, "198.51.100."+strconv.Itoa(i+1)); res.status == 429 {
			t.Fatalf("request %d refused under the per-key limit of %d: %s", i+1, checkoutPerKeyLimit, res.body)
		}
	}
	res := sessionFrom(t, k.Key, "198.51.100.99")
	wantError(t, res, 429, "rate limit exceeded")
	wantCode(t, res, 429, "rate_limited")
	wantRetryHeaders(t, res, checkoutPerKeyLimit)
}

func TestCheckoutSessionLimitPerIP(t *testing.T) {
	org := newOrganizer(t)
	// Each request uses another key, so only the per-IP limit can refuse.
	keys := make([]stack.Key, checkoutPerIPLimit+1)
	for i := range keys {
		keys[i] = newKey(t, org, stack.KeySpec{Type: "publishable", Origins: []string{site}})
	}
	for i := range checkoutPerIPLimit {
		if res := sessionFrom(t, keys[i].Key, "203.0.113.7"); res.status == 429 {
			t.Fatalf("request %d refused under the per-IP limit of %d", i+1, checkoutPerIPLimit)
		}
	}
	res := sessionFrom(t, keys[checkoutPerIPLimit].Key, "203.0.113.7")
	wantError(t, res, 429, "rate limit exceeded")
	wantRetryHeaders(t, res, checkoutPerIPLimit)
	if res := sessionFrom(t, keys[checkoutPerIPLimit].Key, "203.0.113.8"); res.status == 429 {
		t.Fatal("another client address shares the refused one's limit")
	}
}

func wantRetryHeaders(t *testing.T, res response, limit int) {
	t.Helper()
	if ra, err := strconv.Atoi(res.header.Get("Retry-After")); err != nil || ra < 1 {
		t.Fatalf("Retry-After %q", res.header.Get("Retry-After"))
	}
	if res.header.Get("RateLimit-Limit") != strconv.Itoa(limit) || res.header.Get("RateLimit-Remaining") != "0" || res.header.Get("RateLimit-Reset") == "" {
		t.Fatalf("RateLimit headers %v", res.header)
	}
}

// TestLimitsHoldWithoutRedis stops the gateways' Redis: requests keep being served and limited
// in-process, never failing with a 5xx, and the two gateways together let through no more than
// a limit allows, each allowing its share (one over the instances it counted); when Redis is
// back, shared limits resume.
func TestLimitsHoldWithoutRedis(t *testing.T) {
	org := newOrganizer(t)
	k := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
	pub := newKey(t, org, stack.KeySpec{Type: "publishable", Origins: []string{site}})
	gateways := sys.GatewayURLs
	if len(gateways) < 2 {
		t.Fatalf("the suite runs %d gateways, this test needs two", len(gateways))
	}
	for _, base := range gateways {
		testkit.Eventually(t, 30*time.Second, func() string {
			if n := metricTotal(t, base, "gateway_instances"); n < len(gateways) {
				return fmt.Sprintf("gateway %s counts %d instances, want at least %d", base, n, len(gateways))
			}
			return ""
		})
	}
	if err := sys.StopRedis(); err != nil {
		t.Fatal(err)
	}

	// Checkout sessions of one key from as many addresses, spread over both gateways: only the
	// key's limit can refuse them, and it refills one session every 12 seconds.
	admitted := 0
	for i := range 4 * checkoutPerKeyLimit {
		res := sessionAt(t, gateways[i%len(gateways)], pub.Key, "192.0.2."+strconv.Itoa(100+i))
		if res.status >= 500 {
			t.Fatalf("a checkout session with Redis down: %d %s", res.status, res.body)
		}
		if res.status != 429 {
			admitted++
		}
	}
	if admitted == 0 || admitted > checkoutPerKeyLimit {
		t.Fatalf("with Redis down, %d gateways let %d of %d checkout sessions through, want between 1 and the key's limit of %d",
			len(gateways), admitted, 4*checkoutPerKeyLimit, checkoutPerKeyLimit)
	}
	// The requests go at once, so that they outrun the in-process limit's refill however slow
	// the machine is.
	read := req{"GET", gw("/organizer/events/evt_nope"), secret(k.Key), nil}
	answers := make([]response, 4*perKeyLimit)
	errs := make([]error, len(answers))
	start := time.Now()
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i], errs[i] = roundTrip(t.Context(), read) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	counts := map[int]int{}
	for i, res := range answers {
		if errs[i] != nil {
			t.Fatalf("a read with Redis down: %v", errs[i])
		}
		counts[res.status]++
		if res.status >= 500 {
			t.Fatalf("a %d with Redis down: %s", res.status, res.body)
		}
		if res.status >= 400 {
			standardError(t, read, res.status, res.body)
		}
	}
	// The in-process limit allows its burst plus what it emits while the requests run.
	allowed := perKeyLimit + int(elapsed.Seconds()*perKeyLimit) + 1
	if counts[404] == 0 || counts[429] == 0 || counts[404] > allowed {
		t.Fatalf("with Redis down, %v: want requests served (404 from catalog, at most %d) and the rest limited", counts, allowed)
	}

	if err := sys.StartRedis(t.Context()); err != nil {
		t.Fatal(err)
	}
	opt, _ := redis.ParseURL(sys.RedisURL)
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	fresh := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
	testkit.Eventually(t, 10*time.Second, func() string {
		if rdb.Exists(t.Context(), "rate:key:"+fresh.ID).Val() > 0 {
			return ""
		}
		// The check runs more often than the key's limit allows: a 429 is the limit at work.
		if res := do(t, req{"GET", gw("/organizer/events/evt_nope"), secret(fresh.Key), nil}); res.status != 404 && res.status != 429 {
			t.Fatalf("after Redis came back: %d %s", res.status, res.body)
		}
		return "the gateway did not return to Redis-backed limits within 10s of Redis coming back"
	})
}
