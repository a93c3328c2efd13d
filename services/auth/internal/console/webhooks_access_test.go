package console_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// TestAnotherOrganizationsWebhooksAreNotFound walks every Webhooks route with another
// organization's ids as an owner: every answer is 404, the other organization's endpoint is
// never shown nor changed, and every call to the webhooks service names one's own
// organization, whose member the token is for.
func TestAnotherOrganizationsWebhooksAreNotFound(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	rival := newOrg(t, env, "Rival Runs", "rival.test")
	theirs := env.Webhooks.AddEndpoint(rival.id, "https://hooks.rival.test/secret-path", "order.completed")
	theirDelivery := env.Webhooks.AddDelivery(theirs.ID, "order.completed", "failed")
	ours := env.Webhooks.AddEndpoint(acme.id, "https://hooks.acme.test/podium", "order.completed")
	b := webhooksBrowser(t, env, acme, acme.owner)

	if p := b.get("/orgs/" + acme.id + "/webhooks"); strings.Contains(p.body, "rival.test") || !strings.Contains(p.body, "hooks.acme.test") {
		t.Fatalf("the tab lists another organization's endpoints: %s", p.body)
	}
	theirPath := "/webhooks/" + theirs.ID
	routes := []struct {
		method, path string
		form         url.Values
	}{
		{http.MethodGet, "/orgs/" + rival.id + "/webhooks", nil},
		{http.MethodPost, "/orgs/" + rival.id + "/webhooks", url.Values{"url": {"https://planted.example"}, "eventTypes": {"order.completed"}}},
		{http.MethodGet, "/orgs/" + rival.id + theirPath, nil},
		{http.MethodPost, "/orgs/" + rival.id + theirPath + "/disable", url.Values{}},
		// One's own organization with the other's endpoint or delivery.
		{http.MethodGet, "/orgs/" + acme.id + theirPath, nil},
		{http.MethodPost, "/orgs/" + acme.id + theirPath + "/enable", url.Values{}},
		{http.MethodPost, "/orgs/" + acme.id + theirPath + "/disable", url.Values{}},
		{http.MethodGet, "/orgs/" + acme.id + theirPath + "/delete", nil},
		{http.MethodPost, "/orgs/" + acme.id + theirPath + "/delete", url.Values{}},
		{http.MethodPost, "/orgs/" + acme.id + theirPath + "/rotate-secret", url.Values{}},
		{http.MethodPost, "/orgs/" + acme.id + theirPath + "/test", url.Values{}},
		{http.MethodPost, "/orgs/" + acme.id + theirPath + "/recover", url.Values{"since": {"2026-01-01T00:00"}}},
		{http.MethodGet, "/orgs/" + acme.id + theirPath + "/deliveries/" + theirDelivery.ID, nil},
		{http.MethodPost, "/orgs/" + acme.id + theirPath + "/deliveries/" + theirDelivery.ID + "/retry", url.Values{}},
		{http.MethodGet, "/orgs/" + acme.id + "/webhooks/" + ours.ID + "/deliveries/" + theirDelivery.ID, nil},
		{http.MethodPost, "/orgs/" + acme.id + "/webhooks/" + ours.ID + "/deliveries/" + theirDelivery.ID + "/retry", url.Values{}},
	}
	for _, r := range routes {
		var p page
		if r.method == http.MethodGet {
			p = b.get(r.path)
		} else {
			p = b.post(r.path, r.form)
		}
		if p.status != http.StatusNotFound {
			t.Errorf("%s %s = %d, want 404", r.method, r.path, p.status)
		}
		if strings.Contains(p.body, "rival.test") || strings.Contains(p.body, "Rival Runs") {
			t.Errorf("%s %s shows the other organization: %s", r.method, r.path, p.body)
		}
	}
	if e, _ := env.Webhooks.Endpoint(theirs.ID); e.Status != "enabled" || len(e.Secrets) != 1 || len(env.Webhooks.Deliveries(theirs.ID)) != 1 ||
		env.Webhooks.Deliveries(theirs.ID)[0].Status != "failed" {
		t.Fatalf("the other organization's endpoint changed: %+v", e)
	}
	wantCallsFor(t, env, acme.id, acme.ownerID)
}

// TestMembersSeeWebhooksAndOnlyThoseWhoManageKeysChangeThem: a plain member sees the tab, the
// endpoint and its deliveries but no form, and every change they post is refused before the
// webhooks service is called; an admin's is made.
func TestMembersSeeWebhooksAndOnlyThoseWhoManageKeysChangeThem(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	e := env.Webhooks.AddEndpoint(acme.id, "https://hooks.acme.test/podium", "order.completed")
	d := env.Webhooks.AddDelivery(e.ID, "order.completed", "failed")
	b := webhooksBrowser(t, env, acme, acme.member)
	path := "/orgs/" + acme.id + "/webhooks/" + e.ID

	tab := b.get("/orgs/" + acme.id + "/webhooks")
	if !strings.Contains(tab.body, "hooks.acme.test") || strings.Contains(tab.body, "create-endpoint") {
		t.Fatalf("a member's tab: %s", tab.body)
	}
	page := b.get(path)
	if page.status != http.StatusOK || strings.Contains(page.body, "send-test") || strings.Contains(page.body, "/rotate-secret") || strings.Contains(page.body, `id="recover"`) {
		t.Fatalf("a member's endpoint page: %d %s", page.status, page.body)
	}
	if p := b.get(path + "/deliveries/" + d.ID); p.status != http.StatusOK || strings.Contains(p.body, "Retry now") {
		t.Fatalf("a member's delivery page: %d %s", p.status, p.body)
	}
	before := len(env.Webhooks.Calls())
	for _, r := range []struct {
		path string
		form url.Values
	}{
		{"/orgs/" + acme.id + "/webhooks", url.Values{"url": {"https://planted.example"}, "eventTypes": {"order.completed"}}},
		{path + "/disable", nil}, {path + "/enable", nil}, {path + "/delete", nil}, {path + "/rotate-secret", nil}, {path + "/test", nil},
		{path + "/recover", url.Values{"since": {"2026-01-01T00:00"}}}, {path + "/deliveries/" + d.ID + "/retry", nil},
	} {
		if p := b.post(r.path, r.form); p.status != http.StatusForbidden || p.code != "not_allowed" {
			t.Errorf("a member's POST %s = %d %s, want 403 not_allowed", r.path, p.status, p.code)
		}
	}
	if p := b.get(path + "/delete"); p.status != http.StatusForbidden {
		t.Errorf("a member's delete confirmation = %d, want 403", p.status)
	}
	if calls := env.Webhooks.Calls(); len(calls) != before {
		t.Fatalf("refused changes reached the webhooks service: %v", calls[before:])
	}

	admin := webhooksBrowser(t, env, acme, acme.admin)
	admin.get(path)
	if p := admin.post(path+"/disable", nil); p.status != http.StatusSeeOther {
		t.Fatalf("an admin's disable: %d %s", p.status, p.body)
	}
	wantCallsFor(t, env, acme.id, acme.memberID, acme.adminID)
}

// TestWebhookFormsNeedTheCSRFTokenAndTheConsolesOrigin: a forged form reaches nothing.
func TestWebhookFormsNeedTheCSRFTokenAndTheConsolesOrigin(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	e := env.Webhooks.AddEndpoint(acme.id, "https://hooks.acme.test/podium", "order.completed")
	b := webhooksBrowser(t, env, acme, acme.owner)
	before := len(env.Webhooks.Calls())
	create := url.Values{"url": {"https://planted.example"}, "eventTypes": {"order.completed"}}

	if p := b.post("/orgs/"+acme.id+"/webhooks", url.Values{"csrf": {"forged"}, "url": create["url"], "eventTypes": create["eventTypes"]}); p.status != http.StatusForbidden || p.code != "csrf_invalid" {
		t.Errorf("a forged token: %d %s", p.status, p.code)
	}
	for _, path := range []string{"/orgs/" + acme.id + "/webhooks", "/orgs/" + acme.id + "/webhooks/" + e.ID + "/rotate-secret"} {
		form := url.Values{"csrf": {b.csrf}, "url": create["url"], "eventTypes": create["eventTypes"]}
		if p := b.do(http.MethodPost, path, form, map[string]string{"Origin": "https://evil.example"}); p.status != http.StatusForbidden || p.code != "cross_origin" {
			t.Errorf("another origin's POST %s: %d %s", path, p.status, p.code)
		}
		if p := b.do(http.MethodPost, path, form, map[string]string{"Sec-Fetch-Site": "cross-site"}); p.status != http.StatusForbidden || p.code != "cross_origin" {
			t.Errorf("a cross-site POST %s: %d %s", path, p.status, p.code)
		}
	}
	if calls := env.Webhooks.Calls(); len(calls) != before {
		t.Fatalf("forged forms reached the webhooks service: %v", calls[before:])
	}
}

// TestTheTabSaysWebhooksAreUnavailableAndTheRestOfTheConsoleWorks: the webhooks service
// failing, or hanging past the timeout, is a page of the tab that says so; the API tab keeps
// answering, even with the console's one database place while a webhooks call hangs.
func TestTheTabSaysWebhooksAreUnavailableAndTheRestOfTheConsoleWorks(t *testing.T) {
	env := authtest.Start(t, authtest.Options{ConsoleConns: 1, WebhooksTimeout: 2 * time.Second})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	e := env.Webhooks.AddEndpoint(acme.id, "https://hooks.acme.test/podium", "order.completed")
	b := webhooksBrowser(t, env, acme, acme.owner)

	env.Webhooks.SetMode(authtest.WebhooksFailing)
	for _, path := range []string{"/orgs/" + acme.id + "/webhooks", "/orgs/" + acme.id + "/webhooks/" + e.ID} {
		p := b.get(path)
		if p.status != http.StatusServiceUnavailable || p.code != "webhooks_unavailable" || !strings.Contains(p.body, "Webhooks are unavailable right now") ||
			!strings.Contains(p.body, `href="/orgs/`+acme.id+`/api"`) {
			t.Fatalf("%s with the webhooks service failing: %d %s %s", path, p.status, p.code, p.body)
		}
	}
	if p := b.post("/orgs/"+acme.id+"/webhooks/"+e.ID+"/test", nil); p.status != http.StatusServiceUnavailable || p.code != "webhooks_unavailable" {
		t.Fatalf("a change with the webhooks service failing: %d %s", p.status, p.code)
	}

	env.Webhooks.SetMode(authtest.WebhooksHanging)
	hanging := make(chan int, 1)
	req := b.request("/orgs/" + acme.id + "/webhooks")
	go func() { hanging <- statusOf(req) }()
	select {
	case <-env.Webhooks.Hung():
	case <-time.After(10 * time.Second):
		t.Fatal("the webhooks tab never called the webhooks service")
	}
	if p := b.get("/orgs/" + acme.id + "/api"); p.status != http.StatusOK {
		t.Fatalf("the API tab while a webhooks call hangs: %d %s %s", p.status, p.code, p.body)
	}
	if status := <-hanging; status != http.StatusServiceUnavailable {
		t.Fatalf("the hanging webhooks tab: %d, want 503", status)
	}

	env.Webhooks.SetMode(authtest.WebhooksUp)
	if p := b.get("/orgs/" + acme.id + "/webhooks"); p.status != http.StatusOK || !strings.Contains(p.body, "hooks.acme.test") {
		t.Fatalf("the tab once the webhooks service is back: %d %s", p.status, p.body)
	}
}

// request is a GET of path with b's cookies, to send from another goroutine.
func (b *browser) request(path string) *http.Request {
	b.t.Helper()
	req, err := http.NewRequestWithContext(b.t.Context(), http.MethodGet, b.env.ConsoleURL+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-For", b.address)
	for name, value := range b.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	return req
}

// statusOf sends req and returns the answer's status, 0 when it failed: it runs apart from
// the test's goroutine, which it must not fail.
func statusOf(req *http.Request) int {
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}
