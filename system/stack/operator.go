package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Key is an API key as the auth CLI prints it at creation (the only time the full key is shown).
type Key struct {
	Key            string     `json:"key"`
	ID             string     `json:"id"`
	OrganizerID    string     `json:"organizerId"`
	Type           string     `json:"type"`
	Scopes         []string   `json:"scopes"`
	AllowedOrigins []string   `json:"allowedOrigins"`
	ExpiresAt      *time.Time `json:"expiresAt"`
}

// KeySpec describes a key to create.
type KeySpec struct {
	Type    string // "secret" or "publishable"
	Name    string
	Scopes  []string
	Origins []string
	Expires time.Time
}

// AllScopes are the scopes of the organizer API.
var AllScopes = []string{"events:read", "pricing:read", "registrations:read", "registrations:write"}

// CreateOrganizer creates an organizer through the operator CLI and returns its id.
func (s *Stack) CreateOrganizer(ctx context.Context, name string) (string, error) {
	var org struct {
		ID string `json:"id"`
	}
	err := s.operator(ctx, &org, "organizer", "create", "--name", name)
	return org.ID, err
}

// CreateKey creates a key for an organizer through the operator CLI.
func (s *Stack) CreateKey(ctx context.Context, organizerID string, k KeySpec) (Key, error) {
	args := []string{"key", "create", "--organizer", organizerID, "--type", k.Type, "--name", k.Name}
	if len(k.Scopes) > 0 {
		args = append(args, "--scopes", strings.Join(k.Scopes, ","))
	}
	if len(k.Origins) > 0 {
		args = append(args, "--origins", strings.Join(k.Origins, ","))
	}
	if !k.Expires.IsZero() {
		args = append(args, "--expires", k.Expires.UTC().Format(time.RFC3339Nano))
	}
	var out Key
	err := s.operator(ctx, &out, args...)
	return out, err
}

// RevokeKey revokes a key through the operator CLI.
func (s *Stack) RevokeKey(ctx context.Context, keyID string) error {
	var out struct{}
	return s.operator(ctx, &out, "key", "revoke", "--key", keyID)
}

// operator runs an auth CLI command with --json and decodes its output into out.
func (s *Stack) operator(ctx context.Context, out any, args ...string) error {
	cmd := exec.CommandContext(ctx, bin(s.opts.BinDir, "auth"), append(args, "--json")...)
	cmd.Env = []string{"AUTH_ADMIN_URL=" + s.URLs["auth"], "AUTH_OPERATOR_TOKEN=" + s.OperatorToken}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("stack: auth %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		return fmt.Errorf("stack: auth %s printed %q: %w", strings.Join(args, " "), stdout.String(), err)
	}
	return nil
}
