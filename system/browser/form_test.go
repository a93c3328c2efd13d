package browser

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/podiumhq/podium/system/stack"
)

// athlete is what a visitor types about the one athlete of a registration in RX Men.
type athlete struct{ email, phone, birthDate string }

// marc is an athlete RX Men takes.
var marc = athlete{email: "marc@example.com", phone: "+34600111222", birthDate: "1990-04-12"}

// fillRXMen fills the registration form of the Summer Throwdown's RX Men, open in the tab, as
// Marc Soler registering a as himself, the T-shirt and parking extras chosen, the liability
// waiver accepted and signed, the receipts to buyer.
func fillRXMen(ev stack.Event, a athlete, buyer string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.SendKeys(chromedp.CSS(`[data-path="teamName"]`), "Marc Soler", chromedp.NodeVisible),
		chromedp.SendKeys(chromedp.CSS(`[data-path="club"]`), "CrossFit La Mar"),
		chromedp.SendKeys(chromedp.CSS(`[data-path="athletes[0].fullname"]`), "Marc Soler"),
		chromedp.SendKeys(chromedp.CSS(`[data-path="athletes[0].email"]`), a.email),
		chromedp.SendKeys(chromedp.CSS(`[data-path="athletes[0].phone"]`), a.phone),
		chromedp.SetValue(chromedp.CSS(`[data-path="athletes[0].gender"]`), "MALE"),
		chromedp.SetValue(chromedp.CSS(`[data-path="athletes[0].birthDate"]`), a.birthDate),
		chromedp.SendKeys(chromedp.CSS(`[data-path="athletes[0].idNumber"]`), "12345678Z"),
		chromedp.SetValue(`//label[span[starts-with(., "T-shirt size")]]/select`, "M"),
		chromedp.Click(chromedp.CSS(`[data-path="selectedSupplementIds"]`)),
		chromedp.SetValue(chromedp.CSS(`[data-path="supplementSelections"]`), optionID(ev.Supplements, "tshirt", "m")),
		chromedp.Click(chromedp.CSS(waiverBox(ev, "liability"))),
		chromedp.SendKeys(chromedp.CSS(`[data-path="legalSignature.signerName"]`), "Marc Soler"),
		chromedp.SendKeys(chromedp.CSS(`[data-path="legalSignature.signerIdNumber"]`), "12345678Z"),
		chromedp.Click(chromedp.CSS(`[data-path="legalSignature.authorityAccepted"]`)),
		sign(`#signature`),
		chromedp.SendKeys(chromedp.CSS(`[data-path="purchaserName"]`), "Marc Soler"),
		chromedp.SendKeys(chromedp.CSS(`[data-path="purchaserEmail"]`), buyer),
		chromedp.Click(chromedp.CSS(`[data-path="termsAccepted"]`)),
	)
}

// waiverBox selects the checkbox that accepts the event's waiver with key.
func waiverBox(ev stack.Event, key string) string {
	return `[data-path='waiversAccepted["` + waiverID(ev.Waivers, key) + `"]']`
}

// retype replaces the value of the input whose data-path is path as a person editing it
// does, with the input event the form listens to.
func retype(path, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		args, err := json.Marshal([]string{`[data-path="` + path + `"]`, value})
		if err != nil {
			return err
		}
		_, err = chromedp.Evaluate[bool](`(([sel, value]) => {
			const el = document.querySelector(sel);
			el.value = value;
			return el.dispatchEvent(new Event('input', { bubbles: true }));
		})(`+string(args)+`)`)(ctx, tab)
		return err
	})
}

// note is a problem the form shows under an input: the input's data-path and label, the
// problem's path, code and message, and the code of the refusal.
type note struct{ Input, Label, Path, Code, ErrorCode, Message string }

// shownProblems are the notes under the form's inputs and the messages in the box at its top.
type shownProblems struct {
	Notes []note
	Top   []string
}

// readProblems reads the problems the registration form shows.
func readProblems(t *testing.T, tab context.Context) shownProblems {
	t.Helper()
	return read(t, tab, chromedp.Evaluate[shownProblems](`(() => {
		const inputOf = (n) => {
			let at = n.previousElementSibling;
			while (at?.classList.contains('field-error')) at = at.previousElementSibling;
			return at?.matches('[data-path]') ? at : at?.querySelector('[data-path]');
		};
		const form = document.querySelector('form.register');
		return {
			notes: [...form.querySelectorAll('.field-error[data-path]')].map((n) => ({
				input: inputOf(n)?.dataset.path ?? '', label: inputOf(n)?.closest('label')?.querySelector('span')?.textContent ?? '', path: n.dataset.path, code: n.dataset.code,
				errorCode: n.dataset.errorCode ?? '', message: n.textContent })),
			top: [...form.querySelectorAll('.form-errors:not([hidden]) li')].map((li) => li.textContent),
		};
	})()`))
}

// wantProblems checks that the form shows one note under each input of codes (by data-path)
// with the problem's code there, each message starting with its path, every note with the
// refusal's errorCode, and nothing at the top.
func wantProblems(t *testing.T, tab context.Context, errorCode string, codes map[string]string) shownProblems {
	t.Helper()
	shown := readProblems(t, tab)
	if len(shown.Top) > 0 {
		t.Errorf("the top of the form shows %q, want every problem at its input", shown.Top)
	}
	seen := map[string]bool{}
	for _, n := range shown.Notes {
		want, ok := codes[n.Input]
		switch {
		case !ok:
			t.Errorf("unexpected problem at input %q: %+v", n.Input, n)
		case seen[n.Input]:
			t.Errorf("a second problem at input %q: %+v", n.Input, n)
		case n.Code != want || n.ErrorCode != errorCode:
			t.Errorf("the problem at %q has code %q of a refusal %q, want %q of %q", n.Input, n.Code, n.ErrorCode, want, errorCode)
		case !strings.HasSuffix(n.Path, n.Input) || !strings.HasPrefix(n.Message, n.Path):
			t.Errorf("the problem at %q is about %q and reads %q", n.Input, n.Path, n.Message)
		}
		seen[n.Input] = true
	}
	for input := range codes {
		if !seen[input] {
			t.Errorf("no problem shown at %q; shown: %+v", input, shown)
		}
	}
	return shown
}
