package delivery

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// Resolver finds a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialFunc connects to an address ("ip:port") the guard allowed.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// guard connects only to addresses receivers may have: it resolves the host itself and
// checks each address before dialing it, and its dialer checks again, in Control, the address
// the socket is about to connect to. Every connection is checked when it is made, so a name
// that resolved to a public address when the endpoint was registered and to a private one
// since is refused.
type guard struct {
	allowLoopback bool
	resolver      Resolver
	dial          DialFunc
}

func newGuard(allowLoopback bool, resolver Resolver, dial DialFunc) *guard {
	g := &guard{allowLoopback: allowLoopback, resolver: resolver, dial: dial}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	if g.dial == nil {
		d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.control}
		g.dial = d.DialContext
	}
	return g
}

// control refuses, as the socket connects, an address receivers may not have.
func (g *guard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("refused to connect to %q: not an IP address and port", address)
	}
	return checkAddr(ap.Addr(), g.allowLoopback)
}

// DialContext connects to address ("host:port") through the first of its host's addresses
// that is allowed and answers.
func (g *guard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("dial %s: bad port", address)
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range addrs {
		target := netip.AddrPortFrom(a, uint16(port)).String()
		if err := g.control(network, target, nil); err != nil {
			errs = append(errs, err)
			continue
		}
		conn, err := g.dial(ctx, network, target)
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// resolve returns host's addresses: itself when it is one.
func (g *guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	addrs, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("lookup %s: no addresses", host)
	}
	return addrs, nil
}
