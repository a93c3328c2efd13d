package browser

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// deliveryTimeout bounds the wait for a test event to reach a receiver.
const deliveryTimeout = 30 * time.Second

// TestOrganizersManageWebhookEndpointsInTheConsole signs the demo organizer's owner in and,
// in the Webhooks tab, adds an endpoint on a loopback receiver; the signing secret, shown once,
// is copied with its button and read back from the browser's clipboard, and the receiver
// verifies with that secret (the Standard Webhooks reference library) the ping that "Send test
// event" sends; the delivery log shows it succeeded with its response code and latency, and
// its page the attempt; the endpoint's page never shows the secret again. An endpoint whose
// receiver answers 410 Gone is then shown disabled, saying so.
func TestOrganizersManageWebhookEndpointsInTheConsole(t *testing.T) {
	tab := browse(t)
	signInConsole(t, tab, demo.OwnerEmail)
	allowClipboard(t, tab)

	receiver := startReceiver(t, stack.ReceiverOptions{})
	do(t, tab,
		chromedp.Click(chromedp.CSS(`nav.tabs a[href$="/webhooks"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#create-endpoint`)),
	)
	fillEndpoint(t, tab, receiver.EndpointURL(), "order sync", "order.completed", "registration.created")
	do(t, tab, screenshot("console-webhooks-create.png"))
	id := submitEndpoint(t, tab)
	if warning := read(t, tab, chromedp.Text(chromedp.CSS(`.warning`))); !strings.Contains(warning, "it will not be shown again") {
		t.Fatalf("the shown-once page warns %q", warning)
	}
	shown := read(t, tab, chromedp.Value(chromedp.CSS(`#new-secret`)))
	if !strings.HasPrefix(shown, "whsec_") {
		t.Fatalf("the page shows the secret %q", shown)
	}
	copied := copySecret(t, tab)
	do(t, tab, screenshot("console-webhooks-shown-once.png"))
	if copied != shown {
		t.Fatalf("the copy button put %q on the clipboard, the page shows %q", copied, shown)
	}
	if err := receiver.SetSecret(copied); err != nil {
		t.Fatal(err)
	}

	do(t, tab,
		chromedp.Click(chromedp.CSS(`a[href$="/webhooks/`+id+`"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#send-test`)),
	)
	if page := read(t, tab, chromedp.Text(chromedp.CSS(`main`))); strings.Contains(page, shown) {
		t.Fatalf("the endpoint's page shows its secret again: %q", page)
	}
	leave(t, tab)
	clicked := time.Now()
	do(t, tab,
		chromedp.Click(chromedp.CSS(`#send-test`)),
		chromedp.WaitVisible(chromedp.CSS(`body:not([data-leaving]) p.notice`)),
	)
	ping := waitPing(t, receiver)
	t.Logf("from the click on \"Send test event\" to the receiver's ping: %v", ping.ReceivedAt.Sub(clicked).Round(time.Millisecond))
	if !ping.Verified {
		t.Fatalf("the ping does not verify with the copied secret: %s", ping.VerifyError)
	}

	row := waitDelivery(t, tab, id, "succeeded")
	t.Logf("the delivery log shows %+v", row)
	do(t, tab, screenshot("console-webhooks-delivery-log.png"))
	if row.Type != "ping" || row.Attempts != "1" || row.Code != "200" || !strings.HasSuffix(row.Latency, " ms") {
		t.Fatalf("the delivery log shows %+v, want a ping succeeded at its first attempt with 200 and a latency", row)
	}
	do(t, tab,
		chromedp.Click(chromedp.CSS(`#delivery-`+row.ID+` a`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`table.attempts`)),
	)
	if status := read(t, tab, chromedp.Text(chromedp.CSS(`#delivery-status`))); status != "succeeded" {
		t.Fatalf("the delivery's page says %q", status)
	}
	if id := read(t, tab, chromedp.Text(chromedp.CSS(`main dl dd:nth-of-type(2) code`))); id != ping.ID {
		t.Fatalf("the delivery's page names message %q, the receiver got webhook-id %q", id, ping.ID)
	}
	attempts := read(t, tab, chromedp.Evaluate[[][]string](`[...document.querySelectorAll('table.attempts tbody tr')].map(r => [...r.cells].map(c => c.innerText.trim()))`))
	if len(attempts) != 1 || attempts[0][0] != "1" || attempts[0][2] != "200" || !strings.HasSuffix(attempts[0][3], " ms") || attempts[0][4] != "" {
		t.Fatalf("the delivery's attempts are %q, want one answered 200 with its latency", attempts)
	}
	do(t, tab, screenshot("console-webhooks-attempts.png"))

	// The endpoint's page, loaded again, still does not show the secret.
	do(t, tab,
		chromedp.Navigate(sys.ConsoleURL+"/orgs/"+demo.OrganizerID+"/webhooks/"+id),
		chromedp.WaitVisible(chromedp.CSS(`#send-test`)),
	)
	if html := read(t, tab, chromedp.Evaluate[string](`document.documentElement.outerHTML`)); strings.Contains(html, shown) {
		t.Fatal("the endpoint's page, loaded again, has its secret")
	}
	deleteEndpoint(t, tab, id)

	gone := startReceiver(t, stack.ReceiverOptions{Status: func(stack.Webhook) int { return http.StatusGone }})
	do(t, tab, chromedp.Navigate(sys.ConsoleURL+"/orgs/"+demo.OrganizerID+"/webhooks"))
	fillEndpoint(t, tab, gone.EndpointURL(), "retired backend", "order.completed")
	goneID := submitEndpoint(t, tab)
	do(t, tab, chromedp.Navigate(sys.ConsoleURL+"/orgs/"+demo.OrganizerID+"/webhooks/"+goneID))
	leave(t, tab)
	do(t, tab,
		chromedp.Click(chromedp.CSS(`#send-test`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`body:not([data-leaving]) p.notice`)),
	)
	waitPing(t, gone)
	waitDelivery(t, tab, goneID, "failed")
	if status := read(t, tab, chromedp.Text(chromedp.CSS(`#endpoint-status`))); !strings.HasPrefix(status, "answered 410 Gone") {
		t.Fatalf("the endpoint that answered 410 says %q", status)
	}
	do(t, tab,
		chromedp.Navigate(sys.ConsoleURL+"/orgs/"+demo.OrganizerID+"/webhooks"),
		chromedp.WaitVisible(chromedp.CSS(`#endpoint-`+goneID+`.disabled`)),
		screenshot("console-webhooks-disabled.png"),
	)
	if why := read(t, tab, chromedp.Text(chromedp.CSS(`#endpoint-`+goneID+` .why`))); !strings.HasPrefix(why, "answered 410 Gone") {
		t.Fatalf("the tab flags the endpoint that answered 410 with %q", why)
	}
	deleteEndpoint(t, tab, goneID)
}

// allowClipboard lets the console's pages write and read the browser's clipboard, as a person
// who allowed it would.
func allowClipboard(t *testing.T, tab context.Context) {
	t.Helper()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(tab, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name},
			Setting:    cdpbrowser.PermissionSettingGranted,
			Origin:     sys.ConsoleURL,
		})
		if err != nil {
			t.Fatalf("allow %s: %v", name, err)
		}
	}
}

// startReceiver starts a webhook receiver on a free loopback port for the test.
func startReceiver(t *testing.T, o stack.ReceiverOptions) *stack.Receiver {
	t.Helper()
	r, err := stack.StartReceiver("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// fillEndpoint fills the Webhooks tab's form with url, description and eventTypes.
func fillEndpoint(t *testing.T, tab context.Context, url, description string, eventTypes ...string) {
	t.Helper()
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.SendKeys(chromedp.CSS(`#endpoint-url`), url, chromedp.NodeVisible),
		chromedp.SendKeys(chromedp.CSS(`#endpoint-description`), description),
	}
	for _, typ := range eventTypes {
		steps = append(steps, chromedp.Click(chromedp.CSS(`#create-endpoint input[value="`+typ+`"]`)))
	}
	do(t, tab, append(steps, chromedp.ScrollIntoView(chromedp.CSS(`#create-endpoint button[type="submit"]`)))...)
}

// submitEndpoint submits the filled form and returns the new endpoint's id from the page that
// shows its secret.
func submitEndpoint(t *testing.T, tab context.Context) string {
	t.Helper()
	do(t, tab,
		chromedp.Click(chromedp.CSS(`#create-endpoint button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#new-secret`)),
	)
	return read(t, tab, chromedp.AttributeValue(chromedp.CSS(`#new-secret`), "data-endpoint-id")).Value
}

// copySecret clicks the secret's copy button, waits for it to say what became of the copy,
// and returns what is on the clipboard then.
func copySecret(t *testing.T, tab context.Context) string {
	t.Helper()
	button := `document.querySelector('button[data-copy="new-secret"]')`
	do(t, tab, chromedp.Click(chromedp.CSS(`button[data-copy="new-secret"]`), chromedp.NodeVisible))
	said := read(t, tab, chromedp.Poll[string](button+`.textContent !== 'Copy' && `+button+`.textContent`, chromedp.WithPollingMutation()))
	if said != "Copied" {
		t.Fatalf("after a click the copy button says %q", said)
	}
	return read(t, tab, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
}

// leave marks the page about to be left, so a wait is for the next page, not this one.
func leave(t *testing.T, tab context.Context) {
	t.Helper()
	read(t, tab, chromedp.Evaluate[bool](`document.body.dataset.leaving = '1', true`))
}

// waitPing waits for the ping a test event sends to r.
func waitPing(t *testing.T, r *stack.Receiver) stack.Webhook {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), deliveryTimeout)
	defer cancel()
	ping, err := r.Wait(ctx, func(w stack.Webhook) bool { return w.Type == "ping" })
	if err != nil {
		t.Fatalf("no ping reached %s: %v", r.URL, err)
	}
	return ping
}

// deliveryRow is a row of an endpoint's delivery log as the page shows it.
type deliveryRow struct {
	ID, Type, Status, Attempts, Code, Latency string
}

// waitDelivery loads the delivery log of endpoint id until its newest delivery has status
// (the log is written once the receiver has answered) and returns that row.
func waitDelivery(t *testing.T, tab context.Context, id, status string) deliveryRow {
	t.Helper()
	var row deliveryRow
	testkit.Eventually(t, deliveryTimeout, func() string {
		do(t, tab,
			chromedp.Navigate(sys.ConsoleURL+"/orgs/"+demo.OrganizerID+"/webhooks/"+id),
			chromedp.WaitVisible(chromedp.CSS(`#endpoint-status`)),
		)
		rows := read(t, tab, chromedp.Evaluate[[]deliveryRow](`[...document.querySelectorAll('table.deliveries tbody tr')].map(r => ({
			ID: r.id.replace(/^delivery-/, ''), Type: r.cells[1].innerText.trim(), Status: r.cells[2].innerText.trim(),
			Attempts: r.cells[3].innerText.trim(), Code: r.cells[4].innerText.trim(), Latency: r.cells[5].innerText.trim(),
		}))`))
		if len(rows) == 0 {
			return "the delivery log is empty"
		}
		if row = rows[0]; row.Status != status {
			return "the newest delivery is " + row.Status
		}
		return ""
	})
	return row
}

// deleteEndpoint deletes endpoint id through its page's confirmation.
func deleteEndpoint(t *testing.T, tab context.Context, id string) {
	t.Helper()
	do(t, tab,
		chromedp.Navigate(sys.ConsoleURL+"/orgs/"+demo.OrganizerID+"/webhooks/"+id),
		chromedp.Click(chromedp.CSS(`a.danger`), chromedp.NodeVisible),
		chromedp.Click(chromedp.CSS(`#confirm-delete`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`p.notice`)),
	)
	if notice := read(t, tab, chromedp.Text(chromedp.CSS(`p.notice`))); notice != "The endpoint was deleted." {
		t.Fatalf("deleting the endpoint says %q", notice)
	}
}
