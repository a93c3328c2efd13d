package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/podiumhq/podium/libs/redisconn"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

func allowN(t *testing.T, l *ratelimit.Limiter, key string, limit ratelimit.Limit, n int) (allowed int, last ratelimit.Decision) {
	for range n {
		last = l.Allow(t.Context(), key, limit)
		if last.Allowed {
			allowed++
		}
	}
	return allowed, last
}

func TestRedisLimitIsSharedBetweenInstances(t *testing.T) {
	rdb, prefix := testkit.Redis(t)
	a := ratelimit.New(rdb, testkit.Logger(t), 1)
	b := ratelimit.New(rdb, testkit.Logger(t), 1)
	limit, _ := ratelimit.ParseLimit("5/m")

	gotA, _ := allowN(t, a, prefix+"k", limit, 3)
	gotB, last := allowN(t, b, prefix+"k", limit, 5)
	if gotA != 3 || gotB != 2 {
		t.Fatalf("instance a allowed %d, b allowed %d; want 3 and 2 out of a shared 5", gotA, gotB)
	}
	if last.Allowed || last.RetryAfter <= 0 || last.Remaining != 0 {
		t.Fatalf("refusal %+v lacks a retry time", last)
	}
	if d := a.Allow(t.Context(), prefix+"other", limit); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("another key shares the bucket: %+v", d)
	}
	if a.FallingBack() {
		t.Fatal("limiter fell back with Redis up")
	}
}

func TestLimitsInProcessWhileRedisIsDown(t *testing.T) {
	rdb, err := redisconn.Open("redis://127.0.0.1:1/0", false) // nothing listens on port 1
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	limit, _ := ratelimit.ParseLimit("5/m")
	allowed, last := allowN(t, l, "k", limit, 8)
	if allowed != 5 || last.Allowed || last.RetryAfter <= 0 {
		t.Fatalf("without Redis allowed %d of 8 (last %+v); want exactly 5 and a retry time", allowed, last)
	}
	if !l.FallingBack() {
		t.Fatal("FallingBack() = false while Redis is down")
	}

	half := ratelimit.New(rdb, testkit.Logger(t), 0.5)
	if allowed, _ := allowN(t, half, "k", limit, 8); allowed != 2 {
		t.Fatalf("with a local share of 0.5 allowed %d of 8, want 2 (floor of 5/2)", allowed)
	}
}

// TestANewShareAppliesToRunningLocalLimits: when the number of instances changes while Redis is
// down, the in-process buckets already in use take the new share at once, keeping what they
// have up to their new burst.
func TestANewShareAppliesToRunningLocalLimits(t *testing.T) {
	rdb, err := redisconn.Open("redis://127.0.0.1:1/0", false) // nothing listens on port 1
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	limit, _ := ratelimit.ParseLimit("10/h")
	if allowed, _ := allowN(t, l, "k", limit, 2); allowed != 2 {
		t.Fatalf("allowed %d of the first 2 under 10/h", allowed)
	}
	l.SetShare(0.25)
	if allowed, _ := allowN(t, l, "k", limit, 10); allowed != 2 {
		t.Fatalf("with a quarter share, a bucket with 8 tokens left allowed %d more, want its new burst of 2", allowed)
	}
	l.SetShare(1)
	if allowed, _ := allowN(t, l, "k", limit, 10); allowed != 0 {
		t.Fatalf("a larger share gave an empty bucket %d tokens at once, want none before it refills", allowed)
	}
}

func TestParseLimit(t *testing.T) {
	for in, want := range map[string]ratelimit.Limit{
		"50/s": {Rate: 50, Burst: 50, Period: time.Second},
		"10/m": {Rate: 10, Burst: 10, Period: time.Minute},
		"3/h":  {Rate: 3, Burst: 3, Period: time.Hour},
		"0":    {},
		"":     {},
	} {
		got, err := ratelimit.ParseLimit(in)
		if err != nil || got != want {
			t.Errorf("ParseLimit(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"10", "x/s", "-1/s", "10/d", "10/"} {
		if _, err := ratelimit.ParseLimit(bad); err == nil {
			t.Errorf("ParseLimit(%q) accepted", bad)
		}
	}
}

func TestTighter(t *testing.T) {
	ok5 := ratelimit.Decision{Allowed: true, Remaining: 5}
	ok1 := ratelimit.Decision{Allowed: true, Remaining: 1}
	no := ratelimit.Decision{Allowed: false, Remaining: 0}
	if ok5.Tighter(ok1) != ok1 || ok1.Tighter(ok5) != ok1 || ok1.Tighter(no) != no || no.Tighter(ok5) != no {
		t.Fatal("Tighter does not prefer refusals, then fewer remaining")
	}
}

func TestDisabledLimitAllowsEverything(t *testing.T) {
	rdb, _ := testkit.Redis(t)
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	if allowed, _ := allowN(t, l, "k", ratelimit.Limit{}, 1000); allowed != 1000 {
		t.Fatalf("a zero limit refused requests")
	}
}

func TestLeasedTokensNeverOverAdmitAcrossInstances(t *testing.T) {
	rdb, prefix := testkit.Redis(t)
	a := ratelimit.New(rdb, testkit.Logger(t), 1)
	b := ratelimit.New(rdb, testkit.Logger(t), 1)
	limit, _ := ratelimit.ParseLimit("600/h") // chunks of one token, no refill within the test
	gotA, _ := allowN(t, a, prefix+"slow", limit, 400)
	gotB, _ := allowN(t, b, prefix+"slow", limit, 400)
	if gotA+gotB != 600 {
		t.Fatalf("a limit too slow to lease admitted %d+%d, want exactly its burst of 600", gotA, gotB)
	}

	hot, _ := ratelimit.ParseLimit("2000/s") // leased in chunks of 32
	start := time.Now()
	gotA, _ = allowN(t, a, prefix+"hot", hot, 2500)
	gotB, _ = allowN(t, b, prefix+"hot", hot, 2500)
	// The shared bucket holds a burst of 2000 and refills 2000/s: leases can only spend what it
	// handed out, so the total stays within burst + refill; the unspent ends of two leases may
	// refuse a few early.
	most := 2000 + int(2000*time.Since(start).Seconds()) + 1
	if total := gotA + gotB; total < 2000-2*32 || total > most {
		t.Fatalf("two instances admitted %d+%d=%d; the bucket allowed at most %d", gotA, gotB, total, most)
	}
	if gotB == 0 {
		t.Fatal("the second instance got nothing: the first kept the whole bucket")
	}
}

// TestAllowAllDrawsFromEveryBucket: one request draws from each bucket of a stage (exact ones
// and leased ones, in Redis at once), is refused when any bucket is empty, and reports the
// tightest.
func TestAllowAllDrawsFromEveryBucket(t *testing.T) {
	rdb, prefix := testkit.Redis(t)
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	exact, _ := ratelimit.ParseLimit("3/m")    // one token per Redis call
	leased, _ := ratelimit.ParseLimit("600/s") // chunks of leased tokens
	off := ratelimit.Limit{}
	stage := []ratelimit.Bucket{
		{Key: prefix + "ip", Limit: exact}, {Key: prefix + "key", Limit: leased},
		{Key: prefix + "session", Limit: exact}, {Key: prefix + "off", Limit: off},
	}
	for i := range 3 {
		d := l.AllowAll(t.Context(), stage)
		if !d.Allowed || d.Limit != exact || d.Remaining != 2-i {
			t.Fatalf("request %d: %+v, want allowed with the exact buckets' %d remaining", i+1, d, 2-i)
		}
	}
	if d := l.AllowAll(t.Context(), stage); d.Allowed || d.RetryAfter <= 0 {
		t.Fatalf("fourth request: %+v, want refused by the exact buckets", d)
	}
}

// TestRefusedRequestsSpendNoLaterStage: a request refused by a bucket of its first stage (a
// client address's own) takes nothing from the stage after it (the key's, shared by every
// client), so one address past its limit cannot empty the key's bucket for the others; a
// request the second stage refuses has spent its first stage, which is its own.
func TestRefusedRequestsSpendNoLaterStage(t *testing.T) {
	rdb, prefix := testkit.Redis(t)
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	perAddress, _ := ratelimit.ParseLimit("2/m")
	perKey, _ := ratelimit.ParseLimit("5/m")
	shared := []ratelimit.Bucket{{Key: prefix + "key", Limit: perKey}}
	from := func(addr string) ratelimit.Decision {
		return l.AllowAll(t.Context(), []ratelimit.Bucket{{Key: prefix + "ip:" + addr, Limit: perAddress}}, shared)
	}
	admitted := 0
	for range 50 {
		if from("attacker").Allowed {
			admitted++
		}
	}
	if admitted != 2 {
		t.Fatalf("the attacking address was admitted %d times, want its own limit of 2", admitted)
	}
	for _, addr := range []string{"buyer-1", "buyer-2", "buyer-3"} {
		if d := from(addr); !d.Allowed {
			t.Fatalf("%s after the attack: %+v, want admitted (the key's bucket kept what the attack did not take)", addr, d)
		}
	}
	if d := from("buyer-4"); d.Allowed || d.Limit != perKey {
		t.Fatalf("a sixth admitted request: %+v, want refused by the key's limit of 5", d)
	}
	if d := l.Allow(t.Context(), prefix+"ip:buyer-4", perAddress); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("buyer-4's own bucket after the key refused it: %+v, want one of its two spent", d)
	}
}

// redisCalls counts the limiter's scripts sent to Redis (not the handshakes of new connections)
// on a request's path and off it: background renewals run under a timeout of their own, while
// the requests of these tests have no deadline. renewalDelay holds each renewal back before it
// is sent, as a busy machine does.
type redisCalls struct {
	request, background, tokens atomic.Int64
	renewalDelay                time.Duration
}

func (h *redisCalls) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *redisCalls) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if name := cmd.Name(); name != "evalsha" && name != "eval" {
			return next(ctx, cmd)
		}
		if _, renewal := ctx.Deadline(); renewal {
			h.background.Add(1)
			time.Sleep(h.renewalDelay)
		} else {
			h.request.Add(1)
		}
		// redis_rate's script takes the tokens asked for as its last argument.
		if args := cmd.Args(); len(args) > 0 {
			if n, ok := args[len(args)-1].(int); ok {
				h.tokens.Add(int64(n))
			}
		}
		return next(ctx, cmd)
	}
}

func (h *redisCalls) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestBusyLeasesAreRenewedAheadOfTime: a steady stream of requests on a bucket keeps drawing from
// leases renewed in the background, so once its chunks have grown to its pace (from one token,
// at most doubling: 1, 2, 4, then 8, the first chunk renewed ahead) only a long pause could make
// a request wait for Redis itself; separate leases lapsing would make one in every window wait.
// Both entry points renew: Allow, and AllowAll, which the gateway's key and address limits use.
func TestBusyLeasesAreRenewedAheadOfTime(t *testing.T) {
	limit, _ := ratelimit.ParseLimit("10000/s") // leased in chunks
	for _, tc := range []struct {
		name    string
		buckets int64
		allow   func(*ratelimit.Limiter, context.Context, string) ratelimit.Decision
	}{
		{"Allow", 1, func(l *ratelimit.Limiter, ctx context.Context, key string) ratelimit.Decision {
			return l.Allow(ctx, key, limit)
		}},
		{"AllowAll", 2, func(l *ratelimit.Limiter, ctx context.Context, key string) ratelimit.Decision {
			return l.AllowAll(ctx, []ratelimit.Bucket{{Key: key, Limit: limit}, {Key: key + ":ip", Limit: limit}})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rdb, prefix := testkit.Redis(t)
			calls := &redisCalls{}
			rdb.AddHook(calls)
			l := ratelimit.New(rdb, testkit.Logger(t), 1)
			synctest.Test(t, func(t *testing.T) {
				for i := range 100 { // one request every 5 ms for half a second: five lease windows
					if d := tc.allow(l, t.Context(), prefix+"busy"); !d.Allowed {
						t.Fatalf("request %d refused: %+v", i, d)
					}
					time.Sleep(5 * time.Millisecond)
				}
			})
			// The bubble's clock stands still while a renewal waits on Redis, so every renewal
			// lands within its window: only the requests of the first four chunks of each bucket
			// ask Redis themselves.
			if n := calls.request.Load(); n > 4*tc.buckets {
				t.Fatalf("%d Redis calls on the requests' path, want those of the first four chunks of %d buckets only", n, tc.buckets)
			}
			if n := calls.background.Load(); n < 5 {
				t.Fatalf("%d leases renewed in the background over five windows", n)
			}
		})
	}
}

// TestSlowRenewalsKeepABusyBucketOffRedis: when a renewal's answer comes after its lease's
// window (80ms late, as on a machine with no CPU to spare), the requests meanwhile keep spending
// the tokens already taken, and any that find none wait for that renewal, rather than the
// lease lapsing and a request asking Redis itself while every other one waits for it.
func TestSlowRenewalsKeepABusyBucketOffRedis(t *testing.T) {
	rdb, prefix := testkit.Redis(t)
	calls := &redisCalls{renewalDelay: 80 * time.Millisecond}
	rdb.AddHook(calls)
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	limit, _ := ratelimit.ParseLimit("10000/s")
	synctest.Test(t, func(t *testing.T) {
		for i := range 200 { // one request every 5 ms for a second: ten lease windows
			if d := l.Allow(t.Context(), prefix+"busy", limit); !d.Allowed {
				t.Fatalf("request %d refused: %+v", i, d)
			}
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Second) // the last renewal's answer
	})
	if n, bg := calls.request.Load(), calls.background.Load(); n > 4 || bg < 5 {
		t.Fatalf("%d Redis calls on the requests' path and %d renewals; want those of the first four chunks only, the rest renewed", n, bg)
	}
}

// TestSmallLeasesAreNotRenewedAhead: a bucket used in bursts of two, each after the previous
// lease lapsed, takes from Redis what its requests spend: after the first burst's growth from one
// token to two, one lease of two per burst, nothing renewed ahead and at most one token unspent.
func TestSmallLeasesAreNotRenewedAhead(t *testing.T) {
	rdb, prefix := testkit.Redis(t)
	calls := &redisCalls{}
	rdb.AddHook(calls)
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	limit, _ := ratelimit.ParseLimit("20/s")
	synctest.Test(t, func(t *testing.T) {
		for i := range 5 {
			for range 2 {
				if d := l.AllowAll(t.Context(), []ratelimit.Bucket{{Key: prefix + "small", Limit: limit}}); !d.Allowed {
					t.Fatalf("burst %d refused: %+v", i, d)
				}
			}
			time.Sleep(150 * time.Millisecond)
		}
	})
	if n, bg, tokens := calls.request.Load(), calls.background.Load(), calls.tokens.Load(); n != 6 || bg != 0 || tokens > 11 {
		t.Fatalf("%d leases of %d tokens in all taken by the requests and %d renewals; want 6 leases, at most 11 tokens for 10 requests, no renewal", n, tokens, bg)
	}
}

// TestABurstOnAnEmptyLeaseSharesItsRedisCalls: many requests arriving at once on a bucket with
// no lease wait for one request's Redis call instead of each making its own; as the chunks
// double, 64 requests need about log2(64) calls, not 64.
func TestABurstOnAnEmptyLeaseSharesItsRedisCalls(t *testing.T) {
	rdb, prefix := testkit.Redis(t)
	calls := &redisCalls{}
	rdb.AddHook(calls)
	l := ratelimit.New(rdb, testkit.Logger(t), 1)
	limit, _ := ratelimit.ParseLimit("100000/s")
	var wg sync.WaitGroup
	var refused atomic.Int32
	for range 64 {
		wg.Go(func() {
			if !l.Allow(t.Context(), prefix+"burst", limit).Allowed {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if n := calls.request.Load() + calls.background.Load(); refused.Load() > 0 || n > 16 {
		t.Fatalf("64 requests at once made %d Redis calls (%d refused); want them to share calls", n, refused.Load())
	}
}

// TestARefusedBucketIsNotAskedAgainBeforeItsRetryTime: once Redis refuses a bucket, leased or
// taken a token at a time, the requests before its retry time are refused without a call (no
// token can appear sooner), with the retry time left; the first request after it asks Redis
// again.
func TestARefusedBucketIsNotAskedAgainBeforeItsRetryTime(t *testing.T) {
	for _, tc := range []struct{ name, limit string }{
		{"leased", "50/s"},            // in chunks of up to 5, too few to renew ahead
		{"a token at a time", "10/m"}, // less than one token per lease window
	} {
		t.Run(tc.name, func(t *testing.T) {
			rdb, prefix := testkit.Redis(t)
			calls := &redisCalls{}
			rdb.AddHook(calls)
			l := ratelimit.New(rdb, testkit.Logger(t), 1)
			limit, _ := ratelimit.ParseLimit(tc.limit)
			synctest.Test(t, func(t *testing.T) {
				for i := 0; l.Allow(t.Context(), prefix+"flood", limit).Allowed; i++ { // spend the burst
					if i > 200 {
						t.Fatalf("a burst of %d admitted over 200 requests", limit.Burst)
					}
				}
				before := calls.request.Load() + calls.background.Load()
				allowed, last := allowN(t, l, prefix+"flood", limit, 1000)
				if n := calls.request.Load() + calls.background.Load() - before; allowed != 0 || n != 0 || last.RetryAfter <= 0 {
					t.Fatalf("1000 requests after the refusal: %d admitted with %d Redis calls (last %+v); want all refused without one", allowed, n, last)
				}
				// Redis keeps its own time, which the bubble does not move: what shows is the call.
				before = calls.request.Load()
				time.Sleep(last.RetryAfter)
				l.Allow(t.Context(), prefix+"flood", limit)
				if n := calls.request.Load() - before; n != 1 {
					t.Fatalf("%d Redis calls by the first request after the retry time, want 1", n)
				}
			})
		})
	}
}
