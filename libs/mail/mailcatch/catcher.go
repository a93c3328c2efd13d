// Package mailcatch is an SMTP server that keeps every message instead of delivering it, so
// tests and a developer's local system can see what the services send. Its inbox (Inbox) shows
// the kept messages in a browser.
package mailcatch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// ErrClosed is returned by Wait once the catcher is closed.
var ErrClosed = errors.New("mailcatch: closed")

// Message is one message the catcher received; Subject and Body are decoded (RFC 2047 words,
// quoted-printable or base64 transfer encoding).
type Message struct {
	From    string    `json:"from"`
	To      []string  `json:"to"`
	Subject string    `json:"subject"`
	Body    string    `json:"body"`
	Raw     []byte    `json:"-"`
	At      time.Time `json:"at"`
}

// Options configures Start; the zero value is ready to use.
type Options struct {
	// OnMessage, when set, is called with each message before Messages and Wait see it.
	OnMessage func(Message)
	// Now stamps each message's At; nil means time.Now.
	Now func() time.Time
}

// Catcher is a running SMTP server that keeps what it receives.
type Catcher struct {
	opts   Options
	srv    *smtp.Server
	addr   string
	closed chan struct{}
	once   sync.Once

	mu   sync.Mutex
	msgs []Message
	// added is closed and replaced whenever a message is kept.
	added chan struct{}
}

// Start listens on addr (such as "127.0.0.1:0") and serves SMTP until Close.
func Start(addr string, o Options) (*Catcher, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("mailcatch: %w", err)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &Catcher{opts: o, addr: ln.Addr().String(), closed: make(chan struct{}), added: make(chan struct{})}
	c.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{c: c}, nil }))
	c.srv.Domain = "localhost"
	c.srv.ReadTimeout, c.srv.WriteTimeout = 30*time.Second, 30*time.Second
	c.srv.AllowInsecureAuth = true
	go c.srv.Serve(ln) //nolint:errcheck // ends with Close
	return c, nil
}

// Addr is the address the catcher listens on, as host:port.
func (c *Catcher) Addr() string { return c.addr }

// Close stops the server; pending Waits return ErrClosed.
func (c *Catcher) Close() error {
	err := c.srv.Close()
	c.once.Do(func() { close(c.closed) })
	return err
}

// Messages returns every message kept so far, oldest first.
func (c *Catcher) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.msgs)
}

// Wait returns the first message, kept already or to come, that match accepts; it gives up
// when ctx ends or the catcher closes.
func (c *Catcher) Wait(ctx context.Context, match func(Message) bool) (Message, error) {
	seen := 0
	for {
		c.mu.Lock()
		msgs, added := c.msgs[seen:], c.added
		seen = len(c.msgs)
		c.mu.Unlock()
		for _, m := range msgs {
			if match(m) {
				return m, nil
			}
		}
		select {
		case <-added:
		case <-c.closed:
			return Message{}, ErrClosed
		case <-ctx.Done():
			return Message{}, fmt.Errorf("mailcatch: no matching message: %w", ctx.Err())
		}
	}
}

// To matches messages with addr among their recipients.
func To(addr string) func(Message) bool {
	return func(m Message) bool { return slices.Contains(m.To, addr) }
}

func (c *Catcher) keep(m Message) {
	m.At = c.opts.Now()
	if c.opts.OnMessage != nil {
		c.opts.OnMessage(m)
	}
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	close(c.added)
	c.added = make(chan struct{})
	c.mu.Unlock()
}
