package delivery

import (
	"fmt"
	"net/netip"
)

// A refusal names why an address is no receiver's: "" for a public address.
type refusal string

const (
	public        refusal = ""
	loopback      refusal = "loopback"
	private       refusal = "private"
	sharedAddress refusal = "shared (carrier-grade NAT)"
	linkLocal     refusal = "link-local"
	uniqueLocal   refusal = "unique-local"
	multicast     refusal = "multicast"
	unspecified   refusal = "unspecified"
	broadcast     refusal = "broadcast"
	reserved      refusal = "reserved"
	metadata      refusal = "a cloud metadata address"
)

// refusedPrefixes are the ranges no receiver is in, each with why; the first that holds an
// address names it, so the narrower ones come first.
var refusedPrefixes = []struct {
	prefix netip.Prefix
	why    refusal
}{
	{netip.MustParsePrefix("169.254.169.254/32"), metadata},
	{netip.MustParsePrefix("100.100.100.200/32"), metadata},
	{netip.MustParsePrefix("168.63.129.16/32"), metadata}, // Azure's wire server
	{netip.MustParsePrefix("fd00:ec2::254/128"), metadata},
	{netip.MustParsePrefix("255.255.255.255/32"), broadcast},
	{netip.MustParsePrefix("0.0.0.0/32"), unspecified},
	{netip.MustParsePrefix("0.0.0.0/8"), reserved},
	{netip.MustParsePrefix("10.0.0.0/8"), private},
	{netip.MustParsePrefix("100.64.0.0/10"), sharedAddress},
	{netip.MustParsePrefix("127.0.0.0/8"), loopback},
	{netip.MustParsePrefix("169.254.0.0/16"), linkLocal},
	{netip.MustParsePrefix("172.16.0.0/12"), private},
	{netip.MustParsePrefix("192.0.0.0/24"), reserved},
	{netip.MustParsePrefix("192.168.0.0/16"), private},
	{netip.MustParsePrefix("198.18.0.0/15"), reserved},
	{netip.MustParsePrefix("224.0.0.0/4"), multicast},
	{netip.MustParsePrefix("240.0.0.0/4"), reserved},
	{netip.MustParsePrefix("::/128"), unspecified},
	{netip.MustParsePrefix("::1/128"), loopback},
	{netip.MustParsePrefix("64:ff9b:1::/48"), reserved}, // local-use NAT64
	{netip.MustParsePrefix("2001::/32"), reserved},      // Teredo: the client's address is hidden
	{netip.MustParsePrefix("fc00::/7"), uniqueLocal},
	{netip.MustParsePrefix("fe80::/10"), linkLocal},
	{netip.MustParsePrefix("fec0::/10"), reserved}, // site-local, deprecated
	{netip.MustParsePrefix("ff00::/8"), multicast},
}

// Prefixes of IPv6 addresses that carry an IPv4 address, which is then the one judged:
// IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated (::ffff:0:a.b.c.d) and NAT64
// (64:ff9b::/96) in their last 32 bits,
// 6to4 (2002::/16) in the 32 bits after the prefix. IPv4-mapped (::ffff:a.b.c.d) addresses
// are unmapped first.
var (
	compatible = netip.MustParsePrefix("::/96")
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	translated = netip.MustParsePrefix("::ffff:0:0:0/96")
	sixToFour  = netip.MustParsePrefix("2002::/16")
)

// classify tells why a is no receiver's address, or public.
func classify(a netip.Addr) refusal {
	a = a.WithZone("").Unmap()
	if embedded, ok := embeddedIPv4(a); ok {
		return classify(embedded)
	}
	for _, r := range refusedPrefixes {
		if r.prefix.Contains(a) {
			return r.why
		}
	}
	if !a.IsValid() {
		return unspecified
	}
	return public
}

// embeddedIPv4 returns the IPv4 address an IPv6 address of a translating prefix carries.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() || a.IsLoopback() || a.IsUnspecified() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case compatible.Contains(a), nat64.Contains(a), translated.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// RefusedAddressError is a connection refused because of where it would go.
type RefusedAddressError struct {
	Addr netip.Addr
	Why  string
}

func (e *RefusedAddressError) Error() string {
	return fmt.Sprintf("refused to connect to %s: the address is %s, and receivers must be public", e.Addr, e.Why)
}

// checkAddr refuses an address no receiver may have; loopback addresses are allowed when
// allowLoopback is set.
func checkAddr(a netip.Addr, allowLoopback bool) error {
	why := classify(a)
	if why == public || (why == loopback && allowLoopback) {
		return nil
	}
	return &RefusedAddressError{Addr: a, Why: string(why)}
}
