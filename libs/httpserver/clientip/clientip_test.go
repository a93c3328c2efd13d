package clientip_test

import (
	"testing"

	"github.com/podiumhq/podium/libs/httpserver/clientip"
)

func TestResolve(t *testing.T) {
	r, err := clientip.New([]string{"10.0.0.0/8", "192.168.1.7", "fd00::/8"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, remote, xff, want string }{
		{"direct client, header ignored", "203.0.113.5", "198.51.100.1", "203.0.113.5"},
		{"trusted proxy, one hop", "10.1.2.3", "198.51.100.1", "198.51.100.1"},
		{"spoofed left entries are skipped", "10.1.2.3", "1.2.3.4, 198.51.100.1", "198.51.100.1"},
		{"chain of trusted proxies", "10.1.2.3", "198.51.100.1, 192.168.1.7, 10.9.9.9", "198.51.100.1"},
		{"trusted proxy without header", "10.1.2.3", "", "10.1.2.3"},
		{"garbage hop stops the walk", "10.1.2.3", "198.51.100.1, nonsense", "10.1.2.3"},
		{"all hops trusted", "10.1.2.3", "10.0.0.1", "10.0.0.1"},
		{"IPv6 through IPv6 proxy", "fd00::1", "2001:db8::5", "2001:db8::5"},
		{"IPv4-mapped remote", "::ffff:10.1.2.3", "198.51.100.9", "198.51.100.9"},
	}
	for _, tc := range cases {
		if got := r.Resolve(tc.remote, tc.xff); got != tc.want {
			t.Errorf("%s: Resolve(%q, %q) = %q, want %q", tc.name, tc.remote, tc.xff, got, tc.want)
		}
	}
}

func TestNewRejectsGarbage(t *testing.T) {
	if _, err := clientip.New([]string{"10.0.0.0/33"}); err == nil {
		t.Fatal("accepted an invalid CIDR")
	}
}

func FuzzResolve(f *testing.F) {
	r, _ := clientip.New([]string{"10.0.0.0/8"})
	f.Add("10.0.0.1", "1.2.3.4, 10.0.0.2")
	f.Fuzz(func(t *testing.T, remote, xff string) {
		_ = r.Resolve(remote, xff)
	})
}
