package domain

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// maxOriginLen bounds the input NormalizeOrigin examines; a real origin is far shorter.
const maxOriginLen = 300

// Reasons NormalizeOrigin gives; each reads after the name of the offending field.
var (
	errOriginShape  = errors.New("must be a bare origin scheme://host[:port]")
	errOriginChars  = errors.New("must not contain spaces, control or non-ASCII characters (write international domain names in their xn-- form)")
	errOriginScheme = errors.New("must use the https scheme (or http for local development)")
	errOriginPath   = errors.New("must not have a path (not even a trailing /)")
	errOriginQuery  = errors.New("must not have a query")
	errOriginFrag   = errors.New("must not have a fragment")
	errOriginUser   = errors.New("must not contain user information")
	errOriginHost   = errors.New("must have a valid DNS name or IP address as host")
	errOriginPort   = errors.New("must have a port from 1 to 65535 when it has a colon after the host")
	errOriginHTTP   = errors.New("must use https: plain http is allowed only for localhost, 127.0.0.1 and [::1] (local development)")
)

// localHosts are the hosts for which plain http origins are accepted.
var localHosts = map[string]bool{"localhost": true, "127.0.0.1": true, "[::1]": true}

// NormalizeOrigin checks that raw is a bare web origin, scheme://host[:port] without path,
// query or fragment, and returns it in the form browsers send in the Origin header: scheme and
// host in lowercase, IPv6 addresses compressed, and without the scheme's default port. Only
// https is accepted, except plain http for localhost, 127.0.0.1 and [::1]. The error reads
// after a field name ("allowedOrigins[0] must not have a path").
func NormalizeOrigin(raw string) (string, error) {
	if len(raw) > maxOriginLen {
		return "", errOriginShape
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] <= ' ' || raw[i] >= 0x7f {
			return "", errOriginChars
		}
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || scheme == "" {
		return "", errOriginShape
	}
	scheme = strings.ToLower(scheme)
	if scheme != "https" && scheme != "http" {
		return "", errOriginScheme
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return "", map[byte]error{'/': errOriginPath, '?': errOriginQuery, '#': errOriginFrag}[rest[i]]
	}
	if strings.Contains(rest, "@") {
		return "", errOriginUser
	}
	host, port, err := splitHostPort(rest)
	if err != nil {
		return "", err
	}
	if scheme == "http" && !localHosts[host] {
		return "", errOriginHTTP
	}
	if port == "" || scheme == "https" && port == "443" || scheme == "http" && port == "80" {
		return scheme + "://" + host, nil
	}
	return scheme + "://" + host + ":" + port, nil
}

// splitHostPort splits the authority of an origin into its normalised host and its port
// without leading zeros ("" when absent).
func splitHostPort(authority string) (host, port string, err error) {
	rawPort, hasPort := "", false
	if strings.HasPrefix(authority, "[") {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return "", "", errOriginHost
		}
		addr, err := netip.ParseAddr(authority[1:end])
		if err != nil || !addr.Is6() || addr.Zone() != "" {
			return "", "", errOriginHost
		}
		host = "[" + addr.String() + "]"
		after := authority[end+1:]
		if after != "" {
			if after[0] != ':' {
				return "", "", errOriginHost
			}
			rawPort, hasPort = after[1:], true
		}
	} else {
		host, rawPort, hasPort = strings.Cut(authority, ":")
		host = strings.ToLower(host)
		if !validHostname(host) {
			return "", "", errOriginHost
		}
	}
	if !hasPort {
		return host, "", nil
	}
	p, err := strconv.Atoi(rawPort)
	if err != nil || len(rawPort) > 5 || p < 1 || p > 65535 || strings.ContainsAny(rawPort, "+-") {
		return "", "", errOriginPort
	}
	return host, strconv.Itoa(p), nil
}

// validHostname reports whether h (in lowercase) is a DNS name or IPv4 address: dot-separated
// labels of 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen.
func validHostname(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
