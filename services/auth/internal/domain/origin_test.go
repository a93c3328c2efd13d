package domain_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

func TestNormalizeOriginAccepts(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://example.com", "https://example.com"},
		{"https://Shop.Example.COM", "https://shop.example.com"},
		{"HTTPS://example.com", "https://example.com"},
		{"https://example.com:443", "https://example.com"},
		{"https://example.com:0443", "https://example.com"},
		{"https://example.com:8443", "https://example.com:8443"},
		{"https://xn--bcher-kva.example", "https://xn--bcher-kva.example"},
		{"https://203.0.113.7", "https://203.0.113.7"},
		{"https://[2001:DB8:0:0:0:0:0:1]", "https://[2001:db8::1]"},
		{"http://localhost", "http://localhost"},
		{"http://LOCALHOST:3000", "http://localhost:3000"},
		{"http://localhost:80", "http://localhost"},
		{"http://127.0.0.1:5173", "http://127.0.0.1:5173"},
		{"http://[::1]:8080", "http://[::1]:8080"},
		{"http://[0:0:0:0:0:0:0:1]", "http://[::1]"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := domain.NormalizeOrigin(c.in)
			if err != nil || got != c.want {
				t.Fatalf("NormalizeOrigin(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
}

func TestNormalizeOriginRefuses(t *testing.T) {
	cases := []struct{ in, reason string }{
		{"", "bare origin"},
		{"example.com", "bare origin"},
		{"//example.com", "bare origin"},
		{"https:example.com", "bare origin"},
		{"https://example.com/", "path"},
		{"https://example.com/shop", "path"},
		{"https://example.com?x=1", "query"},
		{"https://example.com?", "query"},
		{"https://example.com#top", "fragment"},
		{"http://example.com", "plain http is allowed only for localhost"},
		{"http://192.168.1.10:8080", "plain http is allowed only for localhost"},
		{"http://localhost.example.com", "plain http is allowed only for localhost"},
		{"ftp://example.com", "https scheme"},
		{"javascript://example.com", "https scheme"},
		{"null", "bare origin"},
		{"https://user:pw@example.com", "user information"},
		{"https://", "host"},
		{"https://*.example.com", "host"},
		{"https://exa_mple.com", "host"},
		{"https://-example.com", "host"},
		{"https://example..com", "host"},
		{"https://example.com.", "host"},
		{"https://[fe80::1%25eth0]", "host"},
		{"https://[127.0.0.1]", "host"},
		{"https://[::1", "host"},
		{"https://example.com:", "port"},
		{"https://example.com:0", "port"},
		{"https://example.com:65536", "port"},
		{"https://example.com:+443", "port"},
		{"https://example.com:44a", "port"},
		{"https://bücher.example", "non-ASCII"},
		{" https://example.com", "spaces"},
		{"https://example.com\n", "spaces"},
		{"https://" + strings.Repeat("a", 300) + ".com", "bare origin"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := domain.NormalizeOrigin(c.in)
			if err == nil {
				t.Fatalf("NormalizeOrigin(%q) = %q, want an error mentioning %q", c.in, got, c.reason)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("NormalizeOrigin(%q) error %q does not mention %q", c.in, err, c.reason)
			}
		})
	}
}

// FuzzNormalizeOrigin checks that whatever the normaliser accepts is a bare, lowercase https
// (or local http) origin that normalises to itself and parses as a URL with nothing but
// scheme and host.
func FuzzNormalizeOrigin(f *testing.F) {
	for _, s := range []string{
		"https://example.com", "HTTP://LOCALHOST:80", "https://[::1]:443", "http://[::1]",
		"https://a.b.c:65535", "https://example.com/", "https://ex%41mple.com", "https://[::ffff:1.2.3.4]",
		"https://1.2.3.4:00080", "http://127.0.0.1:0", "https://a:b@c", "https://example.com?#",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := domain.NormalizeOrigin(in)
		if err != nil {
			return
		}
		again, err := domain.NormalizeOrigin(out)
		if err != nil || again != out {
			t.Fatalf("NormalizeOrigin(%q) = %q, which normalises to %q, %v", in, out, again, err)
		}
		if strings.ToLower(out) != out {
			t.Fatalf("NormalizeOrigin(%q) = %q is not lowercase", in, out)
		}
		u, err := url.Parse(out)
		if err != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Opaque != "" {
			t.Fatalf("NormalizeOrigin(%q) = %q is not a bare origin (%v)", in, out, err)
		}
		if u.Scheme != "https" && !(u.Scheme == "http" && (u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1" || u.Hostname() == "::1")) {
			t.Fatalf("NormalizeOrigin(%q) = %q allows plain http beyond local development", in, out)
		}
		if u.Scheme+"://"+u.Host != out {
			t.Fatalf("NormalizeOrigin(%q) = %q does not round-trip through url.Parse", in, out)
		}
	})
}
