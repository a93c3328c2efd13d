package webhookstest

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/mail/mailcatch"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/auth"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
)

// Notifier returns the notifier of endpoints disabled for failing, with an SMTP catcher for its
// mail and a double of auth's contacts; it runs when the test calls it.
func (e *Env) Notifier(t testing.TB) (*app.Notifier, *mailcatch.Catcher, *Auth) {
	t.Helper()
	catcher, err := mailcatch.Start("127.0.0.1:0", mailcatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = catcher.Close() })
	host, port, err := net.SplitHostPort(catcher.Addr())
	if err != nil {
		t.Fatal(err)
	}
	portNumber, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	double := StartAuth(t, e.Issuers.Verifier(identity.Auth))
	contacts := auth.New(peer.New(peer.Options{Name: identity.Auth, BaseURL: double.URL, Timeout: 5 * time.Second, Signer: e.Issuers.Signer(identity.Webhooks)}))
	sender := mail.NewSender(config.SMTP{SMTPHost: host, SMTPPort: portNumber, SMTPFrom: "Podium <no-reply@podium.test>"}, 5*time.Second)
	return &app.Notifier{Service: e.Service, Contacts: contacts, Sender: sender, Poll: 50 * time.Millisecond}, catcher, double
}
