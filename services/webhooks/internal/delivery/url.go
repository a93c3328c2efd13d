package delivery

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// ErrInvalidURL is an endpoint URL that no webhook is sent to.
var ErrInvalidURL = errors.New("invalid endpoint URL")

// ValidateURL checks an endpoint URL when it is registered or changed, and before each
// attempt: an absolute https URL with a host and no user information, whose host is not an IP
// address that receivers may not have. With allowLoopback (local runs and tests only), http
// is allowed too, and loopback hosts (127.0.0.0/8, ::1, localhost) are, for either scheme; http
// only to them. The addresses a name resolves to are checked when connecting.
func ValidateURL(raw string, allowLoopback bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: not a URL", ErrInvalidURL)
	}
	host := u.Hostname()
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return fmt.Errorf("%w: the scheme must be https", ErrInvalidURL)
	case host == "" || u.Opaque != "":
		return fmt.Errorf("%w: the URL has no host", ErrInvalidURL)
	case u.User != nil:
		return fmt.Errorf("%w: the URL must not carry a user name or password", ErrInvalidURL)
	}
	isLoopback, err := checkHost(host, allowLoopback)
	if err != nil {
		return err
	}
	if u.Scheme == "http" && !(allowLoopback && isLoopback) {
		return fmt.Errorf("%w: the scheme must be https", ErrInvalidURL)
	}
	return nil
}

// checkHost refuses an IP address or a localhost name that receivers may not have, and says
// whether the host is a loopback one.
func checkHost(host string, allowLoopback bool) (isLoopback bool, err error) {
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		if !allowLoopback {
			return true, fmt.Errorf("%w: the host must not be localhost", ErrInvalidURL)
		}
		return true, nil
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return false, nil // a name: its addresses are checked when connecting
	}
	if err := checkAddr(addr, allowLoopback); err != nil {
		return false, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	return classify(addr) == loopback, nil
}
