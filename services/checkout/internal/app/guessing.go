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

// admitPromocode admits a request with a promocode before the code is looked at, in one
// atomic step for every instance: while its client's address or key is blocked for failing
// too many it is refused (a *domain.TooManyRequestsError saying until when); otherwise a
// failure is recorded against both up front, so that a burst of requests is admitted one
// after the other and the first to go beyond the free failures blocks the rest. settle gives
// the failure back if the code turns out valid.
func (s *Service) admitPromocode(ctx context.Context, c Client, code string) ([]domain.FailureCharge, error) {
	subjects := s.failureSubjects(c)
	if code == "" || len(subjects) == 0 {
		return nil, nil
	}
	charged, wait, err := s.repo.AdmitPromocode(ctx, subjects, s.clock())
	if err != nil {
		return nil, err
	}
	if wait > 0 {
		return nil, &domain.TooManyRequestsError{
			Message: "too many promocodes that are not valid were tried from this address or on this site: " +
				"wait Retry-After seconds before trying a code again (a purchase without a code goes through)",
			RetryAfter: wait,
		}
	}
	return charged, nil
}

// settlePromocode keeps the failure admitPromocode charged when err answers a promocode that
// is unknown or cannot be used, and gives it back otherwise. A failure to give it back is
// logged: the answer stays err.
func (s *Service) settlePromocode(ctx context.Context, c Client, charged []domain.FailureCharge, err error) {
	if len(charged) == 0 || domain.IsInvalidPromocode(err) {
		return
	}
	if ferr := s.repo.ForgivePromocode(context.WithoutCancel(ctx), charged); ferr != nil {
		s.log.ErrorContext(ctx, "giving back a promocode attempt did not work", "key_id", c.KeyID, "err", ferr)
	}
}
