package browser

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestARefusedPurchaseShowsEachProblemAtItsInput submits the registration form three times,
// refused each time through the gateway and the services, and reads each problem under the
// input it names: an unknown promocode (checkout's summary, 422 promocode_invalid), an
// athlete's e-mail and phone the gateway's schema refuses (the session, 400), then an athlete
// too young for the category and a required form field left unanswered (registration's rules
// behind the session's hold, 422).
func TestARefusedPurchaseShowsEachProblemAtItsInput(t *testing.T) {
	tab, site := browseSite(t)
	ev := demo.Events["summer-throwdown"]

	do(t, tab,
		chromedp.Navigate(site.URL+"/#/events/"+ev.ID+"/register/"+ev.Category("rx-men")),
		fillRXMen(ev, athlete{email: "märc@example.com", phone: "600111222", birthDate: marc.birthDate}, "refused@example.com"),
		chromedp.SendKeys(chromedp.CSS(`[data-path="promocode"]`), "NOSUCHCODE"),
		chromedp.Click(chromedp.CSS(`#review`)),
		chromedp.WaitVisible(chromedp.CSS(`.field-error[data-path="promocode"]`)),
	)
	wantProblems(t, tab, "promocode_invalid", map[string]string{"promocode": "rule_violated"})

	do(t, tab,
		retype("promocode", ""),
		chromedp.Click(chromedp.CSS(`#review`)),
		chromedp.Click(chromedp.CSS(`#pay`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`.field-error[data-path="athletes[0].phone"]`)),
		screenshot("problems.png"),
	)
	wantProblems(t, tab, "validation_failed", map[string]string{"athletes[0].email": "invalid_format", "athletes[0].phone": "invalid_format"})

	do(t, tab,
		retype("athletes[0].email", marc.email),
		retype("athletes[0].phone", marc.phone),
		retype("athletes[0].birthDate", "2012-01-01"),
		chromedp.SetValue(`//label[span[starts-with(., "T-shirt size")]]/select`, ""),
		chromedp.Click(chromedp.CSS(waiverBox(ev, "minors"))),
		chromedp.Click(chromedp.CSS(`[data-path="legalSignature.guardianAuthorityAccepted"]`)),
		chromedp.Click(chromedp.CSS(`#review`)),
		chromedp.Click(chromedp.CSS(`#pay`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`[data-path="athletes[0].birthDate"][aria-invalid="true"]`)),
	)
	shown := wantProblems(t, tab, "rule_violated", map[string]string{"athletes[0].birthDate": "rule_violated", "customFields": "rule_violated"})
	for _, n := range shown.Notes {
		if n.Input == "customFields" && n.Label != "T-shirt size" {
			t.Errorf("the missing T-shirt size is shown at %q", n.Label)
		}
	}
}
