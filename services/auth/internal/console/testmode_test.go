package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// TestTheAPITabsTestModeListsKeysApartAndCreatesTestKeys: live mode lists live keys only,
// ?mode=test (behind a visible switch, under a banner) test keys only, and a key created in
// test mode is a test key.
func TestTheAPITabsTestModeListsKeysApartAndCreatesTestKeys(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	live := env.Key(t, acme.id, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read"}})["id"].(string)
	test := env.Key(t, acme.id, map[string]any{"type": "secret", "mode": "test", "name": "sandbox", "scopes": []string{"events:read"}})["id"].(string)
	b := newBrowser(t, env)
	b.signIn(acme.owner)

	tab := b.get("/orgs/" + acme.id + "/api")
	if !strings.Contains(tab.body, `id="key-`+live+`"`) || strings.Contains(tab.body, `id="key-`+test+`"`) ||
		!strings.Contains(tab.body, `href="/orgs/`+acme.id+`/api?mode=test" id="mode-test"`) || strings.Contains(tab.body, "test-mode-banner") ||
		strings.Contains(tab.body, "delete-test-data") {
		t.Fatalf("live API tab: %s", tab.body)
	}
	tab = b.get("/orgs/" + acme.id + "/api?mode=test")
	if tab.status != http.StatusOK || strings.Contains(tab.body, `id="key-`+live+`"`) || !strings.Contains(tab.body, `id="key-`+test+`"`) ||
		!strings.Contains(tab.body, `id="test-mode-banner"`) || !strings.Contains(tab.body, "pdm_sk_test_…") ||
		!strings.Contains(tab.body, `action="/orgs/`+acme.id+`/api/keys?mode=test" id="create-secret"`) {
		t.Fatalf("test API tab: %s", tab.body)
	}

	created := b.post("/orgs/"+acme.id+"/api/keys?mode=test", url.Values{"type": {"publishable"}, "name": {"sandbox site"}, "origins": {"http://localhost:3000"}})
	key := regexp1(t, created.body, newKeyField)
	if created.status != http.StatusCreated || !strings.HasPrefix(key, "pdm_pk_test_") || verify(t, env, key)["mode"] != "test" ||
		!strings.Contains(created.body, `href="/orgs/`+acme.id+`/api?mode=test"`) {
		t.Fatalf("created in test mode: %d %s", created.status, created.body)
	}
	b.get("/orgs/" + acme.id + "/api")
	created = b.post("/orgs/"+acme.id+"/api/keys", url.Values{"type": {"secret"}, "name": {"sync"}, "scopes": {"events:read"}})
	if key := regexp1(t, created.body, newKeyField); !strings.HasPrefix(key, "pdm_sk_live_") || verify(t, env, key)["mode"] != "live" {
		t.Fatalf("created in live mode: %s", key)
	}

	b.get("/orgs/" + acme.id + "/api?mode=test")
	revoked := b.post("/orgs/"+acme.id+"/api/keys/"+test+"/revoke?mode=test", nil)
	if revoked.status != http.StatusSeeOther || revoked.location != "/orgs/"+acme.id+"/api?done=revoked&mode=test" {
		t.Fatalf("revoke in test mode: %d %q", revoked.status, revoked.location)
	}
}

// TestTheTestDataToolsCallRegistration wipes the organization's test data and reads its test
// mail through the registration double, which checks each call's token: the console's, in
// test mode, for the member's own organization.
func TestTheTestDataToolsCallRegistration(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	rival := newOrg(t, env, "Rival Runs", "rival.test")
	order := "ord_1"
	env.Registration.AddMail(acme.id, authtest.TestMail{ID: "tml_1", To: "runner@example.com", Subject: "<b>You are in</b>",
		Text: "Bib 12\n<script>alert(1)</script>", OrderID: &order, CreatedAt: env.Clock.Now()})
	env.Registration.AddMail(rival.id, authtest.TestMail{ID: "tml_2", To: "spy@rival.test", Subject: "theirs", CreatedAt: env.Clock.Now()})
	b := newBrowser(t, env)
	b.signIn(acme.admin)

	tab := b.get("/orgs/" + acme.id + "/api?mode=test")
	if !strings.Contains(tab.body, `action="/orgs/`+acme.id+`/api/test-data/delete?mode=test" id="delete-test-data"`) ||
		!strings.Contains(tab.body, `href="/orgs/`+acme.id+`/api/test-mail?mode=test"`) {
		t.Fatalf("test-data tools: %s", tab.body)
	}
	mail := b.get("/orgs/" + acme.id + "/api/test-mail?mode=test")
	if mail.status != http.StatusOK || !strings.Contains(mail.body, "runner@example.com") || !strings.Contains(mail.body, "&lt;b&gt;You are in&lt;/b&gt;") ||
		!strings.Contains(mail.body, "Bib 12\n&lt;script&gt;alert(1)&lt;/script&gt;") || strings.Contains(mail.body, "<script>alert") ||
		!strings.Contains(mail.body, "ord_1") || strings.Contains(mail.body, "spy@rival.test") {
		t.Fatalf("test mail: %d %s", mail.status, mail.body)
	}

	before := len(env.Registration.Calls())
	if p := b.do(http.MethodPost, "/orgs/"+acme.id+"/api/test-data/delete?mode=test", url.Values{"csrf": {"forged"}}, nil); p.status != http.StatusForbidden || p.code != "csrf_invalid" {
		t.Fatalf("wipe with a forged token: %d %s", p.status, p.code)
	}
	if len(env.Registration.Calls()) != before {
		t.Fatal("a forged wipe reached registration")
	}
	b.get("/orgs/" + acme.id + "/api?mode=test")
	wiped := b.post("/orgs/"+acme.id+"/api/test-data/delete?mode=test", nil)
	if wiped.status != http.StatusOK || !strings.Contains(wiped.body, "Deleted: 2 orders, 3 registrations, 4 tickets, 1 test e-mails,") ||
		!strings.Contains(wiped.body, "5 checkout sessions, 6 test webhook endpoints and 7 of their deliveries") || !strings.Contains(wiped.body, "test-mode-banner") {
		t.Fatalf("wipe: %d %s", wiped.status, wiped.body)
	}
	calls := env.Registration.Calls()
	last := calls[len(calls)-1]
	if last.Method != http.MethodDelete || last.Path != "/internal/organizers/"+acme.id+"/test-data" || last.KeyID != "console:"+acme.adminID || !last.Test {
		t.Fatalf("wipe call: %+v", last)
	}
	if mail := b.get("/orgs/" + acme.id + "/api/test-mail?mode=test"); strings.Contains(mail.body, "runner@example.com") || !strings.Contains(mail.body, "No test mail") {
		t.Fatalf("test mail after the wipe: %s", mail.body)
	}

	env.Registration.SetDown(true)
	b.get("/orgs/" + acme.id + "/api?mode=test")
	if p := b.post("/orgs/"+acme.id+"/api/test-data/delete?mode=test", nil); p.status != http.StatusServiceUnavailable || p.code != "registration_unavailable" {
		t.Fatalf("wipe with registration down: %d %s", p.status, p.code)
	}
}

// TestAMemberCannotUseTheTestDataTools: a plain member sees no tools and is refused both,
// before registration is called.
func TestAMemberCannotUseTheTestDataTools(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.signIn(acme.member)

	tab := b.get("/orgs/" + acme.id + "/api?mode=test")
	if tab.status != http.StatusOK || !strings.Contains(tab.body, "test-mode-banner") || strings.Contains(tab.body, "delete-test-data") {
		t.Fatalf("member's test API tab: %d %s", tab.status, tab.body)
	}
	if p := b.post("/orgs/"+acme.id+"/api/test-data/delete?mode=test", nil); p.status != http.StatusForbidden || p.code != "not_allowed" {
		t.Fatalf("member wipes: %d %s", p.status, p.code)
	}
	if p := b.get("/orgs/" + acme.id + "/api/test-mail?mode=test"); p.status != http.StatusForbidden || p.code != "not_allowed" {
		t.Fatalf("member reads test mail: %d %s", p.status, p.code)
	}
	if calls := env.Registration.Calls(); len(calls) != 0 {
		t.Fatalf("registration was called for a member: %+v", calls)
	}
}

// TestTheWebhooksTabsTestModeManagesTestEndpoints: in test mode the tab asks the webhooks
// service in test mode, so it lists and creates test endpoints only.
func TestTheWebhooksTabsTestModeManagesTestEndpoints(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	env.Webhooks.AddEndpoint(acme.id, "https://live.acme.test/hook", "order.completed")
	env.Webhooks.AddEndpoint(authtest.TestScope(acme.id), "https://sandbox.acme.test/hook", "order.completed")
	b := newBrowser(t, env)
	b.signIn(acme.owner)

	tab := b.get("/orgs/" + acme.id + "/webhooks")
	if !strings.Contains(tab.body, "live.acme.test") || strings.Contains(tab.body, "sandbox.acme.test") || lastHookCall(t, env).Test {
		t.Fatalf("live webhooks tab: %s", tab.body)
	}
	tab = b.get("/orgs/" + acme.id + "/webhooks?mode=test")
	if strings.Contains(tab.body, "live.acme.test") || !strings.Contains(tab.body, "sandbox.acme.test") || !strings.Contains(tab.body, "test-mode-banner") ||
		!lastHookCall(t, env).Test {
		t.Fatalf("test webhooks tab: %s", tab.body)
	}
	created := b.post("/orgs/"+acme.id+"/webhooks?mode=test", url.Values{"url": {"https://new.acme.test/hook"}, "eventTypes": {"order.completed"}})
	id := regexp1(t, created.body, `href="/orgs/`+acme.id+`/webhooks/(\w+)\?mode=test"`)
	if e, ok := env.Webhooks.Endpoint(id); created.status != http.StatusCreated || !ok || e.Livemode || !lastHookCall(t, env).Test {
		t.Fatalf("created in test mode: %d %+v", created.status, e)
	}
}

func lastHookCall(t *testing.T, env *authtest.Env) authtest.WebhooksCall {
	t.Helper()
	calls := env.Webhooks.Calls()
	if len(calls) == 0 {
		t.Fatal("no call to the webhooks service")
	}
	return calls[len(calls)-1]
}
