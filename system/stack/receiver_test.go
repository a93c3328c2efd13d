package stack

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/podiumhq/podium/libs/testkit"
)

func newSecret(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// send posts body to url signed with secret now, as a webhooks service would, and returns the
// status.
func send(t *testing.T, url, secret, id string, body []byte) int {
	t.Helper()
	return sendAt(t, url, secret, id, body, time.Now())
}

// sendAt is send with the signature's timestamp at now.
func sendAt(t *testing.T, url, secret, id string, body []byte, now time.Time) int {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := wh.Sign(id, now, body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(standardwebhooks.HeaderWebhookID, id)
	req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func startReceiver(t *testing.T, o ReceiverOptions) *Receiver {
	t.Helper()
	r, err := StartReceiver("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func TestReceiverVerifiesEachWebhookAndListsWhatArrived(t *testing.T) {
	r := startReceiver(t, ReceiverOptions{})
	secret := newSecret(t)
	if err := r.SetSecret(secret); err != nil {
		t.Fatal(err)
	}
	arrived := r.Arrived()
	good := []byte(`{"type":"order.completed","timestamp":"2026-05-09T18:03:21.447Z","data":{"objectId":"ord_1","sequence":1,"livemode":true,"object":{}}}`)
	if status := send(t, r.EndpointURL(), secret, "msg_good", good); status != http.StatusOK {
		t.Fatalf("answered %d, want 200", status)
	}
	select {
	case <-arrived:
	default:
		t.Fatal("Arrived's channel is not closed after a webhook arrived")
	}
	forged := []byte(`{"type":"registration.created","timestamp":"2026-05-09T18:03:22Z","data":{}}`)
	send(t, r.EndpointURL(), newSecret(t), "msg_forged", forged)

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	got, err := r.Wait(ctx, func(w Webhook) bool { return w.ID == "msg_forged" })
	if err != nil {
		t.Fatal(err)
	}
	if got.Verified || got.VerifyError == "" || got.Type != "registration.created" || !bytes.Equal(got.Body, forged) {
		t.Errorf("a webhook signed with another secret was kept as %+v", got)
	}
	hooks := r.Webhooks()
	if len(hooks) != 2 || !hooks[0].Verified || hooks[0].Type != "order.completed" || !bytes.Equal(hooks[0].Body, good) ||
		hooks[0].Header.Get("Webhook-Signature") == "" {
		t.Fatalf("kept %+v", hooks)
	}

	res := testkit.Do(t, http.MethodGet, r.URL+"/events", nil, nil)
	var listed struct {
		Data []struct {
			ID       string          `json:"id"`
			Type     string          `json:"type"`
			Verified bool            `json:"verified"`
			Body     json.RawMessage `json:"body"`
			Headers  http.Header     `json:"headers"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res.Raw, &listed); err != nil || len(listed.Data) != 2 {
		t.Fatalf("/events answered %d %s (%v)", res.Status, res.Raw, err)
	}
	if d := listed.Data[0]; d.ID != "msg_good" || !d.Verified || !bytes.Equal(d.Body, good) || d.Headers.Get("Webhook-Id") != "msg_good" {
		t.Errorf("/events lists %+v first", d)
	}

	page := html.UnescapeString(string(testkit.Do(t, http.MethodGet, r.URL+"/", nil, nil).Raw))
	newest, oldest := strings.Index(page, "msg_forged"), strings.Index(page, "msg_good")
	if newest < 0 || oldest < 0 || newest > oldest || !strings.Contains(page, `"objectId": "ord_1"`) {
		t.Errorf("the page does not list both, newest first, bodies indented:\n%s", page)
	}
}

func TestReceiverAnswersWhatItsOptionsSay(t *testing.T) {
	r := startReceiver(t, ReceiverOptions{Status: func(Webhook) int { return http.StatusGone }})
	secret := newSecret(t)
	if err := r.SetSecret(secret); err != nil {
		t.Fatal(err)
	}
	if status := send(t, r.EndpointURL(), secret, "msg_1", []byte(`{"type":"ping"}`)); status != http.StatusGone {
		t.Fatalf("answered %d, want 410", status)
	}
	if hooks := r.Webhooks(); len(hooks) != 1 || hooks[0].Status != http.StatusGone || !hooks[0].Verified {
		t.Errorf("kept %+v", hooks)
	}
}

func TestReceiverChecksTheTimestampUnlessToldNotTo(t *testing.T) {
	dayLater := time.Now().Add(24 * time.Hour)
	for _, ignore := range []bool{false, true} {
		r := startReceiver(t, ReceiverOptions{IgnoreTimestamp: ignore})
		secret := newSecret(t)
		if err := r.SetSecret(secret); err != nil {
			t.Fatal(err)
		}
		sendAt(t, r.EndpointURL(), secret, "msg_1", []byte(`{"type":"ping"}`), dayLater)
		if hooks := r.Webhooks(); len(hooks) != 1 || hooks[0].Verified != ignore {
			t.Errorf("IgnoreTimestamp %t: a webhook signed a day ahead was kept as %+v", ignore, hooks)
		}
	}
}

func TestReceiverWaitEndsWithItsContext(t *testing.T) {
	r := startReceiver(t, ReceiverOptions{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.Wait(ctx, func(Webhook) bool { return true }); err == nil {
		t.Fatal("Wait returned without a webhook")
	}
}

func TestReceiverListensOnTheLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "10.0.0.1:0", "example.com:0"} {
		if r, err := StartReceiver(addr, ReceiverOptions{}); err == nil {
			_ = r.Close()
			t.Errorf("StartReceiver(%q) listened", addr)
		}
	}
}
