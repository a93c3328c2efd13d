package browser

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/podiumhq/podium/libs/testkit"
)

// TestAPageOnAnOriginTheKeyDoesNotAllowSaysSo serves the website from an origin its
// publishable key does not allow: the browser's CORS check blocks the API calls, and the page
// says why instead of failing silently.
func TestAPageOnAnOriginTheKeyDoesNotAllowSaysSo(t *testing.T) {
	tab := browse(t)
	site := serveWebsite(t, testkit.FreeAddr(t), "http://"+testkit.FreeAddr(t))
	do(t, tab, chromedp.Navigate(site.URL+"/#/"))
	message := read(t, tab, chromedp.Text(chromedp.CSS(`.page-error[data-code="blocked"]`), chromedp.NodeVisible))
	if want := "this page's origin (" + site.URL + ") is not allowed by the publishable key"; !strings.Contains(message, want) {
		t.Fatalf("the page says %q, want it to contain %q", message, want)
	}
}
