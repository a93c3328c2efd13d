package api_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func holdBody(holdID string, expires time.Time, regs ...map[string]any) map[string]any {
	return map[string]any{
		"holdId": holdID, "eventId": evtA, "expiresAt": expires.UTC().Format(time.RFC3339), "currency": "EUR", "amount": 6500,
		"purchaserEmail": "buyer@example.com", "purchaserName": "Buyer", "registrations": regs,
	}
}

func holdReg(name string) map[string]any {
	return map[string]any{"categoryId": "cat_rx", "teamName": "Team " + name, "athletes": []any{athlete(name, "MALE", "1990-01-01")},
		"customFields": []any{map[string]any{"fieldId": "fld_size", "value": "S"}}}
}

func places(t *testing.T, env *regtest.Env, cat string) (confirmed, held int) {
	t.Helper()
	_ = env.Pool.QueryRow(t.Context(), `SELECT confirmed, held FROM places WHERE category_id = $1`, cat).Scan(&confirmed, &held)
	return
}

func orderStatus(t *testing.T, env *regtest.Env, id string) string {
	t.Helper()
	var s string
	if err := env.Pool.QueryRow(t.Context(), `SELECT status FROM orders WHERE id = $1`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHoldConfirmRelease(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA) // sent to the hold routes as checkout calls them for this key
	exp := time.Now().Add(30 * time.Minute)
	r := env.Do(t, "POST", "/internal/holds", holdBody("idem-1", exp, holdReg("Ana"), holdReg("Bea")), tok)
	if r.Status != 201 || r.Body["status"] != "PENDING" || len(r.Body["registrations"].([]any)) != 2 {
		t.Fatalf("hold: %d %s", r.Status, r.Raw)
	}
	order := r.Body["orderId"].(string)
	if c, h := places(t, env, "cat_rx"); c != 0 || h != 2 {
		t.Fatalf("places %d/%d", c, h)
	}
	again := env.Do(t, "POST", "/internal/holds", holdBody("idem-1", exp, holdReg("Ana"), holdReg("Bea")), tok)
	if again.Status != 200 || again.Body["orderId"] != order {
		t.Fatalf("same hold id: %d %s", again.Status, again.Raw)
	}
	young := holdReg("Kid")
	young["athletes"] = []any{athlete("Kid", "MALE", "2015-01-01")}
	wantError(t, env.Do(t, "POST", "/internal/holds", holdBody("idem-2", exp, young), tok), 422, "registrations[0].athletes[0].birthDate: athlete is 12")
	wantError(t, env.Do(t, "POST", "/internal/holds", map[string]any{"eventId": evtA}, tok), 400, "holdId is required", "registrations must have at least 1 item")

	for range 2 { // two messages of one payment: the second changes nothing
		pay(t, env, order, "pi_1", 6500)
		if s := orderStatus(t, env, order); s != "COMPLETED" {
			t.Fatalf("paid order %s", s)
		}
	}
	if c, h := places(t, env, "cat_rx"); c != 2 || h != 0 {
		t.Fatalf("places after confirm %d/%d", c, h)
	}
	completed := env.Do(t, "POST", "/internal/holds/"+order+"/release", map[string]any{"reason": "CANCELLED"}, tok)
	wantError(t, completed, 409, "COMPLETED")
	wantCode(t, completed, "conflict")

	// A released hold frees its places; releasing again is harmless.
	r = env.Do(t, "POST", "/internal/holds", holdBody("idem-3", exp, holdReg("Cid")), tok)
	o3 := r.Body["orderId"].(string)
	for range 2 {
		rel := env.Do(t, "POST", "/internal/holds/"+o3+"/release", map[string]any{"reason": "FAILED"}, tok)
		if rel.Status != 200 || rel.Body["status"] != "FAILED" {
			t.Fatalf("release: %d %s", rel.Status, rel.Raw)
		}
	}
	if c, h := places(t, env, "cat_rx"); c != 2 || h != 0 {
		t.Fatalf("places after release %d/%d", c, h)
	}
	// Searchable: its ticket is CANCELLED, the order FAILED.
	s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"status": "FAILED", "ticketStatus": "ALL"}, env.Secret(t, orgA))
	if s.Body["total"].(float64) != 1 {
		t.Fatalf("failed order search %s", s.Raw)
	}
	// A late payment takes the place again when one is left.
	if pay(t, env, o3, "pi_3", 6500); orderStatus(t, env, o3) != "COMPLETED" {
		t.Fatalf("late payment: order %s", orderStatus(t, env, o3))
	}
	if c, _ := places(t, env, "cat_rx"); c != 3 {
		t.Fatalf("confirmed %d after the late payment", c)
	}
	s = env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"status": "COMPLETED"}, env.Secret(t, orgA))
	if s.Body["total"].(float64) != 3 {
		t.Fatalf("completed active tickets %s", s.Raw)
	}
}

// TestHoldKeepsGuestContacts: a registration bought for a guest keeps the guest's e-mail and
// name, shown on its search rows; the buyer's own registration has none. A contact without a
// valid e-mail or a name is refused.
func TestHoldKeepsGuestContacts(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	guest := holdReg("Bea")
	guest["guestEmail"], guest["guestName"] = "bea@example.com", "Bea Guest"
	r := env.Do(t, "POST", "/internal/holds", holdBody("guest-1", time.Now().Add(time.Hour), holdReg("Ana"), guest), tok)
	if r.Status != 201 {
		t.Fatalf("hold: %d %s", r.Status, r.Raw)
	}
	s := env.Do(t, "POST", "/external/v1/organizer/registrations/search", map[string]any{"status": "PENDING", "sortBy": "athlete-asc"}, env.Secret(t, orgA))
	rows, _ := s.Body["data"].([]any)
	if s.Status != 201 || len(rows) != 2 {
		t.Fatalf("search: %d %s", s.Status, s.Raw)
	}
	own := rows[0].(map[string]any)["registration"].(map[string]any)
	bought := rows[1].(map[string]any)["registration"].(map[string]any)
	if _, ok := own["guest"]; ok {
		t.Fatalf("the buyer's own registration has a guest: %v", own["guest"])
	}
	if g, _ := bought["guest"].(map[string]any); g["email"] != "bea@example.com" || g["name"] != "Bea Guest" {
		t.Fatalf("guest registration: %v", bought["guest"])
	}

	bad := holdReg("Cid")
	bad["guestEmail"], bad["guestName"] = "cid", "C"
	wantError(t, env.Do(t, "POST", "/internal/holds", holdBody("guest-2", time.Now().Add(time.Hour), bad), tok), 400,
		"registrations[0].guestEmail: must be a valid e-mail address", "registrations[0].guestName: must be at least 2 characters long")
}

func TestSweeperReleasesExpiredHolds(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	o := env.Do(t, "POST", "/internal/holds", holdBody("s-1", time.Now().Add(time.Minute), holdReg("Ana")), tok).Body["orderId"].(string)
	keep := env.Do(t, "POST", "/internal/holds", holdBody("s-2", time.Now().Add(time.Hour), holdReg("Bea")), tok).Body["orderId"].(string)
	if n, err := env.Service.SweepExpired(t.Context(), 10); err != nil || n != 0 {
		t.Fatalf("swept %d (%v) before expiry", n, err)
	}
	env.Clock.Advance(2 * time.Minute)
	if n, err := env.Service.SweepExpired(t.Context(), 10); err != nil || n != 1 {
		t.Fatalf("swept %d (%v)", n, err)
	}
	if orderStatus(t, env, o) != "CANCELLED" || orderStatus(t, env, keep) != "PENDING" {
		t.Fatalf("orders %s %s", orderStatus(t, env, o), orderStatus(t, env, keep))
	}
	var reason string
	_ = env.Pool.QueryRow(t.Context(), `SELECT release_reason FROM orders WHERE id = $1`, o).Scan(&reason)
	if c, h := places(t, env, "cat_rx"); c != 0 || h != 1 || reason != "EXPIRED" {
		t.Fatalf("places %d/%d reason %s", c, h, reason)
	}
	// The sweeper loop does the same on its own.
	env.Clock.Advance(2 * time.Hour)
	testkit.Background(t, func(ctx context.Context) error {
		return env.Service.RunSweeper(ctx, 20*time.Millisecond, testkit.Logger(t))
	})
	testkit.Eventually(t, 5*time.Second, func() string {
		return unless(orderStatus(t, env, keep) == "CANCELLED", "the sweeper loop did not release the expired hold")
	})
}

// TestClientNetworkIsKeptWhileTheHoldIsUnpaid: an order's client network serves the caps on
// unpaid places only, so it is forgotten as the order leaves PENDING: paid, released or
// expired (swept); an unpaid hold keeps it.
func TestClientNetworkIsKeptWhileTheHoldIsUnpaid(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	now := env.Clock.Now()
	hold := func(id string, exp time.Time) string {
		r := env.Do(t, "POST", "/internal/holds", cappedHold(id, 1, id+"@example.com", "192.0.2.60", exp), tok)
		if r.Status != 201 {
			t.Fatalf("hold %s: %d %s", id, r.Status, r.Raw)
		}
		return r.Body["orderId"].(string)
	}
	paid, released, expired, unpaid := hold("paid", now.Add(time.Hour)), hold("released", now.Add(time.Hour)),
		hold("expired", now.Add(time.Minute)), hold("unpaid", now.Add(time.Hour))
	if pay(t, env, paid, "pi_1", 6500); orderStatus(t, env, paid) != "COMPLETED" {
		t.Fatalf("paid order %s", orderStatus(t, env, paid))
	}
	if r := env.Do(t, "POST", "/internal/holds/"+released+"/release", map[string]any{"reason": "CANCELLED"}, tok); r.Status != 200 {
		t.Fatalf("release: %d %s", r.Status, r.Raw)
	}
	env.Clock.Advance(2 * time.Minute)
	if n, err := env.Service.SweepExpired(t.Context(), 10); err != nil || n != 1 {
		t.Fatalf("swept %d (%v)", n, err)
	}
	for id, want := range map[string]bool{paid: false, released: false, expired: false, unpaid: true} {
		var network *string
		if err := env.Pool.QueryRow(t.Context(), `SELECT client_network FROM orders WHERE id = $1`, id).Scan(&network); err != nil {
			t.Fatal(err)
		}
		if (network != nil) != want {
			t.Errorf("order %s (%s): client network %v, want kept %v", id, orderStatus(t, env, id), network, want)
		}
	}
}

// TestHoldsAreTheNamedOrganizers: a hold is made for the organizer its caller names, and for
// no other: with the event read from the catalog and cached, another organizer, or none at
// all, does not find it, and nothing is held for them.
func TestHoldsAreTheNamedOrganizers(t *testing.T) {
	env := start(t, regtest.Options{CatalogTTL: time.Hour})
	exp := env.Clock.Now().Add(time.Hour)
	if r := env.Do(t, "POST", "/internal/holds", holdBody("own", exp, holdReg("Ana")), env.Browser(t, orgA)); r.Status != 201 {
		t.Fatalf("the organizer's own hold: %d %s", r.Status, r.Raw)
	}
	in := app.HoldInput{
		HoldID: "other", EventID: evtA, ExpiresAt: exp, Amount: 6500, PurchaserEmail: "buyer@example.com",
		Registrations: []domain.RegistrationInput{{CategoryID: "cat_rx", TeamName: "Team Bea",
			Athletes:     []domain.Athlete{{Fullname: "Bea", IDNumber: "ID-Bea", Email: "bea@example.com", Phone: "+34600111222", Gender: "MALE", BirthDate: "1990-01-01"}},
			CustomFields: []domain.CustomFieldValue{{FieldID: "fld_size", Value: "S"}}}},
	}
	for _, organizer := range []string{orgB, ""} {
		if h, err := env.Service.CreateHold(t.Context(), identity.Principal{OrganizerID: organizer, KeyID: "key_pk", KeyType: identity.Publishable}, in); !errors.Is(err, fault.ErrNotFound) {
			t.Fatalf("a hold for organizer %q of %s's event: %+v %v, want not found", organizer, orgA, h.Order, err)
		}
	}
	if _, h := places(t, env, "cat_rx"); h != 1 {
		t.Fatalf("%d places held, want the organizer's own 1", h)
	}
}
