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
// address in brackets, and no default port; "" when raw has no scheme, no host, or a host with
// no ASCII form. Every origin the gateway compares (the Origin header, redirect URLs) is taken
// through it, and keys' allowed origins are ASCII already, so a host written with look-alike
// Unicode never passes for the ASCII host it resembles: "shop.İnfo.example" is
// shop.xn--info-qwc.example, another domain than shop.info.example.
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

// hostProfile maps a host to the ASCII form browsers resolve it to: UTS #46 processing as the
// WHATWG URL standard applies it to hosts (nontransitional, so ß and ς are letters of their
// own, never "ss" and "σ"; case, width and compatibility forms mapped, so a fullwidth dot is a
// dot and the Kelvin sign a k; the Bidi and joiner rules checked; hyphens anywhere, as in
// "r3---sn-abc"). It is stricter than browsers in two respects, which can only refuse a host
// (an allowed origin's host is a DNS name of letters, digits and hyphens): STD3 rules (letters,
// digits and hyphens only) and DNS lengths (labels of 63 characters, names of 253). The
// Registration profile would refuse every host not already in mapped form ("SHOP.example"
// included); the Lookup profile checks hyphens and may change its settings over time.
var hostProfile = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.BidiRule(), idna.CheckHyphens(false),
	idna.VerifyDNSLength(true))

// asciiHost returns host in its IDNA ASCII form, or false when it has none. A host in ASCII
// without an A-label ("xn--") only needs lowercasing, which is all the mapping does to it: the
// Origin header of nearly every browser request takes this path. Any other host is first checked to
// fit a DNS name (fitsDNS), which bounds the conversion's cost (Punycode's is quadratic in a
// label's length), then converted and validated.
func asciiHost(host string) (string, bool) {
	if ascii(host) {
		host = strings.ToLower(host)
		if !strings.Contains(host, "xn--") {
			return host, true
		}
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
// 254 characters (a trailing dot included), in labels of at most 63 between the dots IDNA
// separates labels with. A label's ASCII form is at least as long, so only a host padded with
// characters IDNA drops or composes could be longer and still map to a DNS name, and no real
// site's URL is written so.
func fitsDNS(host string) bool {
	chars, label := 0, 0
	for _, r := range host {
		chars++
		switch r {
		case utf8.RuneError: // not UTF-8 (or U+FFFD, which IDNA disallows)
			return false
		case '.', '\u3002', '\uff0e', '\uff61':
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
