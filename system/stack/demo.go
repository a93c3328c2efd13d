package stack

import (
	"context"
	"fmt"
)

// DemoOrigin is the origin the demo publishable key allows (a Vite dev server).
const DemoOrigin = "http://localhost:5173"

// Demo is the seeded organizer and its keys.
type Demo struct {
	OrganizerID      string
	SecretAll        Key
	SecretEventsRead Key
	Publishable      Key
}

// SeedDemo creates a demo organizer with a secret key holding every scope, a secret key with
// events:read only and a publishable key for DemoOrigin.
func (s *Stack) SeedDemo(ctx context.Context) (*Demo, error) {
	org, err := s.CreateOrganizer(ctx, "Demo Events")
	if err != nil {
		return nil, err
	}
	d := &Demo{OrganizerID: org}
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
	return d, nil
}
