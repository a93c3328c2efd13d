package podium_test

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	podium "github.com/podiumhq/podium/clients/go"
)

const orderCompleted = `{"type":"order.completed","timestamp":"2026-05-09T18:03:21.447Z","data":{` +
	`"objectId":"ord_4Zx6Cv8Bn0Mq2Wr4Ty6Ui8Op","sequence":3,"livemode":false,"object":{` +
	`"orderId":"ord_4Zx6Cv8Bn0Mq2Wr4Ty6Ui8Op","eventId":"evt_7Hq2LmN4pR8sT1vW3xY5zA9b",` +
	`"status":"COMPLETED","amount":10650,"currency":"EUR"}}}`

func newSecret(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// signed returns the headers of a message signed at ts with each of secrets.
func signed(t *testing.T, body string, ts time.Time, secrets ...string) http.Header {
	t.Helper()
	h := http.Header{}
	h.Set("webhook-id", "msg_2Kq4Ws6Ed8Rf0Tg2Yh4Uj6Ik")
	h.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	sigs := ""
	for _, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := wh.Sign(h.Get("webhook-id"), ts, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if sigs != "" {
			sigs += " "
		}
		sigs += sig
	}
	h.Set("webhook-signature", sigs)
	return h
}

func TestVerifyWebhookDecodesAValidMessage(t *testing.T) {
	secret := newSecret(t)
	e, err := podium.VerifyWebhook(secret, signed(t, orderCompleted, time.Now(), secret), []byte(orderCompleted))
	if err != nil {
		t.Fatal(err)
	}
	if e.ID != "msg_2Kq4Ws6Ed8Rf0Tg2Yh4Uj6Ik" || e.Type != "order.completed" || e.Data.ObjectID != "ord_4Zx6Cv8Bn0Mq2Wr4Ty6Ui8Op" ||
		e.Data.Sequence != 3 || e.Data.Livemode || !e.Timestamp.Equal(time.Date(2026, 5, 9, 18, 3, 21, 447e6, time.UTC)) {
		t.Fatalf("event %+v", e)
	}
	var o podium.Order
	if err := json.Unmarshal(e.Data.Object, &o); err != nil || o.Amount == nil || *o.Amount != 10650 {
		t.Fatalf("order %+v, %v", o, err)
	}
}

func TestVerifyWebhookRefuses(t *testing.T) {
	secret := newSecret(t)
	for _, c := range []struct {
		name    string
		secret  string
		headers http.Header
		body    string
		want    error
	}{
		{"a tampered body", secret, signed(t, orderCompleted, time.Now(), secret),
			orderCompleted[:len(orderCompleted)-3] + " }}", standardwebhooks.ErrNoMatchingSignature},
		{"another secret", newSecret(t), signed(t, orderCompleted, time.Now(), secret),
			orderCompleted, standardwebhooks.ErrNoMatchingSignature},
		{"an old timestamp", secret, signed(t, orderCompleted, time.Now().Add(-6*time.Minute), secret),
			orderCompleted, standardwebhooks.ErrMessageTooOld},
		{"a future timestamp", secret, signed(t, orderCompleted, time.Now().Add(6*time.Minute), secret),
			orderCompleted, standardwebhooks.ErrMessageTooNew},
		{"no signature", secret, http.Header{}, orderCompleted, standardwebhooks.ErrRequiredHeaders},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := podium.VerifyWebhook(c.secret, c.headers, []byte(c.body))
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

func TestVerifyWebhookTakesEitherSecretDuringRotation(t *testing.T) {
	previous, current := newSecret(t), newSecret(t)
	h := signed(t, orderCompleted, time.Now(), previous, current)
	for _, s := range []string{previous, current} {
		if _, err := podium.VerifyWebhook(s, h, []byte(orderCompleted)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := podium.VerifyWebhook(newSecret(t), h, []byte(orderCompleted)); err == nil {
		t.Fatal("a third secret verified the message")
	}
}
