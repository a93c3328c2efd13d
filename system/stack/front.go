package stack

import (
	"context"
	"io"
	"net"
	"slices"
	"sync"
	"time"
)

// front is the one address of an owner service that its callers use, as a Kubernetes Service
// is. It pipes each connection to one of the service's instances in turn and tries the next
// one when an instance refuses it (stopped or killed); an instance taken out of rotation (a
// restart) gets no new connections, while those it has go on until it closes them. toxiproxy,
// which the other links use, forwards to a single upstream and cannot play this part.
type front struct {
	ln    net.Listener
	mu    sync.Mutex
	addrs []string
	next  int
	conns map[net.Conn]struct{}
}

func startFront() (*front, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &front{ln: ln, conns: map[net.Conn]struct{}{}}
	go f.serve()
	return f, nil
}

func (f *front) url() string { return "http://" + f.ln.Addr().String() }

// add puts an instance into rotation; remove takes it out.
func (f *front) add(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !slices.Contains(f.addrs, addr) {
		f.addrs = append(f.addrs, addr)
	}
}

func (f *front) remove(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.addrs = slices.DeleteFunc(f.addrs, func(a string) bool { return a == addr })
}

func (f *front) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		go f.handle(c)
	}
}

// handle dials the instances from the next in turn until one answers, then pipes the two
// connections until either side closes. A connection no instance takes is closed.
func (f *front) handle(client net.Conn) {
	f.mu.Lock()
	addrs := slices.Clone(f.addrs)
	start := f.next
	f.next++
	f.mu.Unlock()
	var upstream net.Conn
	for i := range addrs {
		d := net.Dialer{Timeout: time.Second}
		c, err := d.DialContext(context.Background(), "tcp", addrs[(start+i)%len(addrs)])
		if err == nil {
			upstream = c
			break
		}
	}
	if upstream == nil || !f.track(client, upstream) {
		client.Close()
		if upstream != nil {
			upstream.Close()
		}
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(upstream, client)
	go pipe(client, upstream)
	<-done
	client.Close()
	upstream.Close()
	<-done
	f.untrack(client, upstream)
}

// track records a piped pair unless the front is closed.
func (f *front) track(conns ...net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conns == nil {
		return false
	}
	for _, c := range conns {
		f.conns[c] = struct{}{}
	}
	return true
}

func (f *front) untrack(conns ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range conns {
		delete(f.conns, c)
	}
}

// close stops accepting and closes every piped connection.
func (f *front) close() {
	_ = f.ln.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		_ = c.Close()
	}
	f.conns = nil
}
