// Package clientip determines the address of the client behind a request. X-Forwarded-For is
// believed only as far as it was written by configured trusted proxies: walking the list from
// the right, the first address that is not a trusted proxy is the client.
package clientip

import (
	"fmt"
	"net/netip"
	"strings"
)

// Resolver holds the trusted proxy networks.
type Resolver struct{ trusted []netip.Prefix }

// New parses CIDRs (or bare addresses) of trusted proxies.
func New(cidrs []string) (*Resolver, error) {
	r := &Resolver{}
	for _, c := range cidrs {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		p, err := netip.ParsePrefix(c)
		if err != nil {
			a, aerr := netip.ParseAddr(c)
			if aerr != nil {
				return nil, fmt.Errorf("clientip: trusted proxy %q is neither a CIDR nor an address", c)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		r.trusted = append(r.trusted, p.Masked())
	}
	return r, nil
}

// Resolve returns the client address given the connection's remote address and the
// X-Forwarded-For header value.
func (r *Resolver) Resolve(remote, forwardedFor string) string {
	addr, err := netip.ParseAddr(remote)
	if err != nil {
		return remote
	}
	addr = addr.Unmap()
	if !r.isTrusted(addr) || forwardedFor == "" {
		return addr.String()
	}
	hops := strings.Split(forwardedFor, ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			// A hop a trusted proxy did not write cleanly: stop at the last address we trust.
			return addr.String()
		}
		addr = hop.Unmap()
		if !r.isTrusted(addr) {
			return addr.String()
		}
	}
	return addr.String()
}

func (r *Resolver) isTrusted(a netip.Addr) bool {
	for _, p := range r.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
