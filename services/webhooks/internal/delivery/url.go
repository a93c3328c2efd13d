package delivery

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
)

// ErrInvalidURL is an endpoint URL that no webhook is sent to.
var ErrInvalidURL = errors.New("invalid endpoint URL")

// URLError is an endpoint URL refused by ValidateURL: Reason completes "url …" (an input
// problem's words), Cause is the refused address when there is one.
type URLError struct {
	Reason string
	Cause  error
}

func (e *URLError) Error() string { return "the endpoint URL " + e.Reason }

// Unwrap makes a URLError ErrInvalidURL, and its cause.
func (e *URLError) Unwrap() []error {
	if e.Cause == nil {
		return []error{ErrInvalidURL}
	}
	return []error{ErrInvalidURL, e.Cause}
}

func invalidURL(reason string) error { return &URLError{Reason: reason} }

// ValidateURL is the one check of an endpoint URL, when it is registered or changed and before
// each attempt: an absolute https URL with a host and no user information, whose host is not an
// IP address that receivers may not have nor a localhost name. With allowLoopback (local runs
// and tests only), loopback hosts (127.0.0.0/8, ::1, localhost) are allowed, over http too; http
// only to them. The addresses a name resolves to are checked when connecting.
func ValidateURL(raw string, allowLoopback bool) error {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.Hostname() == "" {
		return invalidURL("must be an absolute https URL")
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return invalidURL("must be an https URL")
	}
	if u.User != nil {
		return invalidURL("must not carry a user name or password")
	}
	isLoopback, err := checkHost(u.Hostname(), allowLoopback)
	if err != nil {
		return err
	}
	if port := u.Port(); port != "" && port != "443" && !allowLoopback {
		return invalidURL("must use port 443 (the default of https)")
	}
	if u.Scheme == "http" && !(allowLoopback && isLoopback) {
		return invalidURL("must be an https URL")
	}
	return nil
}

// checkHost refuses an IP address or a localhost name that receivers may not have, and says
// whether the host is a loopback one.
func checkHost(host string, allowLoopback bool) (isLoopback bool, err error) {
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		if !allowLoopback {
			return true, invalidURL("must not address localhost")
		}
		return true, nil
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		if numericHost(name) {
			return false, invalidURL("must name its host, or give an IP address in its standard form")
		}
		if private := privateName(name); private != "" {
			return false, invalidURL(private)
		}
		return false, nil // a public name: its addresses are checked when connecting
	}
	if err := checkAddr(addr, allowLoopback); err != nil {
		var refused *RefusedAddressError
		errors.As(err, &refused)
		return false, &URLError{Reason: "must not address " + addr.String() + ": the address is " + refused.Why + ", and receivers must be public", Cause: err}
	}
	return classify(addr) == loopback, nil
}

// numericHost reports whether a host that is no standard IP address is one in another form
// (decimal, octal or hexadecimal: 2130706433, 0177.0.0.1, 0x7f.1), which some resolvers read
// as an address.
func numericHost(name string) bool {
	if strings.HasPrefix(name, "0x") {
		return true
	}
	return strings.Trim(name, "0123456789.") == ""
}

// privateSuffixes end the names of private networks (mDNS, cloud and cluster DNS, home
// routers): no public receiver has one.
var privateSuffixes = []string{".local", ".internal", ".localdomain", ".home.arpa", ".lan", ".svc", ".corp", ".intranet"}

// privateName says why a host name cannot be a public receiver's ("" when it can): a name of
// one label (resolved through the search domains of the cluster) or of a private suffix. The
// connect-time check of the addresses stays the guard; this only refuses early and clearly.
func privateName(name string) string {
	if !strings.Contains(name, ".") {
		return "must name a public host by its full name (a name of one label is private)"
	}
	for _, suffix := range privateSuffixes {
		if strings.HasSuffix(name, suffix) {
			return "must name a public host (" + suffix + " names are private)"
		}
	}
	return ""
}
