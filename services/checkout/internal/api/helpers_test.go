package api_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestMain(m *testing.M) { os.Exit(checkouttest.Main(m)) }

// start runs the service with the fixture event in the catalog double.
func start(t testing.TB, o checkouttest.Options) *checkouttest.Env {
	env := checkouttest.Start(t, o)
	env.Catalog.Put(checkouttest.Event())
	return env
}

var validator = func() *apispec.Validator {
	v, err := apispec.NewValidator()
	if err != nil {
		panic(err)
	}
	return v
}()

// conforms checks an answer against the contract's response schema of the operation.
func conforms(t testing.TB, operation string, r testkit.Response) {
	t.Helper()
	if err := validator.ValidateResponse(operation, r.Status, r.Raw); err != nil {
		t.Fatalf("%s %d answer breaks the contract: %v\n%s", operation, r.Status, err, r.Raw)
	}
}

// validRequest checks a test body against the contract's request schema, so tests send what
// the gateway would let through.
func validRequest(t testing.TB, operation string, body any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	if err := validator.ValidateRequest(operation, raw); err != nil {
		t.Fatalf("test body for %s is not valid: %v", operation, err)
	}
}

// wantError checks the status and the standard error body; message is a string, a list of
// problems ([]any) or nil for any.
func wantError(t testing.TB, r testkit.Response, status int, message any) {
	t.Helper()
	if r.Status != status || r.Body["statusCode"] != float64(status) || r.Body["error"] == nil || r.Body["requestId"] == nil {
		t.Fatalf("status %d body %s, want %d", r.Status, r.Raw, status)
	}
	if message != nil && !reflect.DeepEqual(r.Body["message"], message) {
		t.Fatalf("message %#v, want %#v", r.Body["message"], message)
	}
	conforms(t, "browserCheckoutSession", r)
}

// session posts a checkout session request as the gateway forwards it.
func session(t testing.TB, env *checkouttest.Env, body map[string]any) testkit.Response {
	t.Helper()
	return env.Browser(t, "session", body, checkouttest.KeyID)
}

// state returns a checkout's state and promocode state.
func state(t testing.TB, env *checkouttest.Env, id string) (string, string) {
	t.Helper()
	var s, p string
	if err := env.Pool.QueryRow(t.Context(), `SELECT state, promocode_state FROM checkouts WHERE id = $1`, id).Scan(&s, &p); err != nil {
		t.Fatalf("checkout %s: %v", id, err)
	}
	return s, p
}

// checkoutOfOrder returns the id of the checkout of an order.
func checkoutOfOrder(t testing.TB, env *checkouttest.Env, orderID string) string {
	t.Helper()
	var id string
	if err := env.Pool.QueryRow(t.Context(), `SELECT id FROM checkouts WHERE order_id = $1`, orderID).Scan(&id); err != nil {
		t.Fatalf("checkout of %s: %v", orderID, err)
	}
	return id
}

// uses returns the uses of a promocode of the fixture event at the service clock's time.
func uses(t testing.TB, env *checkouttest.Env, code string) int {
	t.Helper()
	return env.PromocodeUses(t, checkouttest.EventID, code)
}

func count(t testing.TB, env *checkouttest.Env, query string, args ...any) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// payments consumes checkout.payments.v1 from the start until the test ends.
func payments(t testing.TB, env *checkouttest.Env) <-chan broker.Message {
	got := make(chan broker.Message, 100)
	testkit.Background(t, func(ctx context.Context) error {
		return broker.Consume(ctx, broker.ConsumerConfig{
			Cluster: broker.Cluster{Brokers: env.Brokers}, Group: "registration-test", Topics: []string{domain.PaymentsTopic}, Log: testkit.Logger(t),
		}, func(_ context.Context, m broker.Message) error { got <- m; return nil })
	})
	return got
}

// next waits for the next message.
func next(t testing.TB, ch <-chan broker.Message) broker.Message {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no payment event within 30s")
	}
	return broker.Message{}
}

// markerType is the type of the marker messages quiet sends behind the service's own.
const markerType = "test.marker"

// quiet checks that the service published no further payment event about the orders: a
// marker per order, enqueued in checkout's outbox now and keyed by the order (so relayed
// after, and read from the same partition behind, anything enqueued before it), arrives
// before any other message.
func quiet(t testing.TB, env *checkouttest.Env, ch <-chan broker.Message, orderIDs ...string) {
	t.Helper()
	if err := pgx.BeginFunc(t.Context(), env.Pool, func(tx pgx.Tx) error {
		for _, id := range orderIDs {
			if _, err := outbox.Enqueue(t.Context(), tx, outbox.Event{Topic: domain.PaymentsTopic, Key: id, Type: markerType, Source: "test"}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for range orderIDs {
		if m := next(t, ch); m.Headers[broker.HeaderType] != markerType {
			t.Fatalf("unexpected payment event %s %s", m.Headers[broker.HeaderType], m.Value)
		}
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// stripeSignature is a Stripe-Signature header for payload signed with secret at a time.
func stripeSignature(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// wantCode checks the error body's code.
func wantCode(t testing.TB, r testkit.Response, code string) {
	t.Helper()
	if r.Body["code"] != code {
		t.Fatalf("code %v, want %s: %s", r.Body["code"], code, r.Raw)
	}
}
