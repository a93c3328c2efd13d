package browser

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// stepsTimeout bounds a run of steps in the browser, a payment's confirmation included.
const stepsTimeout = time.Minute

// browse opens a headless Chromium tab of 1200x900 for the test.
func browse(t *testing.T) context.Context {
	t.Helper()
	if chromium == "" {
		t.Skip("chromium is not installed (make chromium installs it)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.WindowSize(1200, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	tab, cancelTab := chromedp.NewContext(alloc)
	// The first action starts the browser, which lives as long as its context: no timeout on it.
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1200, 900)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	return tab
}

// do runs steps in the tab within stepsTimeout, failing the test with where the tab is and
// what its page says when one fails.
func do(t *testing.T, tab context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, stepsTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%v\n%s", err, pageState(tab))
	}
}

// read runs a step that reads a value, as do does.
func read[T any](t *testing.T, tab context.Context, step chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, stepsTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, step)
	if err != nil {
		t.Fatalf("%v\n%s", err, pageState(tab))
	}
	return v
}

// pageState describes the tab's location and its page's text.
func pageState(tab context.Context) string {
	ctx, cancel := context.WithTimeout(tab, 5*time.Second)
	defer cancel()
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
	if err != nil {
		return "the page cannot be read: " + err.Error()
	}
	return "the page at " + state
}

// browseSite opens a tab as browse does and serves the website on an origin its key allows.
func browseSite(t *testing.T) (context.Context, *stack.Website) {
	t.Helper()
	tab := browse(t)
	addr := testkit.FreeAddr(t)
	return tab, serveWebsite(t, addr, "http://"+addr)
}

// serveWebsite serves the demo website on addr with a new publishable key of the demo
// organizer that allows origin.
func serveWebsite(t *testing.T, addr, origin string) *stack.Website {
	t.Helper()
	key, err := sys.CreateKey(t.Context(), demo.OrganizerID, stack.KeySpec{Type: "publishable", Name: "browser test " + origin, Origins: []string{origin}})
	if err != nil {
		t.Fatal(err)
	}
	site, err := stack.ServeWebsite(addr, filepath.Join(root, "examples", "website"), stack.WebsiteConfig{GatewayURL: sys.GatewayURL(), PublishableKey: key.Key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	return site
}

// screenshot writes the viewport to docs/screenshots/name when UPDATE_SCREENSHOTS=1.
func screenshot(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		if os.Getenv("UPDATE_SCREENSHOTS") != "1" {
			return nil
		}
		png, err := chromedp.CaptureScreenshot()(ctx, tab)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, "docs", "screenshots", name), png, 0o644)
	})
}

// sign draws a signature on the canvas sel with the mouse: two strokes of moves with the left
// button held, as a person's pointer would.
func sign(sel chromedp.CSS) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		if _, err := chromedp.ScrollIntoView(sel)(ctx, tab); err != nil {
			return err
		}
		box, err := chromedp.Evaluate[struct{ X, Y, W, H float64 }](`(() => {
			const r = document.querySelector('`+string(sel)+`').getBoundingClientRect();
			return {X: r.left, Y: r.top, W: r.width, H: r.height};
		})()`)(ctx, tab)
		if err != nil {
			return err
		}
		held := func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }
		strokes := [][][2]float64{
			{{0.1, 0.6}, {0.2, 0.3}, {0.3, 0.7}, {0.4, 0.35}, {0.5, 0.65}},
			{{0.55, 0.5}, {0.7, 0.45}, {0.85, 0.55}},
		}
		var steps []chromedp.Action[chromedp.Void]
		for _, stroke := range strokes {
			at := func(p [2]float64) (float64, float64) { return box.X + p[0]*box.W, box.Y + p[1]*box.H }
			x, y := at(stroke[0])
			steps = append(steps, chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, held, chromedp.ClickCount(1)))
			for _, p := range stroke[1:] {
				x, y = at(p)
				steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonLeft, held))
			}
			steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
		}
		_, err = chromedp.Steps(steps...)(ctx, tab)
		return err
	})
}
