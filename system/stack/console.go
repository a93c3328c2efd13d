package stack

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// consoleAddress fixes the console's port (Options.ConsolePort, or a free one) and its URL.
func (s *Stack) consoleAddress() error {
	port := s.opts.ConsolePort
	if port == 0 {
		p, err := FreePort()
		if err != nil {
			return err
		}
		port = p
	}
	s.ConsoleURL = fmt.Sprintf("http://localhost:%d", port)
	return nil
}

// consoleEnv is what auth instance name needs to serve the console and mail its sign-in links
// to the catcher; instances besides the first serve theirs on any free port.
func (s *Stack) consoleEnv(name string) []string {
	addr := "127.0.0.1:0"
	if name == "auth" {
		u, _ := url.Parse(s.ConsoleURL)
		addr = "127.0.0.1:" + u.Port()
	}
	return append([]string{"CONSOLE_ADDR=" + addr, "CONSOLE_URL=" + s.ConsoleURL, "CONSOLE_COOKIE_KEY=" + s.ConsoleCookieKey}, s.smtpEnv()...)
}

// smtpEnv sends a service's mail to the stack's catcher.
func (s *Stack) smtpEnv() []string {
	host, port, _ := strings.Cut(s.SMTPAddr, ":")
	return []string{"SMTP_HOST=" + host, "SMTP_PORT=" + port, "SMTP_FROM=Podium <no-reply@podium.localhost>"}
}

// AddMember adds a member with role to an organizer through the operator CLI and returns its id.
func (s *Stack) AddMember(ctx context.Context, organizerID, email, role string) (string, error) {
	var m struct {
		ID string `json:"id"`
	}
	err := s.cli(ctx, "auth", &m, "member", "add", "--organizer", organizerID, "--email", email, "--role", role)
	return m.ID, err
}

// SignInLink returns a single-use console sign-in link for a member, usable in any browser, as
// an operator would hand it over.
func (s *Stack) SignInLink(ctx context.Context, email string) (string, error) {
	var l struct {
		URL string `json:"url"`
	}
	err := s.cli(ctx, "auth", &l, "member", "sign-in-link", "--email", email)
	return l.URL, err
}
