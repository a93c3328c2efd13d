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
	Mode           string     `json:"mode"`
	Scopes         []string   `json:"scopes"`
	AllowedOrigins []string   `json:"allowedOrigins"`
	ExpiresAt      *time.Time `json:"expiresAt"`
}

// KeySpec describes a key to create.
type KeySpec struct {
	Type    string // "secret" or "publishable"
	Mode    string // "live" or "test"; empty is the CLI's default, live
	Name    string
	Scopes  []string
	Origins []string
	Expires time.Time
}

// AllScopes are the scopes of the organizer API.
var AllScopes = []string{"events:read", "pricing:read", "registrations:read", "registrations:write", "webhooks:write", "checkins:write", "refunds:write"}

// CreateOrganizer creates an organizer, with its first owner unless owner is empty, through
// the operator CLI and returns its id.
func (s *Stack) CreateOrganizer(ctx context.Context, name, owner string) (string, error) {
	var org struct {
		ID string `json:"id"`
	}
	args := []string{"organizer", "create", "--name", name}
	if owner != "" {
		args = append(args, "--owner", owner)
	}
	err := s.cli(ctx, "auth", &org, args...)
	return org.ID, err
}

// CreateKey creates a key for an organizer through the operator CLI.
func (s *Stack) CreateKey(ctx context.Context, organizerID string, k KeySpec) (Key, error) {
	args := []string{"key", "create", "--organizer", organizerID, "--type", k.Type, "--name", k.Name}
	if k.Mode != "" {
		args = append(args, "--mode", k.Mode)
	}
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
	err := s.cli(ctx, "auth", &out, args...)
	return out, err
}

// RevokeKey revokes a key through the operator CLI.
func (s *Stack) RevokeKey(ctx context.Context, keyID string) error {
	var out struct{}
	return s.cli(ctx, "auth", &out, "key", "revoke", "--key", keyID)
}

// cli runs an operator command of service svc (auth or catalog) with --json against its admin
// API and decodes its output into out.
func (s *Stack) cli(ctx context.Context, svc string, out any, args ...string) error {
	env := strings.ToUpper(svc)
	cmd := exec.CommandContext(ctx, bin(s.opts.BinDir, svc), append(args, "--json")...)
	cmd.Env = []string{env + "_ADMIN_URL=" + s.URLs[svc], env + "_OPERATOR_TOKEN=" + s.OperatorToken}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("stack: %s %s: %w: %s", svc, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		return fmt.Errorf("stack: %s %s printed %q: %w", svc, strings.Join(args, " "), stdout.String(), err)
	}
	return nil
}
