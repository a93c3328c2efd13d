package app

import (
	"context"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Client is who sends a browser request: its publishable key and the network of its address
// (identity.ClientNetwork; empty when unknown). Failed promocodes count against both.
type Client struct {
	KeyID   string
	Network string
}

// failureSubjects are the subjects a client's failed promocodes count against.
func (s *Service) failureSubjects(c Client) []domain.FailureSubject {
	var out []domain.FailureSubject
	if c.Network != "" {
		out = append(out, domain.FailureSubject{Key: "address:" + c.Network, Backoff: s.opts.AddressBackoff})
	}
	if c.KeyID != "" {
		out = append(out, domain.FailureSubject{Key: "key:" + c.KeyID, Backoff: s.opts.KeyBackoff})
	}
	return out
}

// promocodeAllowed refuses a request with a promocode, before the code is looked at, while
// its client's address or key is blocked for failing too many (a *domain.TooManyRequestsError
// saying until when).
func (s *Service) promocodeAllowed(ctx context.Context, c Client, code string) error {
	subjects := s.failureSubjects(c)
	if code == "" || len(subjects) == 0 {
		return nil
	}
	keys := make([]string, len(subjects))
	for i, sub := range subjects {
		keys[i] = sub.Key
	}
	now := s.clock()
	until, err := s.repo.PromocodeBlockedUntil(ctx, keys, now)
	if err != nil {
		return err
	}
	if wait := until.Sub(now); wait > 0 {
		return &domain.TooManyRequestsError{
			Message: "too many promocodes that are not valid were tried from this address or on this site: " +
				"wait Retry-After seconds before trying a code again (a purchase without a code goes through)",
			RetryAfter: wait,
		}
	}
	return nil
}

// notePromocodeFailure counts err against the client when it is the answer to a promocode
// that is unknown or cannot be used. A failure to count it is logged: the answer stays err.
func (s *Service) notePromocodeFailure(ctx context.Context, c Client, err error) {
	if !domain.IsInvalidPromocode(err) {
		return
	}
	subjects := s.failureSubjects(c)
	if len(subjects) == 0 {
		return
	}
	if rerr := s.repo.RecordPromocodeFailure(context.WithoutCancel(ctx), subjects, s.clock()); rerr != nil {
		s.log.ErrorContext(ctx, "counting a failed promocode did not work", "key_id", c.KeyID, "err", rerr)
	}
}
