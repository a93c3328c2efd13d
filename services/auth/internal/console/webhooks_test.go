package console_test

import (
	"html"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

var newSecretField = `id="new-secret"[^>]* value="(whsec_[^"]+)"`

// webhooksBrowser is an organization and a browser signed in as email there, on its Webhooks
// tab.
func webhooksBrowser(t *testing.T, env *authtest.Env, o org, email string) *browser {
	t.Helper()
	b := newBrowser(t, env)
	b.signIn(email)
	if p := b.get("/orgs/" + o.id + "/webhooks"); p.status != http.StatusOK {
		t.Fatalf("webhooks tab: %d %s", p.status, p.body)
	}
	return b
}

// wantCallsFor checks that every request the webhooks double got was made for the
// organization, by the console for one of the members.
func wantCallsFor(t *testing.T, env *authtest.Env, orgID string, memberIDs ...string) {
	t.Helper()
	for _, c := range env.Webhooks.Calls() {
		if c.OrganizerID != orgID || !slices.Contains(memberIDs, strings.TrimPrefix(c.KeyID, "console:")) {
			t.Errorf("the webhooks service was called for %s by %s (%s %s), want %s by %v", c.OrganizerID, c.KeyID, c.Method, c.Path, orgID, memberIDs)
		}
	}
}

func TestAnOwnerCreatesAnEndpointWhoseSecretIsShownOnce(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := webhooksBrowser(t, env, acme, acme.owner)
	tab := b.get("/orgs/" + acme.id + "/webhooks")
	if !strings.Contains(tab.body, `href="/orgs/`+acme.id+`/webhooks" aria-current="page">Webhooks`) || !strings.Contains(tab.body, "No endpoints yet") {
		t.Fatalf("webhooks tab: %s", tab.body)
	}
	for _, typ := range []string{"registration.created", "order.completed", "pricing.changed"} {
		if !strings.Contains(tab.body, `name="eventTypes" value="`+typ+`"`) {
			t.Errorf("no %s checkbox", typ)
		}
	}

	created := b.post("/orgs/"+acme.id+"/webhooks", url.Values{
		"url": {"https://hooks.acme.test/podium"}, "eventTypes": {"order.completed", "registration.created"}, "description": {"order sync"},
	})
	if created.status != http.StatusCreated || !strings.Contains(created.body, "will not be shown again") || !strings.Contains(created.body, `data-copy="new-secret"`) {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
	secret := html.UnescapeString(regexp1(t, created.body, newSecretField))
	endpointID := regexp1(t, created.body, `data-endpoint-id="([^"]+)"`)
	stored, ok := env.Webhooks.Endpoint(endpointID)
	if !ok || stored.OrganizerID != acme.id || stored.Secrets[0] != secret || stored.URL != "https://hooks.acme.test/podium" ||
		strings.Join(stored.EventTypes, ",") != "order.completed,registration.created" || stored.Description != "order sync" {
		t.Fatalf("stored endpoint %+v", stored)
	}
	for _, path := range []string{"/orgs/" + acme.id + "/webhooks", "/orgs/" + acme.id + "/webhooks/" + endpointID} {
		p := b.get(path)
		if p.status != http.StatusOK || strings.Contains(html.UnescapeString(p.body), secret) || !strings.Contains(p.body, "https://hooks.acme.test/podium") {
			t.Fatalf("%s must show the endpoint without its secret: %d %s", path, p.status, p.body)
		}
	}

	rotated := b.post("/orgs/"+acme.id+"/webhooks/"+endpointID+"/rotate-secret", nil)
	newSecret := html.UnescapeString(regexp1(t, rotated.body, newSecretField))
	if rotated.status != http.StatusOK || newSecret == secret || !strings.Contains(rotated.body, "keeps signing beside the new one for 24 hours") {
		t.Fatalf("rotate: %d %s", rotated.status, rotated.body)
	}
	if stored, _ := env.Webhooks.Endpoint(endpointID); stored.Secrets[0] != newSecret {
		t.Fatalf("the rotated secret is not the one shown")
	}

	bad := b.post("/orgs/"+acme.id+"/webhooks", url.Values{"url": {"http://hooks.acme.test"}, "eventTypes": {"order.completed"}})
	if bad.status != http.StatusBadRequest || !strings.Contains(bad.body, "url must be an https URL") || !strings.Contains(bad.body, `value="http://hooks.acme.test"`) {
		t.Fatalf("refused URL: %d %s", bad.status, bad.body)
	}
	none := b.post("/orgs/"+acme.id+"/webhooks", url.Values{"url": {"https://hooks.acme.test/2"}})
	if none.status != http.StatusBadRequest || !strings.Contains(none.body, "choose at least one event type") {
		t.Fatalf("no event type: %d %s", none.status, none.body)
	}
	wantCallsFor(t, env, acme.id, acme.ownerID)
}

func TestAnAdminTestsDisablesEnablesAndDeletesAnEndpoint(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	e := env.Webhooks.AddEndpoint(acme.id, "https://hooks.acme.test/podium", "order.completed")
	b := webhooksBrowser(t, env, acme, acme.admin)
	path := "/orgs/" + acme.id + "/webhooks/" + e.ID

	b.get(path)
	if p := b.post(path+"/test", nil); p.status != http.StatusSeeOther || p.location != path+"?done=test" {
		t.Fatalf("send test: %d %s", p.status, p.location)
	}
	log := b.get(path + "?done=test")
	if !strings.Contains(log.body, "A test event (ping) is on its way") || !strings.Contains(log.body, "<code>ping</code>") {
		t.Fatalf("delivery log after the test: %s", log.body)
	}

	if p := b.post(path+"/disable", nil); p.status != http.StatusSeeOther {
		t.Fatalf("disable: %d %s", p.status, p.body)
	}
	if p := b.get(path); !strings.Contains(p.body, "disabled by your organization") || !strings.Contains(p.body, "/enable") {
		t.Fatalf("disabled endpoint: %s", p.body)
	}
	if p := b.post(path+"/enable", nil); p.status != http.StatusSeeOther {
		t.Fatalf("enable: %d %s", p.status, p.body)
	}
	if stored, _ := env.Webhooks.Endpoint(e.ID); stored.Status != "enabled" || stored.DisabledReason != nil {
		t.Fatalf("enabled endpoint %+v", stored)
	}

	if p := b.get(path + "/delete"); p.status != http.StatusOK || !strings.Contains(p.body, "cannot be undone") {
		t.Fatalf("confirm delete: %d %s", p.status, p.body)
	}
	if p := b.post(path+"/delete", nil); p.status != http.StatusSeeOther || p.location != "/orgs/"+acme.id+"/webhooks?done=deleted" {
		t.Fatalf("delete: %d %s", p.status, p.location)
	}
	if p := b.get("/orgs/" + acme.id + "/webhooks?done=deleted"); strings.Contains(p.body, "hooks.acme.test") || !strings.Contains(p.body, "The endpoint was deleted.") {
		t.Fatalf("after delete: %s", p.body)
	}
	if p := b.get(path); p.status != http.StatusNotFound {
		t.Fatalf("a deleted endpoint: %d", p.status)
	}
	wantCallsFor(t, env, acme.id, acme.adminID)
}

func TestDisabledEndpointsSayWhy(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	env.Clock.Set(time.Date(2026, 5, 9, 18, 3, 0, 0, time.UTC))
	acme := newOrg(t, env, "Acme Races", "acme.test")
	gone := env.Webhooks.AddEndpoint(acme.id, "https://gone.acme.test/hooks", "order.completed")
	failing := env.Webhooks.AddEndpoint(acme.id, "https://failing.acme.test/hooks", "order.completed")
	env.Webhooks.AddEndpoint(acme.id, "https://fine.acme.test/hooks", "order.completed")
	env.Webhooks.Disable(gone.ID, "gone", nil)
	since := time.Date(2026, 5, 4, 18, 2, 0, 0, time.UTC)
	env.Webhooks.Disable(failing.ID, "failing", &since)

	b := webhooksBrowser(t, env, acme, acme.member)
	tab := b.get("/orgs/" + acme.id + "/webhooks")
	for _, want := range []string{"answered 410 Gone (2026-05-09 18:03 UTC)", "failing for 5 days since 2026-05-04 18:02 UTC", "https://fine.acme.test/hooks"} {
		if !strings.Contains(tab.body, want) {
			t.Errorf("the tab does not say %q", want)
		}
	}
	if p := b.get("/orgs/" + acme.id + "/webhooks/" + failing.ID); !strings.Contains(p.body, "failing for 5 days since 2026-05-04 18:02 UTC") {
		t.Errorf("the endpoint page does not say why: %s", p.body)
	}
}

func TestTheDeliveryLogShowsEachAttemptAndRetriesAndRecovers(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	env.Clock.Set(time.Date(2026, 5, 9, 18, 0, 0, 0, time.UTC))
	acme := newOrg(t, env, "Acme Races", "acme.test")
	e := env.Webhooks.AddEndpoint(acme.id, "https://hooks.acme.test/podium", "order.completed")
	code503, code500, refused := 503, 500, "connection refused"
	failed := env.Webhooks.AddDelivery(e.ID, "order.completed", "failed",
		authtest.HookAttempt{N: 1, StartedAt: env.Clock.Now(), StatusCode: &code503, LatencyMs: 182},
		authtest.HookAttempt{N: 2, StartedAt: env.Clock.Now().Add(5 * time.Second), LatencyMs: 3, Error: &refused},
		authtest.HookAttempt{N: 3, StartedAt: env.Clock.Now().Add(5 * time.Minute), StatusCode: &code500, LatencyMs: 95})
	env.Webhooks.AddDelivery(e.ID, "registration.created", "failed")
	env.Webhooks.AddDelivery(e.ID, "order.refunded", "succeeded")

	b := webhooksBrowser(t, env, acme, acme.owner)
	path := "/orgs/" + acme.id + "/webhooks/" + e.ID
	log := b.get(path)
	for _, want := range []string{"<code>order.completed</code>", "<code>registration.created</code>", "<td>500</td>", "95 ms", `/deliveries/` + failed.ID} {
		if !strings.Contains(log.body, want) {
			t.Errorf("the delivery log does not show %q", want)
		}
	}
	detail := b.get(path + "/deliveries/" + failed.ID)
	for _, want := range []string{"<td>1</td><td>2026-05-09 18:00 UTC</td><td>503</td><td>182 ms</td>", "<td>2</td><td>2026-05-09 18:00 UTC</td><td>–</td><td>3 ms</td><td>connection refused</td>", "<td>3</td><td>2026-05-09 18:05 UTC</td><td>500</td>", "Retry now"} {
		if !strings.Contains(detail.body, want) {
			t.Errorf("the delivery page does not show %q: %s", want, detail.body)
		}
	}
	if p := b.post(path+"/deliveries/"+failed.ID+"/retry", nil); p.status != http.StatusSeeOther {
		t.Fatalf("retry: %d %s", p.status, p.body)
	}
	if p := b.get(path + "/deliveries/" + failed.ID + "?done=retried"); !strings.Contains(p.body, `id="delivery-status">pending`) || !strings.Contains(p.body, "attempted again now") {
		t.Fatalf("retried delivery: %s", p.body)
	}

	b.get(path)
	if p := b.post(path+"/recover", url.Values{"since": {"yesterday"}}); p.status != http.StatusBadRequest || !strings.Contains(p.body, "since must be a date and time") {
		t.Fatalf("bad since: %d %s", p.status, p.body)
	}
	p := b.post(path+"/recover", url.Values{"since": {"2026-05-09T00:00:00"}})
	if p.status != http.StatusSeeOther || p.location != path+"?done=recovered&n=1" {
		t.Fatalf("recover: %d %s", p.status, p.location)
	}
	if p := b.get(p.location); !strings.Contains(p.body, "1 failed deliveries are delivered again.") {
		t.Fatalf("after recover: %s", p.body)
	}
	for _, d := range env.Webhooks.Deliveries(e.ID) {
		if d.Status == "failed" {
			t.Errorf("delivery %s of %s is still failed", d.ID, d.Type)
		}
	}
}
