package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/testkit/stripeevent"
	"github.com/podiumhq/podium/system/stripewebhook"
)

// The hosted checkout stand-in (Options.HostedCheckout) plays Stripe's hosted payment page on
// the local stack, where stripe-mock's session urls lead nowhere: the Stripe proxy rewrites
// the url of each Checkout Session it creates to /pay/<session id>?order=<order id> on itself,
// and that page shows the lines of the create request. "Pay" sends Stripe's
// checkout.session.completed, signed with the webhook secret of the session's mode (the key
// checkout created it with), to the gateway's /webhooks/stripe, then redirects to the
// session's success_url; "Cancel" goes back to its cancel_url. stripe-mock gives every session
// the same id, so the page finds its session by the order id.

const sessionsPath = "/v1/checkout/sessions"

// rewriteSessionURL points the url of a created Checkout Session (call is its request) at the
// stand-in's page on base. Other answers are left as they are.
func rewriteSessionURL(res *http.Response, base string, call StripeCall) error {
	if res.Request.Method != http.MethodPost || res.Request.URL.Path != sessionsPath || res.StatusCode != http.StatusOK {
		return nil
	}
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	_ = res.Body.Close()
	var session map[string]json.RawMessage
	if err := json.Unmarshal(answer, &session); err != nil {
		return fmt.Errorf("stack: stripe-mock's session: %w", err)
	}
	var id string
	_ = json.Unmarshal(session["id"], &id)
	page := base + "/pay/" + url.PathEscape(id) + "?" + url.Values{"order": {call.Metadata("orderId")}}.Encode()
	if session["url"], err = json.Marshal(page); err != nil {
		return err
	}
	if answer, err = json.Marshal(session); err != nil {
		return err
	}
	res.Body = io.NopCloser(bytes.NewReader(answer))
	res.ContentLength = int64(len(answer))
	res.Header.Set("Content-Length", strconv.Itoa(len(answer)))
	return nil
}

// hostedCheckout serves the stand-in's pages.
func (s *Stack) hostedCheckout() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /pay/{session}", func(w http.ResponseWriter, r *http.Request) {
		call, ok := s.payingSession(w, r)
		if !ok {
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = payPage.Execute(w, payView(r, call))
	})
	mux.HandleFunc("POST /pay/{session}/complete", func(w http.ResponseWriter, r *http.Request) {
		call, ok := s.payingSession(w, r)
		if !ok {
			return
		}
		id := r.PathValue("session")
		if err := s.completeSession(r.Context(), id, call); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		success := strings.ReplaceAll(call.Form.Get("success_url"), "{CHECKOUT_SESSION_ID}", url.QueryEscape(id))
		http.Redirect(w, r, success, http.StatusSeeOther)
	})
	return mux
}

// payingSession finds the create request of the session a page names (its order id), or
// answers 404.
func (s *Stack) payingSession(w http.ResponseWriter, r *http.Request) (StripeCall, bool) {
	call, ok := s.StripeSession(r.URL.Query().Get("order"))
	if !ok {
		http.Error(w, "no Checkout Session was created for this order", http.StatusNotFound)
	}
	return call, ok
}

// completeSession sends Stripe's checkout.session.completed about the session to the gateway.
func (s *Stack) completeSession(ctx context.Context, id string, call StripeCall) error {
	session := stripeevent.Session{SessionID: id, CheckoutID: call.Metadata("checkoutId"), OrderID: call.Metadata("orderId"),
		EventID: call.Metadata("eventId"), OrganizerID: call.Metadata("organizerId"), Currency: call.Currency(), Amount: call.AmountTotal()}
	client := &http.Client{Timeout: 30 * time.Second}
	secret := s.WebhookSecret
	if call.TestMode {
		secret = s.TestWebhookSecret
	}
	a, err := stripewebhook.Deliver(ctx, client, s.GatewayURL()+"/webhooks/stripe", secret,
		stripewebhook.Event{Type: "checkout.session.completed", Session: session, Paid: true, At: time.Now()})
	if err != nil {
		return err
	}
	if !a.OK() {
		return fmt.Errorf("the webhook endpoint refused the payment: %s", a)
	}
	return nil
}

// payView is what the page shows.
func payView(r *http.Request, call StripeCall) map[string]any {
	currency := call.Currency()
	type line struct{ Name, Quantity, Amount string }
	var lines []line
	for _, l := range call.LineItems() {
		lines = append(lines, line{l.Name, strconv.FormatInt(l.Quantity, 10), money(l.Amount, currency)})
	}
	return map[string]any{
		"Lines": lines, "Total": money(call.AmountTotal(), currency), "Email": call.Form.Get("customer_email"),
		"PayAction": r.URL.Path + "/complete?" + r.URL.RawQuery, "CancelURL": call.Form.Get("cancel_url"),
	}
}

// money writes an amount in minor units with two decimals and its currency.
func money(minor int64, currency string) string {
	return fmt.Sprintf("%d.%02d %s", minor/100, minor%100, currency)
}

var payPage = template.Must(template.New("pay").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay (local Stripe stand-in)</title>
<style>
body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
.note{background:#fff4d6;padding:.5rem .75rem;border-radius:6px;font-size:.9rem}
table{width:100%;border-collapse:collapse;margin:1rem 0}td{padding:.4rem 0;border-bottom:1px solid #e3e8ee}
td.amount{text-align:right}tr.total td{font-weight:600;border:0}
button,a.button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:0;cursor:pointer;text-decoration:none}
button{background:#635bff;color:#fff}a.button{background:#e3e8ee;color:#1a1f36;margin-left:.5rem}
</style></head>
<body>
<p class="note">Local stand-in for Stripe's hosted checkout (stripe-mock has no payment page). No card is charged.</p>
<h1>Pay</h1>
<p>Receipt to {{.Email}}</p>
<table>
{{range .Lines}}<tr><td>{{.Name}} × {{.Quantity}}</td><td class="amount">{{.Amount}}</td></tr>
{{end}}<tr class="total"><td>Total</td><td class="amount" id="total">{{.Total}}</td></tr>
</table>
<form method="post" action="{{.PayAction}}"><button id="stripe-pay" type="submit">Pay {{.Total}}</button><a class="button" id="cancel" href="{{.CancelURL}}">Cancel</a></form>
</body></html>
`))
