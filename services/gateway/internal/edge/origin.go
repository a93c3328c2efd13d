package edge

import (
	"net/netip"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// originOf returns the origin of the URL raw as a browser reaches it, scheme://host[:port]: the
// scheme in lowercase, the host in its IDNA ASCII form (asciiHost) or as a compressed IPv6
// address in brackets, and no default port; "" when raw has no scheme, no host, or a host that
// is not already in canonical form. Every origin the gateway compares (the Origin header,
// redirect URLs) is taken through it, and keys' allowed origins are ASCII already, so a host
// written with look-alike Unicode never passes for the ASCII host it resembles: "shop.İnfo.example"
// needs a mapping (its ASCII form is shop.xn--info-qwc.example, another domain) and is refused.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return ""
	}
	host, ok := "", false
	if name := u.Hostname(); strings.Contains(name, ":") {
		host, ok = ipv6Host(name)
	} else {
		host, ok = asciiHost(name)
	}
	if !ok || host == "" {
		return ""
	}
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if port != "" {
		return scheme + "://" + host + ":" + port
	}
	return scheme + "://" + host
}

// ipv6Host returns the IPv6 address name in brackets and compressed, as browsers write it, or
// false when name is no IPv6 address or has a zone.
func ipv6Host(name string) (string, bool) {
	addr, err := netip.ParseAddr(name)
	if err != nil || !addr.Is6() || addr.Zone() != "" {
		return "", false
	}
	return "[" + addr.String() + "]", true
}

// hostProfile converts a host already in canonical form to its ASCII form and refuses every
// other host: it maps nothing (case, width, compatibility forms, normalization, ignored
// characters), so the answer never depends on the version of the UTS #46 tables. They differ
// between versions: ẞ maps to "ss" in Unicode 15.0's (golang.org/x/net/idna's) and to ß in
// 15.1's (browsers'), so "claẞ.example" would be class.example here and xn--cla-7ka.example,
// another domain, in a browser. What it accepts it processes as the WHATWG URL standard does:
// nontransitional (ß and ς are letters of their own), the Bidi and joiner rules checked,
// hyphens anywhere ("r3---sn-abc"). Its STD3 rules and DNS lengths can only refuse more than a
// browser would, and an allowed origin's host is a DNS name.
var hostProfile = idna.New(idna.ValidateForRegistration(), idna.Transitional(false), idna.BidiRule(),
	idna.CheckJoiners(true), idna.CheckHyphens(false), idna.VerifyDNSLength(true))

// asciiHost returns host in its IDNA ASCII form, or false when it has none or is not in
// canonical form. Only ASCII letters are lowercased, as every browser does and no table version
// changes; a host in ASCII without an A-label ("xn--") needs nothing else: the Origin header of
// nearly every browser request takes this path. Any other host is first checked to fit a DNS
// name (fitsDNS), which bounds the conversion's cost (Punycode's is quadratic in a label's
// length), then validated and converted.
func asciiHost(host string) (string, bool) {
	host = lowerASCII(host)
	if ascii(host) && !strings.Contains(host, "xn--") {
		return host, true
	}
	if !fitsDNS(host) {
		return "", false
	}
	out, err := hostProfile.ToASCII(host)
	if err != nil {
		return "", false
	}
	return out, true
}

// lowerASCII returns s with its ASCII letters in lowercase and every other byte as it is.
func lowerASCII(s string) string {
	for i := range len(s) {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// ascii reports whether s has only ASCII bytes.
func ascii(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// fitsDNS reports whether host, as sent, is UTF-8 and short enough to be a DNS name: at most
// 254 characters (a trailing dot included), in labels of at most 63. hostProfile maps nothing,
// so a label's ASCII form is at least as long as the label: a host that does not fit has no
// ASCII form either, and is refused before Punycode spends time on it.
func fitsDNS(host string) bool {
	chars, label := 0, 0
	for _, r := range host {
		chars++
		switch r {
		case utf8.RuneError: // not UTF-8 (or U+FFFD, which IDNA disallows)
			return false
		case '.':
			label = 0
		default:
			label++
		}
		if chars > maxHostChars || label > maxLabelChars {
			return false
		}
	}
	return true
}

// DNS bounds of a name's ASCII form: 253 characters and a trailing dot, labels of 63.
const (
	maxHostChars  = 254
	maxLabelChars = 63
)
