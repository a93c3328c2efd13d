package console_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// TestTracesNeverCarryASignInToken: an operator's sign-in link signs in any browser, so whoever
// could read it in a trace could sign in. Opening and using one leaves no span, of the console or
// of anything it calls, that holds the token.
func TestTracesNeverCarryASignInToken(t *testing.T) {
	_, spans := testkit.Tracing(t)
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	r := env.Admin(t, http.MethodPost, "/admin/sign-in-links", map[string]any{"email": acme.owner})
	if r.Status != http.StatusCreated {
		t.Fatalf("operator link: %d %s", r.Status, r.Raw)
	}
	link := strings.TrimPrefix(r.Body["url"].(string), env.ConsoleURL)
	token := strings.TrimPrefix(link, "/signin/")
	if token == link || len(token) < 20 {
		t.Fatalf("the link %q holds no token", link)
	}
	b := newBrowser(t, env)
	if p := b.get(link); p.status != http.StatusOK {
		t.Fatalf("open the link: %d %s", p.status, p.body)
	}
	if p := b.post(link, nil); p.status != http.StatusSeeOther {
		t.Fatalf("sign in: %d %s", p.status, p.body)
	}

	signIn := 0
	for _, s := range spans.Ended() {
		if strings.HasSuffix(s.Name(), " /signin/:token") {
			signIn++
		}
		texts := []string{s.Name(), s.Status().Description}
		for _, a := range s.Attributes() {
			texts = append(texts, string(a.Key)+"="+a.Value.String())
		}
		for _, e := range s.Events() {
			texts = append(texts, e.Name)
			for _, a := range e.Attributes {
				texts = append(texts, string(a.Key)+"="+a.Value.String())
			}
		}
		for _, text := range texts {
			if strings.Contains(text, token) {
				t.Errorf("span %q carries the sign-in token: %q", s.Name(), text)
			}
		}
	}
	if signIn != 2 {
		t.Fatalf("%d spans of /signin/:token, want the GET and the POST", signIn)
	}
}
