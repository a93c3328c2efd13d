package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/payments"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// refusedRefund stores a checkout whose refund Stripe refused for good at at, with message.
func refusedRefund(t *testing.T, repo *store.Repository, id, message string, at time.Time) {
	t.Helper()
	c := domain.Checkout{
		ID: id, OrganizerID: "org_1", Livemode: true, KeyID: "key_1", EventID: "evt_1", State: domain.StateCreated, Currency: "EUR", Total: 5875,
		PromoState: domain.PromoNone, PurchaserEmail: "a@example.com", PurchaserName: "Ana", HoldExpiresAt: at, CreatedAt: at, UpdatedAt: at,
	}
	if _, _, err := repo.CreateCheckout(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if _, _, err := repo.Update(t.Context(), app.Update{Ref: app.CheckoutRef{ID: id}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.State, c.OrderID = domain.StatePaid, "ord_"+id
		c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_" + id}, at)
		c.RefundClaim = 1
		c.RefundRefused(1, &domain.RefundError{Code: "charge_disputed", Message: message, Permanent: true}, at)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
}

// refundsCommand runs `checkout refunds args...` and decodes its JSON lines.
func refundsCommand(t *testing.T, args ...string) ([]map[string]any, error) {
	t.Helper()
	var out bytes.Buffer
	err := program.Run(t.Context(), append([]string{"refunds"}, args...), &out)
	var lines []map[string]any
	for sc := bufio.NewScanner(&out); sc.Scan(); {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("output line %q: %v", sc.Text(), err)
		}
		lines = append(lines, l)
	}
	return lines, err
}

// TestRefundsCommandListsAndRetriesRefusedRefunds: `checkout refunds list` prints each
// REFUND_FAILED checkout with Stripe's code and message, escaped for a terminal (Stripe's
// message is not checkout's: a control or direction character in it is printed as an escape);
// `retry <id>` and `retry --all` move them back to REFUND_PENDING, due at once, and a refund
// worker then makes them. The command needs checkout's database only.
func TestRefundsCommandListsAndRetriesRefusedRefunds(t *testing.T) {
	pool := checkouttest.Pool(t)
	testkit.SetEnv(t, map[string]string{"DATABASE_URL": pool.Config().ConnString()})
	repo := store.New(pool)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	const forged = "stripe: refund: disputed\u202e\u009b2J\u001b[31m"
	messages := map[string]string{"chk_one": "stripe: refund: disputed\u202e\u009b2J\u001b[31m", "chk_two": "stripe: refund: disputed", "chk_three": "stripe: refund: disputed"}
	for i, id := range []string{"chk_one", "chk_two", "chk_three"} {
		refusedRefund(t, repo, id, messages[id], at.Add(time.Duration(i)*time.Minute))
	}

	var raw bytes.Buffer
	if err := program.Run(t.Context(), []string{"refunds", "list"}, &raw); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(raw.Bytes(), "\u202e\u009b\u001b") || !bytes.Contains(raw.Bytes(), []byte(`\u202e\u009b2J\u001b[31m`)) {
		t.Fatalf("list printed Stripe's message unescaped: %q", raw.String())
	}
	lines, err := refundsCommand(t, "list")
	if err != nil || len(lines) != 3 {
		t.Fatalf("list: %v %v", lines, err)
	}
	if l := lines[0]; l["checkoutId"] != "chk_one" || l["orderId"] != "ord_chk_one" || l["paymentIntent"] != "pi_chk_one" || l["amount"] != 5875.0 ||
		l["currency"] != "EUR" || l["reason"] != "NO_PLACE_LEFT" || l["state"] != "REFUND_FAILED" || l["code"] != "charge_disputed" ||
		l["message"] != forged || l["failedAt"] != "2026-11-22T10:00:00Z" {
		t.Fatalf("listed %v", l)
	}
	if lines, err := refundsCommand(t, "retry", "chk_two"); err != nil || len(lines) != 1 || lines[0]["state"] != "REFUND_PENDING" || lines[0]["code"] != nil {
		t.Fatalf("retry one: %v %v", lines, err)
	}
	if lines, err := refundsCommand(t, "list"); err != nil || len(lines) != 2 || lines[0]["checkoutId"] != "chk_one" || lines[1]["checkoutId"] != "chk_three" {
		t.Fatalf("list after retrying one: %v %v", lines, err)
	}
	if lines, err := refundsCommand(t, "retry", "--all"); err != nil || len(lines) != 2 {
		t.Fatalf("retry all: %v %v", lines, err)
	}
	if _, err := refundsCommand(t, "retry", "chk_one"); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("retry of a refund no longer refused: %v", err)
	}
	if _, err := refundsCommand(t, "retry", "chk_nobody"); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatalf("retry of an unknown checkout: %v", err)
	}
	for _, args := range [][]string{
		{}, {"retry"}, {"retry", "chk_one", "--all"}, {"list", "chk_one"}, {"list", "--verbose"}, {"forget"},
		{"retry", "--payment-intent", "pi_1", "chk_one", "chk_two"}, {"retry", "--payment-intent", "pi_1", "--all"}, {"list", "--payment-intent", "pi_1"},
	} {
		if _, err := refundsCommand(t, args...); !errors.Is(err, service.ErrUsage) {
			t.Errorf("refunds %v: %v, want a usage error", args, err)
		}
	}

	clock := &testkit.Clock{} // a minute ahead of the command's: what it retried is due on the worker's clock
	clock.Advance(time.Minute)
	stripe := payments.New(payments.Options{SecretKey: "sk_test_checkout", APIBase: checkouttest.NewStripe(t).URL, WebhookSecret: checkouttest.WebhookSecret, MaxNetworkRetries: -1})
	worker := app.New(repo, nil, nil, stripe, testkit.Logger(t), app.Options{Now: clock.Now})
	if made, err := worker.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Made: 3}) {
		t.Fatalf("the refund worker after the retries: %+v %v", made, err)
	}
	if lines, err := refundsCommand(t, "list"); err != nil || len(lines) != 0 {
		t.Fatalf("list after the refunds: %v %v", lines, err)
	}
}

// TestRefundsCommandNamesAMissingPayment: a refund with no payment to refund is listed with
// the code no_payment_to_refund; retrying it without naming the payment is refused (it would
// fail again at once), and `retry --payment-intent pi_… <id>` makes it due with that payment.
func TestRefundsCommandNamesAMissingPayment(t *testing.T) {
	pool := checkouttest.Pool(t)
	testkit.SetEnv(t, map[string]string{"DATABASE_URL": pool.Config().ConnString()})
	repo := store.New(pool)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	c := domain.Checkout{
		ID: "chk_nopi", OrganizerID: "org_1", Livemode: true, KeyID: "key_1", EventID: "evt_1", State: domain.StateCreated, Currency: "EUR", Total: 5875,
		PromoState: domain.PromoNone, PurchaserEmail: "a@example.com", PurchaserName: "Ana", HoldExpiresAt: at, CreatedAt: at, UpdatedAt: at,
	}
	if _, _, err := repo.CreateCheckout(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if _, _, err := repo.Update(t.Context(), app.Update{Ref: app.CheckoutRef{ID: c.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.State, c.OrderID = domain.StatePaid, "ord_nopi"
		c.RefundNoPlace(domain.OrderEvent{}, at)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if lines, err := refundsCommand(t, "list"); err != nil || len(lines) != 1 || lines[0]["code"] != domain.RefundCodeNoPayment || lines[0]["paymentIntent"] != "" {
		t.Fatalf("list: %v %v", lines, err)
	}
	if _, err := refundsCommand(t, "retry", "chk_nopi"); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("retry without naming the payment: %v, want a conflict", err)
	}
	if lines, err := refundsCommand(t, "retry", "--payment-intent", "pi_found", "chk_nopi"); err != nil || len(lines) != 1 ||
		lines[0]["state"] != "REFUND_PENDING" || lines[0]["paymentIntent"] != "pi_found" {
		t.Fatalf("retry naming the payment: %v %v", lines, err)
	}
}

// TestRefundsCommandResolvesARefundMadeOutsideCheckout: `refunds resolve --refund <ref> <id>`
// records a payment returned outside checkout as the refund of a REFUND_FAILED checkout, with
// payment.refunded in the outbox for registration; a checkout not refused, or the flag without
// resolve, is refused.
func TestRefundsCommandResolvesARefundMadeOutsideCheckout(t *testing.T) {
	pool := checkouttest.Pool(t)
	testkit.SetEnv(t, map[string]string{"DATABASE_URL": pool.Config().ConnString()})
	repo := store.New(pool)
	refusedRefund(t, repo, "chk_won", "stripe: refund: disputed", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))

	lines, err := refundsCommand(t, "resolve", "--refund", "re_dashboard", "chk_won")
	if err != nil || len(lines) != 1 || lines[0]["state"] != string(domain.StateRefundedNoPlace) || lines[0]["refundId"] != "re_dashboard" {
		t.Fatalf("resolve: %v %v", lines, err)
	}
	var refunded int
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM outbox WHERE headers->>'ce_type' = $1 AND key = 'ord_chk_won'`, domain.EventPaymentRefunded).Scan(&refunded); err != nil || refunded != 1 {
		t.Fatalf("payment.refunded in the outbox: %d %v", refunded, err)
	}
	if lines, err := refundsCommand(t, "list"); err != nil || len(lines) != 0 {
		t.Fatalf("list after resolving: %v %v", lines, err)
	}
	if _, err := refundsCommand(t, "resolve", "--refund", "re_again", "chk_won"); !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("resolve of a refunded checkout: %v", err)
	}
	for _, args := range [][]string{{"resolve", "chk_won"}, {"resolve", "--refund", "re_1"}, {"retry", "--refund", "re_1", "chk_won"}, {"resolve", "--refund", "re_1", "--all"}} {
		if _, err := refundsCommand(t, args...); !errors.Is(err, service.ErrUsage) {
			t.Errorf("refunds %v: %v, want a usage error", args, err)
		}
	}
}
