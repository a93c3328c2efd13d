package console_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/mail/mailcatch"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// browser is one browser of the console: its own cookies (kept by hand, as Go's cookie jar
// sends no Secure cookie to http://localhost, which browsers do), the CSRF token of the last
// page it loaded, and the client address it claims through the trusted proxy.
type browser struct {
	t       *testing.T
	env     *authtest.Env
	cookies map[string]string
	csrf    string
	address string
}

func newBrowser(t *testing.T, env *authtest.Env) *browser {
	return &browser{t: t, env: env, cookies: map[string]string{}, address: "203.0.113.10"}
}

// page is an answer of the console.
type page struct {
	status   int
	location string
	code     string
	body     string
	// set are the cookies it set, by name.
	set map[string]*http.Cookie
}

func (b *browser) do(method, path string, form url.Values, headers map[string]string) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(b.t.Context(), method, b.env.ConsoleURL+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("X-Forwarded-For", b.address)
	for name, value := range b.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	set := map[string]*http.Cookie{}
	for _, c := range res.Cookies() {
		set[c.Name] = c
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
			continue
		}
		if !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" {
			b.t.Fatalf("cookie %s is not Secure, HttpOnly, SameSite=Lax for /: %+v", c.Name, c)
		}
		b.cookies[c.Name] = c.Value
	}
	p := page{status: res.StatusCode, location: res.Header.Get("Location"), code: res.Header.Get("X-Console-Error"), body: string(raw), set: set}
	if m := csrfField.FindStringSubmatch(p.body); m != nil {
		b.csrf = m[1]
	}
	return p
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) get(path string) page {
	b.t.Helper()
	return b.do(http.MethodGet, path, nil, nil)
}

// post sends a form with the CSRF token of the last page loaded.
func (b *browser) post(path string, form url.Values) page {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if form.Get("csrf") == "" {
		form.Set("csrf", b.csrf)
	}
	return b.do(http.MethodPost, path, form, nil)
}

// askLink asks for a sign-in link for email and returns the link e-mailed.
func (b *browser) askLink(email string) string {
	b.t.Helper()
	before := len(b.env.Mail.Messages())
	b.get("/signin")
	if p := b.post("/signin", url.Values{"email": {email}}); p.status != http.StatusOK || !strings.Contains(p.body, "Check your inbox") {
		b.t.Fatalf("ask for a link: %d %s", p.status, p.body)
	}
	return linkIn(b.t, b.env, email, before)
}

// ask asks for a sign-in link for email, which is answered alike whatever the limits decide.
func (b *browser) ask(email string) page {
	b.t.Helper()
	b.get("/signin")
	p := b.post("/signin", url.Values{"email": {email}})
	if p.status != http.StatusOK || !strings.Contains(p.body, "Check your inbox") {
		b.t.Fatalf("ask for a link for %s: %d %s", email, p.status, p.body)
	}
	return p
}

// mailed returns the e-mails sent to email, once every e-mail the console decided to send so
// far has been sent (Console.Close waits for them).
func mailed(env *authtest.Env, email string) []mailcatch.Message {
	env.Console.Close()
	var out []mailcatch.Message
	for _, m := range env.Mail.Messages() {
		if mailcatch.To(email)(m) {
			out = append(out, m)
		}
	}
	return out
}

// linkIn waits for the e-mail to email after the first `after` messages and returns its link.
func linkIn(t *testing.T, env *authtest.Env, email string, after int) string {
	t.Helper()
	m := waitMail(t, env, email, after)
	link := signInLink.FindString(m.Body)
	if link == "" {
		t.Fatalf("no sign-in link in %q", m.Body)
	}
	return strings.TrimPrefix(link, env.ConsoleURL)
}

// waitMail waits for an e-mail to email after the first `after` messages.
func waitMail(t *testing.T, env *authtest.Env, email string, after int) mailcatch.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	n := 0
	m, err := env.Mail.Wait(ctx, func(m mailcatch.Message) bool {
		n++
		return n > after && mailcatch.To(email)(m)
	})
	if err != nil {
		t.Fatalf("no e-mail to %s: %v", email, err)
	}
	return m
}

var signInLink = regexp.MustCompile(`http://localhost:\d+/signin/[0-9A-Za-z]+`)

// signIn signs the browser in as email through the e-mailed link.
func (b *browser) signIn(email string) {
	b.t.Helper()
	link := b.askLink(email)
	if p := b.get(link); p.status != http.StatusOK {
		b.t.Fatalf("open the link: %d %s", p.status, p.body)
	}
	if p := b.post(link, nil); p.status != http.StatusSeeOther || p.location != "/" {
		b.t.Fatalf("sign in: %d %s %s", p.status, p.location, p.body)
	}
}

// regexp1 returns the first group of pattern in s.
func regexp1(t *testing.T, s, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("%s not found in %s", pattern, s)
	}
	return m[1]
}
