// Package app holds the auth service's use cases: managing organizers and API keys for
// operators, and answering the gateway's questions about keys and origins.
package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// Repository stores organizers and keys. Implementations own their transactions: the audit
// entry of a key or member change, and a key's outbox event, are written in the same
// transaction as the change itself.
type Repository interface {
	// CreateOrganizer stores o and its first members in one transaction.
	CreateOrganizer(ctx context.Context, actor domain.Actor, o domain.Organizer, members ...domain.Member) error
	// Organizer returns the organizer with id, or domain.ErrOrganizerNotFound.
	Organizer(ctx context.Context, id string) (domain.Organizer, error)
	// Organizers returns a page of organizers, newest first, and how many there are.
	Organizers(ctx context.Context, page domain.Page) ([]domain.Organizer, int, error)
	// CreateKey stores k with its audit entry by actor and created event. It returns
	// domain.ErrOrganizerNotFound or domain.ErrDuplicateKeyHash.
	CreateKey(ctx context.Context, actor domain.Actor, k domain.Key) error
	// Keys returns a page of an organizer's keys of mode (of both when mode is empty), newest
	// first, and how many there are.
	Keys(ctx context.Context, organizerID string, mode apikey.Mode, page domain.Page) ([]domain.Key, int, error)
	// RevokeKey revokes the key with id at the given time, with its audit entry by actor and
	// revoked event, unless it is already revoked; it returns the key as it now is, or
	// domain.ErrKeyNotFound, also for a key of another organizer than organizerID unless
	// organizerID is empty (any organizer).
	RevokeKey(ctx context.Context, actor domain.Actor, organizerID, id string, at time.Time) (domain.Key, error)
	// KeyByHash returns the key with hash, or domain.ErrKeyNotFound, and writes nothing.
	KeyByHash(ctx context.Context, hash string) (domain.Key, error)
	// RecordKeyUses stores the last use of each key in uses, by key id, in one write; a time
	// older than the one stored is ignored.
	RecordKeyUses(ctx context.Context, uses map[string]time.Time) error
	// OriginAllowed reports whether a publishable key active at the given time allows origin.
	OriginAllowed(ctx context.Context, origin string, at time.Time) (bool, error)
	MemberRepository
	AuditRepository
}

// Service runs the use cases.
type Service struct {
	repo  Repository
	clock clock.Clock
	uses  keyUses
}

// New returns a Service over repo and its clock (time.Now in production).
func New(repo Repository, c clock.Clock) *Service {
	return &Service{repo: repo, clock: c, uses: keyUses{pending: map[string]time.Time{}}}
}

// CreatedOrganizer is a new organizer with its first owner, when one was given.
type CreatedOrganizer struct {
	domain.Organizer
	Owner *domain.Member
}

// CreateOrganizer validates name and, unless ownerEmail is empty, the first owner's e-mail,
// and stores the organizer with its owner, whose addition actor's audit entry records.
func (s *Service) CreateOrganizer(ctx context.Context, actor domain.Actor, name, ownerEmail string) (CreatedOrganizer, error) {
	now := s.clock.Now()
	o, err := domain.NewOrganizer(name, now)
	if err != nil {
		return CreatedOrganizer{}, err
	}
	created := CreatedOrganizer{Organizer: o}
	var members []domain.Member
	if ownerEmail != "" {
		owner, err := domain.NewMember(o.ID, ownerEmail, string(domain.RoleOwner), now)
		if err != nil {
			return CreatedOrganizer{}, err
		}
		created.Owner, members = &owner, []domain.Member{owner}
	}
	if err := s.repo.CreateOrganizer(ctx, actor, o, members...); err != nil {
		return CreatedOrganizer{}, fmt.Errorf("create organizer: %w", err)
	}
	return created, nil
}

// Organizer returns one organizer.
func (s *Service) Organizer(ctx context.Context, id string) (domain.Organizer, error) {
	o, err := s.repo.Organizer(ctx, id)
	if err != nil {
		return domain.Organizer{}, fmt.Errorf("organizer: %w", err)
	}
	return o, nil
}

// ListOrganizers returns a page of organizers and their total count.
func (s *Service) ListOrganizers(ctx context.Context, page domain.Page) ([]domain.Organizer, int, error) {
	list, total, err := s.repo.Organizers(ctx, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list organizers: %w", err)
	}
	return list, total, nil
}

// CreatedKey is a new key with its full value, which is shown once.
type CreatedKey struct {
	domain.Key
	Secret string
}

// keyAttempts bounds retries after the (practically impossible) clash of two key hashes.
const keyAttempts = 3

// CreateKey validates r and mints a key for the organizer, recorded as created by actor. An
// unknown organizer is reported before problems in r.
func (s *Service) CreateKey(ctx context.Context, actor domain.Actor, organizerID string, r domain.KeyRequest) (CreatedKey, error) {
	if _, err := s.repo.Organizer(ctx, organizerID); err != nil {
		return CreatedKey{}, fmt.Errorf("create key: %w", err)
	}
	for attempt := 1; ; attempt++ {
		k, full, err := domain.NewKey(organizerID, r, s.clock.Now())
		if err != nil {
			return CreatedKey{}, err
		}
		err = s.repo.CreateKey(ctx, actor, k)
		if err == nil {
			return CreatedKey{Key: k, Secret: full}, nil
		}
		if !errors.Is(err, domain.ErrDuplicateKeyHash) || attempt == keyAttempts {
			return CreatedKey{}, fmt.Errorf("create key: %w", err)
		}
	}
}

// ListKeys returns a page of an organizer's keys of mode (both when empty) and their count.
func (s *Service) ListKeys(ctx context.Context, organizerID string, mode apikey.Mode, page domain.Page) ([]domain.Key, int, error) {
	if _, err := s.repo.Organizer(ctx, organizerID); err != nil {
		return nil, 0, fmt.Errorf("list keys: %w", err)
	}
	list, total, err := s.repo.Keys(ctx, organizerID, mode, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list keys: %w", err)
	}
	return list, total, nil
}

// RevokeKey revokes a key of any organizer, recorded as revoked by actor; revoking it again
// returns it unchanged and records nothing.
func (s *Service) RevokeKey(ctx context.Context, actor domain.Actor, keyID string) (domain.Key, error) {
	k, err := s.repo.RevokeKey(ctx, actor, "", keyID, s.clock.Now())
	if err != nil {
		return domain.Key{}, fmt.Errorf("revoke key: %w", err)
	}
	return k, nil
}

// RevokeOrganizerKey is RevokeKey for a key of the organizer: another organizer's key is
// domain.ErrKeyNotFound and stays as it is.
func (s *Service) RevokeOrganizerKey(ctx context.Context, actor domain.Actor, organizerID, keyID string) (domain.Key, error) {
	if organizerID == "" {
		return domain.Key{}, fmt.Errorf("revoke key: %w", domain.ErrKeyNotFound)
	}
	k, err := s.repo.RevokeKey(ctx, actor, organizerID, keyID, s.clock.Now())
	if err != nil {
		return domain.Key{}, fmt.Errorf("revoke key: %w", err)
	}
	return k, nil
}

// VerifyKey returns the key with the given hash, revoked and expired ones included (the
// gateway decides and explains). It only reads: the use is remembered in memory and written
// by the next FlushKeyUses.
func (s *Service) VerifyKey(ctx context.Context, hash string) (domain.Key, error) {
	k, err := s.repo.KeyByHash(ctx, hash)
	if err != nil {
		return domain.Key{}, fmt.Errorf("verify key: %w", err)
	}
	s.uses.record(k.ID, s.clock.Now())
	return k, nil
}

// OriginAllowed reports whether any active publishable key, of any organizer, allows origin.
// An origin that is not a valid bare origin is not allowed.
func (s *Service) OriginAllowed(ctx context.Context, origin string) (bool, error) {
	normal, err := domain.NormalizeOrigin(origin)
	if err != nil {
		return false, nil //nolint:nilerr // a malformed origin is simply not an allowed one
	}
	ok, err := s.repo.OriginAllowed(ctx, normal, s.clock.Now())
	if err != nil {
		return false, fmt.Errorf("origin allowed: %w", err)
	}
	return ok, nil
}
