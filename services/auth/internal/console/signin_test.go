package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
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

func TestSignInIsLimitedPerEmailAndPerAddress(t *testing.T) {
	env := authtest.Start(t, authtest.Options{SignInPerEmail: 2, SignInPerAddress: 3})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	ask := func(b *browser, email string) page {
		b.get("/signin")
		return b.post("/signin", url.Values{"email": {email}})
	}
	b := newBrowser(t, env)
	for i := range 2 {
		if p := ask(b, acme.owner); p.status != http.StatusOK {
			t.Fatalf("request %d: %d", i+1, p.status)
		}
	}
	p := ask(b, acme.owner)
	if p.status != http.StatusTooManyRequests || p.code != "signin_rate_limited" {
		t.Fatalf("third link for one e-mail: %d %q", p.status, p.code)
	}
	// The refused request counted toward neither limit: this address has one request left.
	if p := ask(b, acme.admin); p.status != http.StatusOK {
		t.Fatalf("another e-mail from the same address: %d %q", p.status, p.code)
	}
	if p := ask(b, acme.member); p.status != http.StatusTooManyRequests {
		t.Fatalf("fourth request from one address: %d %q", p.status, p.code)
	}
	other := newBrowser(t, env)
	other.address = "198.51.100.7"
	if p := ask(other, acme.member); p.status != http.StatusOK {
		t.Fatalf("another address, another e-mail: %d %q", p.status, p.code)
	}
	env.Clock.Advance(authtest.SignInWindow)
	if p := ask(b, acme.owner); p.status != http.StatusOK {
		t.Fatalf("after the window: %d %q", p.status, p.code)
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
