package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func TestSignInThroughTheEmailedLinkOpensASession(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)

	if p := b.get("/orgs/" + acme.id + "/api"); p.status != http.StatusSeeOther || p.location != "/signin" {
		t.Fatalf("signed out: %d %q, want a redirect to /signin", p.status, p.location)
	}
	link := b.askLink(acme.owner)
	confirm := b.get(link)
	if confirm.status != http.StatusOK || !strings.Contains(confirm.body, "Sign in as "+acme.owner) {
		t.Fatalf("confirmation page: %d %s", confirm.status, confirm.body)
	}
	if _, ok := b.cookies["__Host-podium-session"]; ok {
		t.Fatal("opening the link signed in: only its form may (mail scanners open links)")
	}
	if p := b.post(link, nil); p.status != http.StatusSeeOther || p.location != "/" {
		t.Fatalf("sign in: %d %q", p.status, p.location)
	}
	if p := b.get("/"); p.status != http.StatusSeeOther || p.location != "/orgs/"+acme.id+"/api" {
		t.Fatalf("home of a member of one organization: %d %q", p.status, p.location)
	}
	if p := b.get("/orgs/" + acme.id + "/api"); p.status != http.StatusOK || !strings.Contains(p.body, "Acme Races") {
		t.Fatalf("API tab: %d %s", p.status, p.body)
	}
}

func TestAUsedOrExpiredLinkIsRefused(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")

	b := newBrowser(t, env)
	link := b.askLink(acme.owner)
	b.get(link)
	if p := b.post(link, nil); p.status != http.StatusSeeOther {
		t.Fatalf("first use: %d %s", p.status, p.body)
	}
	delete(b.cookies, "__Host-podium-session")
	if p := b.get(link); p.status != http.StatusGone || p.code != "signin_link_invalid" {
		t.Fatalf("used link opened: %d %q", p.status, p.code)
	}
	if p := b.post(link, nil); p.status != http.StatusGone || p.code != "signin_link_invalid" {
		t.Fatalf("used link posted: %d %q", p.status, p.code)
	}

	late := newBrowser(t, env)
	link = late.askLink(acme.owner)
	late.get(link)
	env.Clock.Advance(authtest.SignInLinkTTL)
	if p := late.post(link, nil); p.status != http.StatusGone || p.code != "signin_link_invalid" {
		t.Fatalf("expired link: %d %q", p.status, p.code)
	}
	if _, ok := late.cookies["__Host-podium-session"]; ok {
		t.Fatal("an expired link signed in")
	}
}

func TestALinkSignsInOnlyTheBrowserThatAskedForIt(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	asker := newBrowser(t, env)
	link := asker.askLink(acme.owner)

	thief := newBrowser(t, env)
	if p := thief.get(link); p.status != http.StatusForbidden || p.code != "signin_link_other_browser" {
		t.Fatalf("another browser opens the link: %d %q", p.status, p.code)
	}
	if p := thief.post(link, nil); p.status != http.StatusForbidden {
		t.Fatalf("another browser posts the link: %d %q", p.status, p.code)
	}
	asker.get(link)
	if p := asker.post(link, nil); p.status != http.StatusSeeOther {
		t.Fatalf("the asking browser, after another tried: %d %q", p.status, p.code)
	}
}

func TestSignInAnswersAlikeForStrangersAndMailsOnlyMembers(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.get("/signin")
	stranger := b.post("/signin", url.Values{"email": {"nobody@acme.test"}})
	if stranger.status != http.StatusOK || !strings.Contains(stranger.body, "Check your inbox") {
		t.Fatalf("stranger: %d %s", stranger.status, stranger.body)
	}
	b.askLink(acme.owner) // waits for the member's mail, sent after the stranger's request
	for _, m := range env.Mail.Messages() {
		if strings.Contains(strings.Join(m.To, ","), "nobody@") {
			t.Fatalf("a link was mailed to a stranger: %+v", m)
		}
	}
	b.get("/signin")
	if p := b.post("/signin", url.Values{"email": {"not an address"}}); p.status != http.StatusBadRequest || !strings.Contains(p.body, "e-mail address") {
		t.Fatalf("invalid address: %d %s", p.status, p.body)
	}
}

// TestSignInLimitsStopMailingWithoutRefusing: past a limit a request is answered like any
// other, and no link is made or mailed; a request that made nothing counts toward no limit.
func TestSignInLimitsStopMailingWithoutRefusing(t *testing.T) {
	env := authtest.Start(t, authtest.Options{SignInPerBrowser: 2, SignInPerEmail: 3, SignInPerAddress: 4})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	for range 3 {
		b.ask(acme.owner)
	}
	if n := len(mailed(env, acme.owner)); n != 2 {
		t.Fatalf("one browser asked 3 times with a budget of 2: %d links mailed", n)
	}
	other := newBrowser(t, env)
	other.ask(acme.owner) // the address's third link
	far := newBrowser(t, env)
	far.address = "198.51.100.7"
	far.ask(acme.owner) // past the address's links: a browser that never signed in gets none
	if n := len(mailed(env, acme.owner)); n != 3 {
		t.Fatalf("three browsers asked 5 times for one address, bounded at 3: %d links mailed", n)
	}
	other.ask(acme.admin) // the network's fourth link (the refused requests counted toward nothing)
	newBrowser(t, env).ask(acme.member)
	if n := len(mailed(env, acme.admin)) + len(mailed(env, acme.member)); n != 1 {
		t.Fatalf("the network's budget of 4 spent, a fifth request: %d more links mailed, want 1", n)
	}
	far.ask(acme.member)
	if n := len(mailed(env, acme.member)); n != 1 {
		t.Fatalf("another network: %d links mailed to the member, want 1", n)
	}
	env.Clock.Advance(authtest.SignInWindow)
	b.ask(acme.owner)
	if n := len(mailed(env, acme.owner)); n != 4 {
		t.Fatalf("after the window: %d links mailed in all, want 4", n)
	}
}

// TestAStrangerCannotLockAMemberOut: a stranger spends every limit it can reach for the owner's
// address, from many browsers and addresses (the owner's network among them); the owner, from
// the browser they signed in with before, still gets a link, and it signs them in. The
// stranger's requests mailed the owner no more links than the address's bound. (Each network's
// rate of requests is raised above the stranger's 32: what a network past its rate meets is
// TestASignInFloodNeitherReachesTheDatabaseNorQueues's, and what a known browser on it meets
// TestAKnownBrowserSpendsItsOwnRateNotItsNetworks's.)
func TestAStrangerCannotLockAMemberOut(t *testing.T) {
	env := authtest.Start(t, authtest.Options{SignInRequestsPerMinute: 100})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	laptop := newBrowser(t, env)
	laptop.signIn(acme.owner)
	env.Clock.Advance(authtest.SessionTTL) // last week's session is over; the browser is the same
	if p := laptop.get("/orgs/" + acme.id + "/api"); p.status != http.StatusSeeOther {
		t.Fatalf("the owner's session outlived its lifetime: %d", p.status)
	}
	before := len(mailed(env, acme.owner))

	for _, address := range []string{"198.51.100.1", "198.51.100.2", "2001:db8:5::1", laptop.address} {
		for range 8 {
			stranger := newBrowser(t, env)
			stranger.address = address
			for range 4 {
				if p := stranger.ask(acme.owner); p.status != http.StatusOK {
					t.Fatalf("a stranger's request from %s was answered %d", address, p.status)
				}
			}
		}
	}
	flood := len(mailed(env, acme.owner)) - before
	if flood != 5 {
		t.Fatalf("the stranger's 128 requests mailed the owner %d links, want the address's bound of 5", flood)
	}

	link := laptop.askLink(acme.owner)
	if p := laptop.get(link); p.status != http.StatusOK {
		t.Fatalf("the owner opens the link: %d %s", p.status, p.body)
	}
	if p := laptop.post(link, nil); p.status != http.StatusSeeOther || p.location != "/" {
		t.Fatalf("the owner signs in: %d %q %s", p.status, p.location, p.body)
	}
	if p := laptop.get("/orgs/" + acme.id + "/api"); p.status != http.StatusOK {
		t.Fatalf("the owner's API tab: %d", p.status)
	}
}

// TestSignInLimitsCountAnIPv6ClientByItsSlash64: the addresses of one /64 share a network's
// links, as one subscriber holds them all.
func TestSignInLimitsCountAnIPv6ClientByItsSlash64(t *testing.T) {
	env := authtest.Start(t, authtest.Options{SignInPerAddress: 2})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	from := func(address, email string) {
		b := newBrowser(t, env)
		b.address = address
		b.ask(email)
	}
	from("2001:db8:1:2::1", acme.owner)
	from("2001:db8:1:2::2", acme.admin)
	from("2001:db8:1:2:ffff:ffff:ffff:ffff", acme.member)
	if n := len(mailed(env, acme.member)); n != 0 {
		t.Fatalf("a third address of the /64, its network's budget of 2 spent: %d links mailed", n)
	}
	from("2001:db8:1:3::1", acme.member)
	if n := len(mailed(env, acme.member)); n != 1 {
		t.Fatalf("an address of another /64: %d links mailed, want 1", n)
	}
}

// TestSignInFormsNeedABrowserBindingTheConsoleGave: a browser cookie that cannot be one the
// console gave (one character here, not a token's 43) binds nothing, even with the CSRF token
// derived from it: asking for a link and using an operator's link (bound to no browser) are
// refused as forged, and nothing is mailed or signed in.
func TestSignInFormsNeedABrowserBindingTheConsoleGave(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.cookies["__Host-podium-browser"] = "x"
	forged := domain.CSRFToken("x")
	if p := b.post("/signin", url.Values{"email": {acme.owner}, "csrf": {forged}}); p.status != http.StatusForbidden || p.code != "csrf_invalid" {
		t.Fatalf("ask for a link with a one-character binding: %d %q", p.status, p.code)
	}
	if n := len(mailed(env, acme.owner)); n != 0 {
		t.Fatalf("%d links mailed for a request with a one-character binding", n)
	}
	r := env.Admin(t, http.MethodPost, "/admin/sign-in-links", map[string]any{"email": acme.owner})
	if r.Status != http.StatusCreated {
		t.Fatalf("operator link: %d %s", r.Status, r.Raw)
	}
	link := strings.TrimPrefix(r.Body["url"].(string), env.ConsoleURL)
	if p := b.post(link, url.Values{"csrf": {forged}}); p.status != http.StatusForbidden || p.code != "csrf_invalid" {
		t.Fatalf("use an operator's link with a one-character binding: %d %q", p.status, p.code)
	}
	if _, ok := b.cookies["__Host-podium-session"]; ok {
		t.Fatal("a browser with a one-character binding signed in")
	}
}

func TestFormsWithoutTheirCSRFTokenOrFromAnotherOriginAreRefused(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)

	b.get("/signin")
	if p := b.do(http.MethodPost, "/signin", url.Values{"email": {acme.owner}}, nil); p.status != http.StatusForbidden || p.code != "csrf_invalid" {
		t.Fatalf("sign-in form without its token: %d %q", p.status, p.code)
	}
	b.signIn(acme.owner)
	create := url.Values{"type": {"secret"}, "name": {"forged"}, "scopes": {"events:read"}}
	if p := b.do(http.MethodPost, "/orgs/"+acme.id+"/api/keys", create, nil); p.status != http.StatusForbidden || p.code != "csrf_invalid" {
		t.Fatalf("create key without the token: %d %q", p.status, p.code)
	}
	create.Set("csrf", strings.ToUpper(b.csrf))
	if p := b.do(http.MethodPost, "/orgs/"+acme.id+"/api/keys", create, nil); p.status != http.StatusForbidden || p.code != "csrf_invalid" {
		t.Fatalf("create key with a wrong token: %d %q", p.status, p.code)
	}
	b.get("/orgs/" + acme.id + "/api")
	create.Set("csrf", b.csrf)
	if p := b.do(http.MethodPost, "/orgs/"+acme.id+"/api/keys", create, map[string]string{"Origin": "https://evil.example"}); p.status != http.StatusForbidden || p.code != "cross_origin" {
		t.Fatalf("create key from another origin: %d %q", p.status, p.code)
	}
	if p := b.do(http.MethodPost, "/orgs/"+acme.id+"/api/keys", create, map[string]string{"Sec-Fetch-Site": "cross-site"}); p.status != http.StatusForbidden {
		t.Fatalf("create key from another site: %d %q", p.status, p.code)
	}
	if p := b.get("/orgs/" + acme.id + "/api"); strings.Contains(p.body, "forged") {
		t.Fatal("a refused form created a key")
	}
}

func TestSessionsAreListedAndRevocableByTheirMember(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	laptop, phone := newBrowser(t, env), newBrowser(t, env)
	phone.address = "198.51.100.7"
	laptop.signIn(acme.owner)
	phone.signIn(acme.owner)

	list := laptop.get("/sessions")
	if list.status != http.StatusOK || !strings.Contains(list.body, "198.51.100.7") || !strings.Contains(list.body, "this browser") {
		t.Fatalf("sessions: %d %s", list.status, list.body)
	}
	phoneSession := regexp1(t, list.body, `action="/sessions/(ses_[0-9A-Za-z]+)/revoke"`)
	if p := laptop.post("/sessions/"+phoneSession+"/revoke", nil); p.status != http.StatusSeeOther {
		t.Fatalf("revoke the phone: %d %s", p.status, p.body)
	}
	if p := phone.get("/orgs/" + acme.id + "/api"); p.status != http.StatusSeeOther || p.location != "/signin" {
		t.Fatalf("revoked session still works: %d %q", p.status, p.location)
	}

	// Another person cannot revoke the laptop's session, even knowing its id.
	stranger := newBrowser(t, env)
	stranger.signIn(acme.admin)
	stranger.get("/sessions")
	laptopSession := regexp1(t, laptop.get("/sessions").body, `id="session-(ses_[0-9A-Za-z]+)"`)
	if p := stranger.post("/sessions/"+laptopSession+"/revoke", nil); p.status != http.StatusNotFound {
		t.Fatalf("revoke another person's session: %d", p.status)
	}
	if p := laptop.get("/orgs/" + acme.id + "/api"); p.status != http.StatusOK {
		t.Fatalf("laptop after a stranger's attempt: %d", p.status)
	}
	env.Clock.Advance(authtest.SessionTTL)
	if p := laptop.get("/orgs/" + acme.id + "/api"); p.status != http.StatusSeeOther || p.location != "/signin" {
		t.Fatalf("a session past its lifetime: %d %q", p.status, p.location)
	}
	laptop.signIn(acme.owner)
	laptop.get("/sessions")
	if p := laptop.post("/signout", nil); p.status != http.StatusSeeOther {
		t.Fatalf("sign out: %d", p.status)
	}
	if p := laptop.get("/sessions"); p.status != http.StatusSeeOther {
		t.Fatalf("signed out, sessions: %d", p.status)
	}
}

func TestAnOperatorLinkSignsInAnyBrowserOnce(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	r := env.Admin(t, http.MethodPost, "/admin/sign-in-links", map[string]any{"email": " OWNER@acme.test "})
	if r.Status != http.StatusCreated || r.Body["email"] != acme.owner {
		t.Fatalf("operator link: %d %s", r.Status, r.Raw)
	}
	link := strings.TrimPrefix(r.Body["url"].(string), env.ConsoleURL)
	b := newBrowser(t, env)
	b.get(link)
	if p := b.post(link, nil); p.status != http.StatusSeeOther {
		t.Fatalf("operator link: %d %s", p.status, p.body)
	}
	again := newBrowser(t, env)
	if p := again.get(link); p.status != http.StatusGone {
		t.Fatalf("operator link reused: %d", p.status)
	}
	if r := env.Admin(t, http.MethodPost, "/admin/sign-in-links", map[string]any{"email": "nobody@acme.test"}); r.Status != http.StatusNotFound {
		t.Fatalf("operator link for a stranger: %d %s", r.Status, r.Raw)
	}
}
