package stack

import (
	"context"
	"fmt"
)

// DemoOrigin is the origin the demo publishable key allows (a Vite dev server).
const DemoOrigin = "http://localhost:5173"

// Demo is the seeded organizer, its keys and its events.
type Demo struct {
	OrganizerID      string
	SecretAll        Key
	SecretEventsRead Key
	Publishable      Key
	// Events are the catalog's demo events by external id (summer-throwdown, winter-draft,
	// members-only).
	Events map[string]Event
}

// SeedDemo creates a demo organizer with a secret key holding every scope, a secret key with
// events:read only and a publishable key for DemoOrigin, and imports the catalog's demo events
// for it.
func (s *Stack) SeedDemo(ctx context.Context) (*Demo, error) {
	org, err := s.CreateOrganizer(ctx, "Demo Events")
	if err != nil {
		return nil, err
	}
	d := &Demo{OrganizerID: org, Events: map[string]Event{}}
	specs := []struct {
		dst  *Key
		spec KeySpec
	}{
		{&d.SecretAll, KeySpec{Type: "secret", Name: "demo backend (all scopes)", Scopes: AllScopes}},
		{&d.SecretEventsRead, KeySpec{Type: "secret", Name: "demo reader (events:read)", Scopes: []string{"events:read"}}},
		{&d.Publishable, KeySpec{Type: "publishable", Name: "demo website", Origins: []string{DemoOrigin}}},
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
