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
	return r.ResolveAddr(addr, forwardedFor).String()
}

// ResolveAddr is Resolve for a remote address already parsed (a connection's), without parsing
// or formatting it on every request.
func (r *Resolver) ResolveAddr(remote netip.Addr, forwardedFor string) netip.Addr {
	addr := remote.Unmap()
	if !r.isTrusted(addr) || forwardedFor == "" {
		return addr
	}
	for rest := forwardedFor; ; {
		i := strings.LastIndexByte(rest, ',')
		hop, err := netip.ParseAddr(strings.TrimSpace(rest[i+1:]))
		if err != nil {
			// A hop a trusted proxy did not write cleanly: stop at the last address we trust.
			return addr
		}
		addr = hop.Unmap()
		if !r.isTrusted(addr) || i < 0 {
			return addr
		}
		rest = rest[:i]
	}
}

func (r *Resolver) isTrusted(a netip.Addr) bool {
	for _, p := range r.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
