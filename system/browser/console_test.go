package browser

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/podiumhq/podium/libs/mail/mailcatch"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// TestOrganizersManageTheirKeysInTheConsole signs the demo organizer's owner in through the
// link e-mailed to the SMTP catcher, creates a secret key with two scopes and uses it through
// the gateway (refused on a third scope), revokes it in the console until the gateway refuses
// it, creates a publishable key for an origin and uses it from the demo website on that origin;
// a member then sees the keys without any button to manage them, and the server refuses their
// forged forms and a form without its CSRF token; a used sign-in link signs no one in.
func TestOrganizersManageTheirKeysInTheConsole(t *testing.T) {
	tab := browse(t)
	link := signInConsole(t, tab, demo.OwnerEmail)
	org := demo.OrganizerID

	do(t, tab,
		chromedp.WaitVisible(chromedp.CSS(`#create-secret`)),
		screenshot("console-api-keys.png"),
		chromedp.SendKeys(chromedp.CSS(`#secret-name`), "results sync"),
		chromedp.Click(chromedp.CSS(`#create-secret input[value="events:read"]`)),
		chromedp.Click(chromedp.CSS(`#create-secret input[value="pricing:read"]`)),
		chromedp.ScrollIntoView(chromedp.CSS(`#create-secret`)),
		screenshot("console-api-create.png"),
		chromedp.Click(chromedp.CSS(`#create-secret button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#new-key`)),
		screenshot("console-api-shown-once.png"),
	)
	if warning := read(t, tab, chromedp.Text(chromedp.CSS(`.warning`))); !strings.Contains(warning, "it will not be shown again") {
		t.Fatalf("the shown-once page warns %q", warning)
	}
	key := read(t, tab, chromedp.Value(chromedp.CSS(`#new-key`)))

	ev := demo.Events["summer-throwdown"]
	wantStatus(t, key, "/external/v1/organizer/events/search", map[string]any{}, http.StatusCreated)
	wantStatus(t, key, "/external/v1/organizer/events/"+ev.ID+"/pricing-cards", nil, http.StatusOK)
	wantStatus(t, key, "/external/v1/organizer/registrations/search", map[string]any{"eventId": ev.ID}, http.StatusForbidden)

	keyID := read(t, tab, chromedp.AttributeValue(chromedp.CSS(`#new-key`), "data-key-id")).Value
	do(t, tab,
		chromedp.Navigate(sys.ConsoleURL+"/orgs/"+org+"/api"),
		chromedp.Click(chromedp.CSS(`#key-`+keyID+` a.danger`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#confirm-revoke`)),
	)
	confirmed := time.Now()
	do(t, tab, chromedp.Click(chromedp.CSS(`#confirm-revoke`)), chromedp.WaitVisible(chromedp.CSS(`p.notice`)))
	refused := untilRefused(t, key)
	t.Logf("from the click on \"Revoke key\" to the gateway's refusal: %v", refused.Sub(confirmed).Round(time.Millisecond))

	addr := testkit.FreeAddr(t)
	origin := "http://" + addr
	do(t, tab,
		chromedp.SendKeys(chromedp.CSS(`#pub-name`), "storefront"),
		chromedp.SendKeys(chromedp.CSS(`#pub-origins`), origin),
		chromedp.Click(chromedp.CSS(`#create-publishable button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#new-key`)),
	)
	publishable := read(t, tab, chromedp.Value(chromedp.CSS(`#new-key`)))
	site, err := stack.ServeWebsite(addr, root+"/examples/website", stack.WebsiteConfig{GatewayURL: sys.GatewayURL(), PublishableKey: publishable})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	do(t, tab,
		chromedp.Navigate(site.URL+"/#/"),
		chromedp.WaitVisible(chromedp.CSS(`a[href="#/events/`+ev.ID+`"]`)),
	)

	// The link that signed the owner in signs no one in again.
	do(t, tab, chromedp.Navigate(sys.ConsoleURL+link))
	if page := read(t, tab, chromedp.Text(chromedp.CSS(`main`))); !strings.Contains(page, "already used or has expired") {
		t.Fatalf("a used link answers %q", page)
	}

	memberTab := browse(t)
	signInConsole(t, memberTab, demo.MemberEmail)
	tabText := read(t, memberTab, chromedp.Text(chromedp.CSS(`main`)))
	if !strings.Contains(tabText, "results sync") {
		t.Fatalf("the member does not see the keys: %q", tabText)
	}
	buttons := read(t, memberTab, chromedp.Evaluate[int](`document.querySelectorAll('#create-secret, #create-publishable, a.danger').length`))
	if buttons != 0 {
		t.Fatalf("the member sees %d management controls", buttons)
	}
	forged := postForm(t, memberTab, "/orgs/"+org+"/api/keys", true, map[string]string{"type": "secret", "name": "forged", "scopes": "events:read"})
	if !strings.Contains(forged, "does not allow this change") {
		t.Fatalf("a member's forged key creation answers %q", forged)
	}
	do(t, memberTab, chromedp.Navigate(sys.ConsoleURL+"/orgs/"+org+"/api"))
	forged = postForm(t, memberTab, "/orgs/"+org+"/api/keys/"+demo.SecretEventsRead.ID+"/revoke", true, nil)
	if !strings.Contains(forged, "does not allow this change") {
		t.Fatalf("a member's forged revocation answers %q", forged)
	}
	wantStatus(t, demo.SecretEventsRead.Key, "/external/v1/organizer/events/search", map[string]any{}, http.StatusCreated)
	do(t, memberTab, chromedp.Navigate(sys.ConsoleURL+"/orgs/"+org+"/api"))
	noToken := postForm(t, memberTab, "/signout", false, nil)
	if !strings.Contains(noToken, "has expired or did not come from the console") {
		t.Fatalf("a form without its CSRF token answers %q", noToken)
	}
}

// signInConsole asks for a sign-in link for email in the tab, opens the link e-mailed to the
// stack's SMTP catcher and confirms it; it returns the link's path.
func signInConsole(t *testing.T, tab context.Context, email string) string {
	t.Helper()
	seen := len(sys.Mails())
	do(t, tab,
		chromedp.Navigate(sys.ConsoleURL+"/signin"),
		chromedp.SendKeys(chromedp.CSS(`#email`), email, chromedp.NodeVisible),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#signin-sent`)),
	)
	if heading := read(t, tab, chromedp.Text(chromedp.CSS(`main h2`))); heading != "Check your inbox" {
		t.Fatalf("after asking for a link: %q\n%s", heading, pageState(tab))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	n := 0
	m, err := sys.WaitMail(ctx, func(m mailcatch.Message) bool {
		n++
		return n > seen && mailcatch.To(email)(m)
	})
	if err != nil {
		t.Fatalf("no sign-in e-mail to %s: %v", email, err)
	}
	link := regexp.MustCompile(`/signin/[0-9A-Za-z]+`).FindString(m.Body)
	if link == "" {
		t.Fatalf("no link in %q", m.Body)
	}
	do(t, tab,
		chromedp.Navigate(sys.ConsoleURL+link),
		chromedp.Click(chromedp.CSS(`#confirm-signin`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`.tabs`)),
	)
	return link
}

// postForm builds a form in the page, with the page's CSRF token when withToken, submits it
// and returns the text of the page it leads to.
func postForm(t *testing.T, tab context.Context, action string, withToken bool, fields map[string]string) string {
	t.Helper()
	script := `(() => {
		const f = document.createElement('form');
		f.method = 'post';
		f.action = ` + jsString(action) + `;
		const add = (name, value) => { const i = document.createElement('input'); i.type = 'hidden'; i.name = name; i.value = value; f.append(i); };
		` + tokenLine(withToken)
	for name, value := range fields {
		script += "add(" + jsString(name) + ", " + jsString(value) + ");\n"
	}
	script += `document.body.dataset.leaving = '1'; document.body.append(f); f.submit(); return true; })()`
	read(t, tab, chromedp.Evaluate[bool](script))
	// The page being left is marked, so the wait is for the answer's page, not the form's.
	do(t, tab, chromedp.WaitVisible(chromedp.CSS(`body:not([data-leaving]) main .card`)))
	return read(t, tab, chromedp.Text(chromedp.CSS(`main`)))
}

func tokenLine(withToken bool) string {
	if !withToken {
		return ""
	}
	return "add('csrf', document.querySelector('input[name=csrf]').value);\n"
}

func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// wantStatus calls an organizer operation with key through the gateway.
func wantStatus(t *testing.T, key, path string, body any, want int) {
	t.Helper()
	method := http.MethodGet
	if body != nil {
		method = http.MethodPost
	}
	res := testkit.Do(t, method, sys.GatewayURL()+path, body, map[string]string{"Authorization": "Bearer " + key})
	if res.Status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, res.Status, res.Raw, want)
	}
}

// untilRefused waits until the gateway refuses key as revoked and returns when. Its key cache
// lives 60 s, so a refusal well within that comes from the revocation auth pushes.
func untilRefused(t *testing.T, key string) time.Time {
	t.Helper()
	var at time.Time
	testkit.Eventually(t, 15*time.Second, func() string {
		res := testkit.Do(t, http.MethodPost, sys.GatewayURL()+"/external/v1/organizer/events/search", map[string]any{}, map[string]string{"Authorization": "Bearer " + key})
		if res.Status != http.StatusUnauthorized || res.Body["code"] != "key_revoked" {
			return "the gateway still answers " + res.Header.Get("X-Request-Id")
		}
		at = time.Now()
		return ""
	})
	return at
}
