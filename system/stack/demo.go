package stack

import (
	"context"
	"fmt"
)

// DemoOrigin is the origin the demo publishable key allows (a Vite dev server).
const DemoOrigin = "http://localhost:5173"

// The demo organizer's owner and member, who sign in to the console.
const (
	DemoOwner  = "owner@demo.podium.localhost"
	DemoMember = "member@demo.podium.localhost"
)

// Demo is the seeded organizer, its people, keys and events.
type Demo struct {
	OrganizerID string
	// OwnerEmail and MemberEmail are members with the owner and member roles.
	OwnerEmail, MemberEmail string
	SecretAll               Key
	SecretEventsRead        Key
	Publishable             Key
	// TestSecret (every scope) and TestPublishable (DemoOrigin) are test-mode keys: what they
	// write is test data, apart from the live keys' data.
	TestSecret, TestPublishable Key
	// Events are the catalog's demo events by external id (summer-throwdown, winter-draft,
	// members-only).
	Events map[string]Event
}

// SeedDemo creates a demo organizer, owned by DemoOwner with DemoMember as a member, with a
// secret key holding every scope, a secret key with events:read only, a publishable key for
// DemoOrigin and a test-mode pair of the first and the last, and imports the catalog's demo
// events for it.
func (s *Stack) SeedDemo(ctx context.Context) (*Demo, error) {
	org, err := s.CreateOrganizer(ctx, "Demo Events", DemoOwner)
	if err != nil {
		return nil, err
	}
	if _, err := s.AddMember(ctx, org, DemoMember, "member"); err != nil {
		return nil, fmt.Errorf("stack: seed demo: %w", err)
	}
	d := &Demo{OrganizerID: org, OwnerEmail: DemoOwner, MemberEmail: DemoMember, Events: map[string]Event{}}
	specs := []struct {
		dst  *Key
		spec KeySpec
	}{
		{&d.SecretAll, KeySpec{Type: "secret", Name: "demo backend (all scopes)", Scopes: AllScopes}},
		{&d.SecretEventsRead, KeySpec{Type: "secret", Name: "demo reader (events:read)", Scopes: []string{"events:read"}}},
		{&d.Publishable, KeySpec{Type: "publishable", Name: "demo website", Origins: []string{DemoOrigin}}},
		{&d.TestSecret, KeySpec{Type: "secret", Name: "demo backend, test mode", Scopes: AllScopes, Mode: "test"}},
		{&d.TestPublishable, KeySpec{Type: "publishable", Name: "demo website, test mode", Origins: []string{DemoOrigin}, Mode: "test"}},
	}
	for _, sp := range specs {
		if *sp.dst, err = s.CreateKey(ctx, org, sp.spec); err != nil {
			return nil, fmt.Errorf("stack: seed demo: %w", err)
		}
	}
	files, err := demoEventFiles()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		ev, err := s.ImportEvent(ctx, org, f)
		if err != nil {
			return nil, fmt.Errorf("stack: seed demo: %w", err)
		}
		d.Events[ev.ExternalID] = ev
	}
	return d, nil
}
