package delivery_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// verify checks a signed message with the Standard Webhooks reference library, as a receiver
// holding secret does.
func verify(t *testing.T, secret delivery.Secret, id string, at time.Time, body []byte, signature string) error {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret.String())
	if err != nil {
		t.Fatalf("reference library refuses the secret %q: %v", secret, err)
	}
	h := http.Header{}
	h.Set(standardwebhooks.HeaderWebhookID, id)
	h.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(at.Unix(), 10))
	h.Set(standardwebhooks.HeaderWebhookSignature, signature)
	return wh.Verify(body, h)
}

func TestSignatureVerifiesWithTheReferenceLibrary(t *testing.T) {
	secret := delivery.NewSecret()
	body := []byte(`{"type":"order.completed","timestamp":"2026-05-09T18:03:21.447Z","data":{"objectId":"ord_1","sequence":3,"livemode":true,"object":{}}}`)
	at := time.Now()
	sig := delivery.Sign([]delivery.Secret{secret}, "msg_1", at, body)
	if !strings.HasPrefix(sig, "v1,") || strings.Contains(sig, " ") {
		t.Fatalf("signature %q is not one v1 signature", sig)
	}
	if err := verify(t, secret, "msg_1", at, body, sig); err != nil {
		t.Fatalf("reference library: %v", err)
	}
	if err := verify(t, secret, "msg_1", at, append(body, ' '), sig); err == nil {
		t.Fatal("a changed body verifies")
	}
	if err := verify(t, secret, "msg_2", at, body, sig); err == nil {
		t.Fatal("another message id verifies")
	}
	if err := verify(t, delivery.NewSecret(), "msg_1", at, body, sig); err == nil {
		t.Fatal("another secret verifies")
	}
}

func TestWhileASecretRotatesBothVerifyAndTheNewestSignsFirst(t *testing.T) {
	old, current := delivery.NewSecret(), delivery.NewSecret()
	body := []byte(`{"type":"ping"}`)
	at := time.Now()
	sig := delivery.Sign([]delivery.Secret{current, old}, "msg_rot", at, body)
	parts := strings.Split(sig, " ")
	if len(parts) != 2 {
		t.Fatalf("signature %q: want two space-separated signatures", sig)
	}
	if parts[0] != delivery.Sign([]delivery.Secret{current}, "msg_rot", at, body) {
		t.Fatalf("signature %q does not start with the newest secret's", sig)
	}
	for name, s := range map[string]delivery.Secret{"old": old, "new": current} {
		if err := verify(t, s, "msg_rot", at, body, sig); err != nil {
			t.Errorf("the %s secret does not verify: %v", name, err)
		}
	}
	if err := verify(t, delivery.NewSecret(), "msg_rot", at, body, sig); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
		t.Fatalf("a third secret: %v, want no matching signature", err)
	}
}

func TestSecretsAreWhsecAndTheBase64Of32Bytes(t *testing.T) {
	s := delivery.NewSecret()
	text := s.String()
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(text, "whsec_"))
	if !strings.HasPrefix(text, "whsec_") || err != nil || len(raw) != 32 {
		t.Fatalf("NewSecret().String() = %q", text)
	}
	parsed, err := delivery.ParseSecret(text)
	if err != nil || parsed.String() != text {
		t.Fatalf("ParseSecret(%q) = %q, %v", text, parsed, err)
	}
	if delivery.NewSecret().String() == text {
		t.Fatal("two new secrets are equal")
	}
	b64 := func(n int) string { return base64.StdEncoding.EncodeToString(make([]byte, n)) }
	for _, bad := range []string{
		"", "whsec_", strings.TrimPrefix(text, "whsec_"), "WHSEC_" + b64(32), "whsec_" + b64(31), "whsec_" + b64(33),
		"whsec_" + strings.TrimRight(b64(32), "="), "whsec_" + base64.URLEncoding.EncodeToString([]byte(strings.Repeat("\xff", 32))),
		"whsec_" + b64(32) + "\n",
	} {
		if _, err := delivery.ParseSecret(bad); !errors.Is(err, delivery.ErrMalformedSecret) {
			t.Errorf("ParseSecret(%q) = %v, want ErrMalformedSecret", bad, err)
		}
	}
}

func FuzzParseSecret(f *testing.F) {
	f.Add(delivery.NewSecret().String())
	f.Add("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := delivery.ParseSecret(text)
		if err != nil {
			return
		}
		if s.String() != text {
			t.Fatalf("ParseSecret(%q) reads back as %q", text, s)
		}
	})
}
