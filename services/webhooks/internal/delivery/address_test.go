package delivery

import (
	"errors"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

func TestTheAddressClassifier(t *testing.T) {
	for addr, want := range map[string]refusal{
		"93.184.215.14":          public,
		"8.8.8.8":                public,
		"2606:4700::1111":        public,
		"::ffff:8.8.8.8":         public,
		"64:ff9b::808:808":       public, // NAT64 of 8.8.8.8
		"2002:808:808::1":        public, // 6to4 of 8.8.8.8
		"127.0.0.1":              loopback,
		"127.255.0.9":            loopback,
		"::1":                    loopback,
		"::ffff:127.0.0.1":       loopback,
		"10.0.0.1":               private,
		"172.16.0.1":             private,
		"172.31.255.255":         private,
		"172.32.0.1":             public,
		"192.168.1.1":            private,
		"100.64.0.1":             sharedAddress,
		"100.127.255.255":        sharedAddress,
		"169.254.1.1":            linkLocal,
		"fe80::1":                linkLocal,
		"fe80::1%eth0":           linkLocal,
		"fc00::1":                uniqueLocal,
		"fd12:3456::1":           uniqueLocal,
		"224.0.0.1":              multicast,
		"239.255.255.250":        multicast,
		"ff02::1":                multicast,
		"0.0.0.0":                unspecified,
		"::":                     unspecified,
		"255.255.255.255":        broadcast,
		"0.1.2.3":                reserved,
		"192.0.0.8":              reserved,
		"198.18.0.1":             reserved,
		"198.19.255.255":         reserved,
		"240.0.0.1":              reserved,
		"fec0::1":                reserved,
		"64:ff9b:1::1":           reserved,
		"2001:0:4136::1":         reserved, // Teredo
		"169.254.169.254":        metadata,
		"fd00:ec2::254":          metadata,
		"100.100.100.200":        metadata,
		"::ffff:10.0.0.1":        private,
		"::ffff:169.254.169.254": metadata,
		"::10.0.0.1":             private, // IPv4-compatible
		"64:ff9b::a00:1":         private, // NAT64 of 10.0.0.1
		"64:ff9b::7f00:1":        loopback,
		"2002:a9fe:a9fe::1":      metadata, // 6to4 of 169.254.169.254
		"2002:c0a8:101::":        private,
	} {
		a := netip.MustParseAddr(addr)
		if got := classify(a); got != want {
			t.Errorf("classify(%s) = %q, want %q", addr, got, want)
		}
		wantAllowed := want == public
		if err := checkAddr(a, false); (err == nil) != wantAllowed {
			t.Errorf("checkAddr(%s) = %v", addr, err)
		}
		if err := checkAddr(a, true); (err == nil) != (wantAllowed || want == loopback) {
			t.Errorf("checkAddr(%s) allowing loopback = %v", addr, err)
		}
	}
	if got := classify(netip.Addr{}); got != unspecified {
		t.Errorf("classify(zero Addr) = %q", got)
	}
}

// FuzzClassify holds the classifier to the standard library's own tests of an address and to
// its translated forms: an address the standard library calls loopback, private, link-local,
// multicast or unspecified is refused, and an IPv4 address is judged alike when mapped into
// IPv6 or translated by NAT64.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"8.8.8.8", "10.1.2.3", "127.0.0.1", "169.254.169.254", "::1", "fe80::1", "2606:4700::1111", "::ffff:10.0.0.1"} {
		a := netip.MustParseAddr(s)
		b := a.As16()
		f.Add(b[:])
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, ok := netip.AddrFromSlice(raw)
		if !ok {
			return
		}
		why := classify(a)
		u := a.Unmap()
		if (u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsMulticast() || u.IsUnspecified()) && why == public {
			t.Fatalf("classify(%s) = public", a)
		}
		if !u.Is4() {
			return
		}
		b4 := u.As4()
		mapped := netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: b4[0], 13: b4[1], 14: b4[2], 15: b4[3]})
		nat64 := netip.AddrFrom16([16]byte{0: 0x00, 1: 0x64, 2: 0xff, 3: 0x9b, 12: b4[0], 13: b4[1], 14: b4[2], 15: b4[3]})
		if classify(mapped) != why || classify(nat64) != why {
			t.Fatalf("classify(%s) = %q but its IPv4-mapped form %q and NAT64 form %q", u, why, classify(mapped), classify(nat64))
		}
	})
}

func TestTheDialersControlRefusesAtConnectTime(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	// No dial is injected: the guard's own dialer, whose Control sees the socket's address.
	g := newGuard(false, nil, nil)
	d := &net.Dialer{Control: g.control}
	if _, err := d.DialContext(t.Context(), "tcp", ln.Addr().String()); err == nil {
		t.Fatal("the dialer connected to a loopback address")
	}
	var refused *RefusedAddressError
	if err := g.control("tcp", "[::ffff:169.254.169.254]:80", nil); !errors.As(err, &refused) || refused.Why != string(metadata) {
		t.Fatalf("control of a mapped metadata address: %v", err)
	}
	if _, err := g.DialContext(t.Context(), "tcp", ln.Addr().String()); err == nil {
		t.Fatal("the guard dialed a loopback address")
	}
	// The listener counts: the connection allowed with loopback allowed is accepted after any
	// that the refusals above would have made.
	allowed := newGuard(true, nil, nil)
	conn, err := (&net.Dialer{Control: allowed.control}).DialContext(t.Context(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("with loopback allowed: %v", err)
	}
	conn.Close()
	testkit.Eventually(t, 5*time.Second, func() string {
		if accepted.Load() == 0 {
			return "the allowed connection was not accepted"
		}
		return ""
	})
	if n := accepted.Load(); n != 1 {
		t.Fatalf("the listener accepted %d connections, want only the allowed one", n)
	}
}
