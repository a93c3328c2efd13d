package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestSessionHoldsAndOpensAStripeCheckout(t *testing.T) {
	env := start(t, checkouttest.Options{})
	body := checkouttest.Purchase()
	body["selectedSupplementIds"] = []any{checkouttest.SupMeal}
	body["club"] = "Box Madrid"
	validRequest(t, "browserCheckoutSession", body)
	r := session(t, env, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	conforms(t, "browserCheckoutSession", r)
	if !strings.HasPrefix(r.Body["sessionId"].(string), "cs_") || !strings.HasPrefix(r.Body["sessionUrl"].(string), "https://") {
		t.Fatalf("answer %s", r.Raw)
	}

	// The hold: our checkout id, the amount (5500 + 800 = 6300, 5 % = 315, + 100), expiry 10 min.
	order, ok := env.Registration.Order(r.Body["orderId"].(string))
	if !ok || env.Registration.Holds.Load() != 1 {
		t.Fatalf("no hold for %s", r.Raw)
	}
	h := order.Body
	exp, _ := time.Parse(time.RFC3339, h["expiresAt"].(string))
	var created time.Time
	if err := env.Pool.QueryRow(t.Context(), `SELECT created_at FROM checkouts WHERE id = $1`, h["holdId"]).Scan(&created); err != nil {
		t.Fatalf("checkout %v: %v", h["holdId"], err)
	}
	if !strings.HasPrefix(h["holdId"].(string), "chk_") || h["amount"] != 6715.0 || h["currency"] != "EUR" || h["eventId"] != checkouttest.EventID ||
		h["purchaserEmail"] != "ana@example.com" || !exp.Equal(created.Add(10*time.Minute)) {
		t.Fatalf("hold %v, checkout created at %s", h, created)
	}
	reg := h["registrations"].([]any)[0].(map[string]any)
	if reg["categoryId"] != checkouttest.CatRX || reg["teamName"] != "Team A" || reg["club"] != "Box Madrid" || len(reg["athletes"].([]any)) != 1 ||
		reg["waiversAccepted"].(map[string]any)[checkouttest.WaiverLiability] != true {
		t.Fatalf("hold registration %v", reg)
	}

	// The Stripe session: one call, idempotency key derived from ours, every parameter. Stripe
	// wants a session to live at least 30 minutes, so it outlives the 10-minute hold: it
	// expires 35 minutes after the checkout was created.
	if n := env.Stripe.Hits(checkouttest.RouteSessions); n != 1 {
		t.Fatalf("%d Stripe calls", n)
	}
	if keys := env.Stripe.IdempotencyKeys(); keys["podium-checkout-"+h["holdId"].(string)] != 1 {
		t.Fatalf("idempotency keys %v", keys)
	}
	f := env.Stripe.Last(checkouttest.RouteSessions)
	stripeExp, _ := strconv.ParseInt(f.Get("expires_at"), 10, 64)
	if f.Get("mode") != "payment" || f.Get("customer_email") != "ana@example.com" || f.Get("client_reference_id") != order.ID ||
		f.Get("success_url") != checkouttest.Site+"/thanks?step=done&session_id={CHECKOUT_SESSION_ID}" || f.Get("cancel_url") != checkouttest.Site+"/cart" ||
		f.Get("metadata[checkoutId]") != h["holdId"] || f.Get("metadata[orderId]") != order.ID || f.Get("metadata[organizerId]") != checkouttest.OrgID ||
		f.Get("metadata[eventId]") != checkouttest.EventID || f.Get("payment_intent_data[metadata][checkoutId]") != h["holdId"] ||
		time.Unix(stripeExp, 0).Sub(exp.Truncate(time.Second)) != 25*time.Minute {
		t.Fatalf("Stripe parameters %v", f)
	}
	var sum int64
	for i := 0; f.Get("line_items["+strconv.Itoa(i)+"][quantity]") != ""; i++ {
		p := "line_items[" + strconv.Itoa(i) + "]"
		q, _ := strconv.ParseInt(f.Get(p+"[quantity]"), 10, 64)
		u, _ := strconv.ParseInt(f.Get(p+"[price_data][unit_amount]"), 10, 64)
		if f.Get(p+"[price_data][currency]") != "eur" || f.Get(p+"[price_data][product_data][name]") == "" {
			t.Fatalf("line %d of %v", i, f)
		}
		sum += q * u
	}
	if sum != 6715 {
		t.Fatalf("Stripe line items add up to %d, want 6715", sum)
	}

	// The record: open, with the signature and IP report kept for audit.
	id := h["holdId"].(string)
	if s, p := state(t, env, id); s != "OPEN" || p != "NONE" {
		t.Fatalf("checkout %s %s", s, p)
	}
	var sig, ip map[string]any
	var sessionID string
	if err := env.Pool.QueryRow(t.Context(), `SELECT legal_signature, ip_enrichment, session_id FROM checkouts WHERE id = $1`, id).Scan(&sig, &ip, &sessionID); err != nil {
		t.Fatal(err)
	}
	if sig["signerName"] != "Ana Atleta" || len(sig["strokes"].([]any)) != 1 || ip["countryCode"] != "ES" || sessionID != r.Body["sessionId"] {
		t.Fatalf("audit %v %v %s", sig, ip, sessionID)
	}
}

func TestSessionRefusals(t *testing.T) {
	env := start(t, checkouttest.Options{})
	for name, c := range map[string]struct {
		change  func(b map[string]any)
		status  int
		message any
	}{
		"terms not accepted": {func(b map[string]any) { b["termsAccepted"] = false }, 422,
			[]any{"termsAccepted must be true: the purchaser must accept the terms and conditions"}},
		"waiver not accepted": {func(b map[string]any) { b["waiversAccepted"] = map[string]any{checkouttest.WaiverLiability: false} }, 422,
			[]any{`waiversAccepted["wvr_liability"] must be true: the "Liability" waiver is required`}},
		"outdated waiver version": {func(b map[string]any) {
			b["legalSignature"].(map[string]any)["waiverVersions"].([]any)[0].(map[string]any)["version"] = 1
		}, 422, []any{`legalSignature.waiverVersions[0].version 1 of waiver "wvr_liability" is not the current one (2): reload the waivers and sign again`}},
		"no signature": {func(b map[string]any) { delete(b, "legalSignature") }, 422,
			[]any{"legalSignature is required: the event's waivers must be signed"}},
		"minor without guardian": {func(b map[string]any) {
			b["athletes"] = []any{checkouttest.Athlete("Kid", "2012-01-01")}
			b["waiversAccepted"] = map[string]any{checkouttest.WaiverLiability: true, checkouttest.WaiverMinors: true}
		}, 422, []any{"legalSignature.guardianAuthorityAccepted must be true: an athlete is under 18 on the event date"}},
		"deferred completion without its waivers": {func(b map[string]any) {
			b["categoryId"] = checkouttest.CatTeam
			b["deferredTeamCompletion"] = map[string]any{"pendingParticipantCount": 2, "participantWaivers": []any{map[string]any{"waiversAccepted": map[string]any{checkouttest.WaiverLiability: true}}}}
		}, 422, []any{"deferredTeamCompletion.participantWaivers must have one item per pending participant (2), not 1"}},
		"promocode":       {func(b map[string]any) { b["promocode"] = "OVER" }, 422, []any{`promocode "OVER" is not valid for this purchase`}},
		"unknown event":   {func(b map[string]any) { b["eventId"] = "evt_missing" }, 404, "event evt_missing not found"},
		"hidden category": {func(b map[string]any) { b["categoryId"] = checkouttest.CatPrivate }, 404, "category cat_private not found"},
	} {
		t.Run(name, func(t *testing.T) {
			b := checkouttest.Purchase()
			c.change(b)
			validRequest(t, "browserCheckoutSession", b)
			wantError(t, session(t, env, b), c.status, c.message)
		})
	}
	if env.Registration.HoldCalls.Load() != 0 || env.Stripe.Hits(checkouttest.RouteSessions) != 0 {
		t.Fatal("a refused request held places or called Stripe")
	}
}

func TestSessionRefusedByRegistration(t *testing.T) {
	env := start(t, checkouttest.Options{})
	env.Registration.SetQuota(checkouttest.CatRX, 0)
	b := checkouttest.Purchase()
	b["promocode"], b["idempotencyKey"] = "ONCE", "sold-out-0001"
	wantError(t, session(t, env, b), 409, "category cat_rx has no places left")
	if uses(t, env, "ONCE") != 0 {
		t.Fatal("a refused hold kept its promocode use")
	}
	env.Registration.SetQuota(checkouttest.CatRX, 5)
	// Registration names the fields of the hold's registrations; the buyer reads the purchase's.
	env.Registration.RefuseNext(422, []string{"registrations[0].athletes[0].birthDate is outside the category's ages",
		"registrations[1].categoryId: category cat_x does not exist"})
	refused := session(t, env, b)
	wantError(t, refused, 422, []any{"athletes[0].birthDate is outside the category's ages",
		"guestRegistrations[0].categoryId: category cat_x does not exist"})
	if p, _ := refused.Body["problems"].([]any); len(p) != 2 || p[0].(map[string]any)["path"] != "athletes[0].birthDate" ||
		p[1].(map[string]any)["path"] != "guestRegistrations[0].categoryId" {
		t.Fatalf("problems %s, want each at the purchase's path", refused.Raw)
	}
	env.Registration.RefuseNext(404, "category cat_rx not found")
	wantError(t, session(t, env, b), 404, "category cat_rx not found")
	env.Registration.RefuseNext(503, "overloaded")
	if r := session(t, env, b); r.Header.Get("Retry-After") != "2" {
		t.Fatalf("registration unavailable: Retry-After %q, want 2", r.Header.Get("Retry-After"))
	} else {
		wantError(t, r, 503, "the registration service is unavailable; retry after the Retry-After seconds")
	}
	// Registration refusing what checkout sent as malformed is checkout's own bug: a 500 the
	// client is not told to retry.
	env.Registration.RefuseNext(400, "registrations[0].categoryId: is required")
	if r := session(t, env, b); r.Header.Get("Retry-After") != "" {
		t.Fatalf("checkout's own bug answered with Retry-After %q", r.Header.Get("Retry-After"))
	} else {
		wantError(t, r, 500, "internal error; quote the requestId when reporting it")
	}
	// The same key runs again once the refusals are gone.
	if r := session(t, env, b); r.Status != http.StatusCreated {
		t.Fatalf("after the refusals: %d %s", r.Status, r.Raw)
	}
	if env.Stripe.Hits(checkouttest.RouteSessions) != 1 || uses(t, env, "ONCE") != 1 {
		t.Fatal("Stripe calls or promocode uses after refusals")
	}
	var failed int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM checkouts WHERE state = 'FAILED'`).Scan(&failed); err != nil || failed != 5 {
		t.Fatalf("%d failed checkouts (%v), want 5", failed, err)
	}
}

func TestStripeDownReleasesTheHold(t *testing.T) {
	env := start(t, checkouttest.Options{})
	env.Stripe.Down.Store(true)
	b := checkouttest.Purchase()
	b["promocode"], b["idempotencyKey"] = "ONCE", "stripe-down-0001"
	r := session(t, env, b)
	wantError(t, r, 503, "the payment provider is unavailable; nothing was charged, retry")
	if ra := r.Header.Get("Retry-After"); ra != "2" {
		t.Fatalf("Retry-After %q, want 2", ra)
	}
	first, ok := env.Registration.LastOrder()
	if !ok || first.Status != "CANCELLED" || env.Registration.Releases.Load() != 1 {
		t.Fatalf("hold after Stripe failed: %+v (releases %d)", first, env.Registration.Releases.Load())
	}
	if s, p := state(t, env, first.HoldID); s != "FAILED" || p != "RELEASED" || uses(t, env, "ONCE") != 0 {
		t.Fatalf("checkout %s, promocode %s, uses %d", s, p, uses(t, env, "ONCE"))
	}
	// A retry with the same key tries again: a new checkout, a new hold, a Stripe session.
	env.Stripe.Down.Store(false)
	r = session(t, env, b)
	if r.Status != http.StatusCreated || env.Registration.Holds.Load() != 2 || r.Body["orderId"] == first.ID {
		t.Fatalf("retry: %d %s (holds %d)", r.Status, r.Raw, env.Registration.Holds.Load())
	}
}

// TestZeroTotalIsPaidWithoutStripe: a zero total is answered at once with checkout's own free
// session, the checkout recorded PAID with a payment.succeeded of amount 0 (the one way
// registration confirms an order) in the same transaction, and no Stripe call; registration's
// order.completed completes it, as a paid one.
func TestZeroTotalIsPaidWithoutStripe(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	b := checkouttest.Purchase()
	b["promocode"] = "FREE"
	r := session(t, env, b)
	if r.Status != http.StatusCreated {
		t.Fatalf("free session: %d %s", r.Status, r.Raw)
	}
	conforms(t, "browserCheckoutSession", r)
	id, orderID := r.Body["sessionId"].(string), r.Body["orderId"].(string)
	if !strings.HasPrefix(id, "free_") || r.Body["sessionUrl"] != checkouttest.Site+"/thanks?step=done&session_id="+id {
		t.Fatalf("answer %s", r.Raw)
	}
	checkoutID := checkoutOfOrder(t, env, orderID)
	if s, _ := state(t, env, checkoutID); s != "PAID" || env.Stripe.Hits(checkouttest.RouteSessions) != 0 {
		t.Fatalf("checkout %s, Stripe calls %d", s, env.Stripe.Hits(checkouttest.RouteSessions))
	}
	m := next(t, events)
	var data map[string]any
	_ = json.Unmarshal(m.Value, &data)
	if m.Key != orderID || m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded || data["orderId"] != orderID || data["sessionId"] != id ||
		data["paymentRef"] != domain.PaymentRefFree || data["amount"] != 0.0 || data["currency"] != "EUR" || data["paidAt"] == nil {
		t.Fatalf("message %s %v %s", m.Key, m.Headers, m.Value)
	}
	publishOrderEvent(t, env, "msg_free_completed", domain.EventOrderCompleted, map[string]any{"orderId": orderID})
	eventually(t, env, checkoutID, "COMPLETED")
	quiet(t, env, events, orderID)
}

func TestPromocodeMaxUsesAreReservedAtomically(t *testing.T) {
	env := start(t, checkouttest.Options{})
	statuses := make([]int, 5)
	var wg sync.WaitGroup // a failing request ends only its goroutine: Wait still returns
	for i := range statuses {
		wg.Go(func() {
			b := checkouttest.Purchase()
			b["promocode"], b["teamName"] = "ONCE", "Team "+strconv.Itoa(i)
			statuses[i] = session(t, env, b).Status
		})
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		if s == http.StatusCreated {
			created++
		}
	}
	if created != 1 || uses(t, env, "ONCE") != 1 {
		t.Fatalf("%d sessions used a one-use promocode (counter %d)", created, uses(t, env, "ONCE"))
	}
	s := summaryBody()
	s["promocode"] = "ONCE"
	wantError(t, env.Browser(t, "summary", s, checkouttest.KeyID), 422, []any{`promocode "ONCE" is not valid for this purchase`})
}

func TestSessionBodyMustBeJSON(t *testing.T) {
	env := start(t, checkouttest.Options{})
	tokBody := json.RawMessage(`{"eventId": [`)
	r := env.Browser(t, "session", tokBody, checkouttest.KeyID)
	wantError(t, r, 400, []any{"body must be a valid JSON object of the documented shape"})
}

func TestSessionPreviewToken(t *testing.T) {
	env := start(t, checkouttest.Options{})
	draft := checkouttest.Event()
	draft["id"], draft["status"], draft["private"] = "evt_preview", "UNDER_REVIEW", true
	env.Catalog.Put(draft)
	b := checkouttest.Purchase()
	b["eventId"] = "evt_preview"
	wantError(t, session(t, env, b), 404, "event evt_preview not found")
	b["previewToken"] = checkouttest.PreviewToken
	if r := session(t, env, b); r.Status != http.StatusCreated {
		t.Fatalf("with the preview token: %d %s", r.Status, r.Raw)
	}
}

// TestSessionForwardsCustomFieldsAndGuestContacts: values of ATHLETE-scoped form fields carry
// athleteIndex (registration's extension of the custom field value); the hold must receive it,
// or registration refuses every purchase of an event with a required per-athlete field. A
// guest registration carries the guest's e-mail and name.
func TestSessionForwardsCustomFieldsAndGuestContacts(t *testing.T) {
	env := start(t, checkouttest.Options{})
	body := checkouttest.Purchase()
	body["customFields"] = []any{
		map[string]any{"fieldId": "fld_tshirt", "value": "M", "athleteIndex": 0},
		map[string]any{"fieldId": "fld_box", "value": "Box Madrid"},
	}
	guest := map[string]any{"guestEmail": "bea@example.com", "guestName": "Bea Atleta", "categoryId": checkouttest.CatRX, "teamName": "Team G",
		"athletes": []any{checkouttest.Athlete("Bea Atleta", "1991-05-02")}, "waiversAccepted": map[string]any{checkouttest.WaiverLiability: true},
		"customFields": []any{map[string]any{"fieldId": "fld_tshirt", "value": "L", "athleteIndex": 0}}}
	body["guestRegistrations"] = []any{guest}
	validRequest(t, "browserCheckoutSession", body)
	r := session(t, env, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	order, _ := env.Registration.Order(r.Body["orderId"].(string))
	regs := order.Body["registrations"].([]any)
	fields := func(i int) string {
		raw, _ := json.Marshal(regs[i].(map[string]any)["customFields"])
		return string(raw)
	}
	if fields(0) != `[{"athleteIndex":0,"fieldId":"fld_tshirt","value":"M"},{"fieldId":"fld_box","value":"Box Madrid"}]` ||
		fields(1) != `[{"athleteIndex":0,"fieldId":"fld_tshirt","value":"L"}]` {
		t.Fatalf("hold custom fields %s and %s", fields(0), fields(1))
	}
	main, g := regs[0].(map[string]any), regs[1].(map[string]any)
	if _, ok := main["guestEmail"]; ok || g["guestEmail"] != "bea@example.com" || g["guestName"] != "Bea Atleta" {
		t.Fatalf("hold contacts: main %v, guest %v / %v", main["guestEmail"], g["guestEmail"], g["guestName"])
	}
}
