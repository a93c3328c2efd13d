package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/identity"
	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// signInLocks counts the statements of the service that take the sign-in advisory locks: one
// for each request for a link that reached the database, whose transaction then waits for the
// e-mail's and the network's locks.
type signInLocks struct{ n atomic.Int64 }

func (s *signInLocks) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "pg_advisory_xact_lock") {
		s.n.Add(1)
	}
	return ctx
}

func (*signInLocks) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// floodAnswer is the console's answer to one request of a flood.
type floodAnswer struct {
	status            int
	code, retryAfter  string
	checkInbox        bool
	err               error
	network, question string
}

// TestASignInFloodNeitherReachesTheDatabaseNorQueues: while a transaction holds the owner's
// e-mail lock (as a slow request for a link does), strangers flood sign-in requests for the
// owner from fresh browsers: 30 from one network, whose rate is 5 a minute, and one from each of
// 10 other networks. The one network's requests past its rate are refused (429, Retry-After,
// the same answer for any e-mail) without a transaction. Of the 15 admitted, 2 take the console
// pool's 2 connections and wait for the lock; the other 13 find no place and are answered 503
// with Retry-After at once, while the lock is still held, rather than queueing until their
// deadline. Key verification, on the API's pool, is answered all along. Once the lock is free the
// 2 are answered as usual, and the owner's own browser, on its own network, gets its link.
func TestASignInFloodNeitherReachesTheDatabaseNorQueues(t *testing.T) {
	const perMinute, conns, fromOne, others = 5, 2, 30, 10
	locks := &signInLocks{}
	env := authtest.Start(t, authtest.Options{SignInRequestsPerMinute: perMinute, ConsoleConns: conns, PoolTracer: locks})
	env.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) // stopped: no network's rate refills during the flood
	acme := newOrg(t, env, "Acme Races", "acme.test")
	keyHash := apikey.Hash(env.Key(t, acme.id, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read"}})["key"].(string))
	laptop := newBrowser(t, env)
	laptop.signIn(acme.owner)
	env.Clock.Advance(time.Minute) // the laptop's network has its rate again

	release := holdLock(t, env, pg.LockID("signin-email", acme.owner))
	before := locks.n.Load()
	const attacker = "198.51.100.66"
	var strangers []*browser
	for i := range fromOne + others {
		b := newBrowser(t, env)
		b.address = attacker
		if i >= fromOne {
			b.address = fmt.Sprintf("192.0.2.%d", i)
		}
		b.get("/signin") // a binding and its form's token; no database work
		strangers = append(strangers, b)
	}
	answers := make(chan floodAnswer, len(strangers))
	for _, b := range strangers {
		go func() { answers <- b.send(acme.owner) }()
	}

	var refused, busy []floodAnswer
	admitted := fromOne + others - (fromOne - perMinute)
	testkit.Eventually(t, 20*time.Second, func() string {
		for len(answers) > 0 {
			switch a := <-answers; a.status {
			case http.StatusTooManyRequests:
				refused = append(refused, a)
			case http.StatusServiceUnavailable:
				busy = append(busy, a)
			default:
				return fmt.Sprintf("a request was answered %+v while the lock is held: it cannot have reached the database", a)
			}
		}
		waiting := lockWaiters(t, env)
		if len(refused) != fromOne-perMinute || len(busy) != admitted-conns || waiting != conns {
			return fmt.Sprintf("%d requests refused, %d answered busy, %d waiting for the lock; want %d, %d and %d",
				len(refused), len(busy), waiting, fromOne-perMinute, admitted-conns, conns)
		}
		return ""
	})
	for _, a := range refused {
		if a.network != attacker || a.code != "rate_limited" || a.retryAfter == "" {
			t.Fatalf("refusal %+v, want one of the flooding network's, rate_limited with Retry-After", a)
		}
	}
	for _, a := range busy {
		if a.code != "service_unavailable" || a.retryAfter == "" {
			t.Fatalf("answer %+v to a request that found no place, want service_unavailable with Retry-After", a)
		}
	}
	for range 3 {
		if r := verifyKey(t, env, keyHash); r != http.StatusOK {
			t.Fatalf("key verification during the flood: %d", r)
		}
	}
	if n := locks.n.Load() - before; n != conns {
		t.Fatalf("%d requests reached the sign-in locks while %d places were held, want %d", n, conns, conns)
	}
	other := newBrowser(t, env)
	other.address = attacker
	other.get("/signin")
	if a := other.send("nobody@elsewhere.test"); a.status != http.StatusTooManyRequests || a.code != refused[0].code || a.retryAfter == "" {
		t.Fatalf("the flooding network asking for another e-mail: %+v, want the same refusal", a)
	}

	release()
	for range conns {
		if a := <-answers; a.err != nil || a.status != http.StatusOK || !a.checkInbox {
			t.Fatalf("a request that held a place, once the lock was free: %+v", a)
		}
	}

	mailed(env, acme.owner) // the strangers' links are sent before the owner asks for theirs
	link := laptop.askLink(acme.owner)
	if p := laptop.get(link); p.status != http.StatusOK {
		t.Fatalf("the owner opens the link after the flood: %d %s", p.status, p.body)
	}
	if p := laptop.post(link, nil); p.status != http.StatusSeeOther {
		t.Fatalf("the owner signs in after the flood: %d %s", p.status, p.body)
	}
	env.Clock.Advance(time.Minute / perMinute)
	if a := other.send("nobody@elsewhere.test"); a.status != http.StatusOK {
		t.Fatalf("the flooding network, its rate refilled: %+v", a)
	}
}

// send posts the sign-in form for email with the browser's binding and token; unlike post, it
// may run on any goroutine.
func (b *browser) send(email string) floodAnswer {
	form := url.Values{"email": {email}, "csrf": {b.csrf}}
	a := b.fetch(http.MethodPost, "/signin", form)
	a.question = email
	return a
}

// fetch sends a request with the browser's cookies, without following a redirect; unlike do,
// it may run on any goroutine, and keeps no cookie the answer sets.
func (b *browser) fetch(method, path string, form url.Values) floodAnswer {
	a := floodAnswer{network: b.address, question: path}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(b.t.Context(), method, b.env.ConsoleURL+path, body)
	if err != nil {
		a.err = err
		return a
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("X-Forwarded-For", b.address)
	for name, value := range b.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		a.err = err
		return a
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		a.err = err
		return a
	}
	a.checkInbox = strings.Contains(string(raw), "Check your inbox")
	a.status, a.code, a.retryAfter = res.StatusCode, res.Header.Get("X-Console-Error"), res.Header.Get("Retry-After")
	return a
}

// holdLock takes the advisory lock id in a transaction of the test's own, outside the
// service's pool, and returns what releases it (done at the test's end at the latest).
func holdLock(t *testing.T, env *authtest.Env, id int64) func() {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), env.Pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(t.Context(), "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		t.Fatal(err)
	}
	released := false
	release := func() {
		if !released {
			released = true
			_ = tx.Rollback(context.Background())
			_ = conn.Close(context.Background())
		}
	}
	t.Cleanup(release)
	return release
}

// lockWaiters counts the sessions of the service's database waiting for an advisory lock.
func lockWaiters(t *testing.T, env *authtest.Env) int {
	t.Helper()
	return waiters(t, env, "advisory")
}

// waiters counts the sessions of the service's database waiting for a lock of the kind event
// (pg_stat_activity's wait_event: advisory, relation).
func waiters(t *testing.T, env *authtest.Env, event string) int {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), env.Pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity
		WHERE wait_event_type = 'Lock' AND wait_event = $1 AND datname = current_database()`, event).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// verifyKey asks the internal API to verify the key with keyHash, as the gateway does, and returns
// the status. Its deadline only turns a verification that never gets a connection into a
// failure rather than a hung test.
func verifyKey(t *testing.T, env *authtest.Env, keyHash string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	body, _ := json.Marshal(map[string]string{"keyHash": keyHash})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, env.URL+"/internal/keys/verify", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(identity.Header, env.Token(t, identity.Principal{KeyID: "gateway", KeyType: identity.Service}))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("key verification during the flood was not answered: %v", err)
	}
	defer res.Body.Close()
	return res.StatusCode
}
