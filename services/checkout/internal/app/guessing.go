package app

import (
	"context"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Buyer is who sends a browser request: the principal of its publishable key (the gateway's),
// on whose behalf the peers are called, and the network of its address
// (identity.ClientNetwork; empty when unknown). Holds are capped by that network, and failed
// promocodes count against it and the key.
type Buyer struct {
	identity.Principal
	Network string
}

// failureSubjects are the subjects a buyer's failed promocodes count against.
func (s *Service) failureSubjects(b Buyer) []domain.FailureSubject {
	var out []domain.FailureSubject
	if b.Network != "" {
		out = append(out, domain.FailureSubject{Key: "address:" + b.Network, Backoff: s.opts.AddressBackoff})
	}
	if b.KeyID != "" {
		out = append(out, domain.FailureSubject{Key: "key:" + b.KeyID, Backoff: s.opts.KeyBackoff})
	}
	return out
}

// promocodesBlocked answers a promocode while its buyer's address or key is blocked.
const promocodesBlocked = "too many promocodes that are not valid were tried from this address or on this site: " +
	"wait Retry-After seconds before trying a code again (a purchase without a code goes through)"

// admitPromocode admits a request with a promocode before the code is looked at, in one
// atomic step for every instance: while its buyer's address or key is blocked for failing
// too many it is refused (too many requests, saying until when); otherwise a
// failure is recorded against both up front, so that a burst of requests is admitted one
// after the other and the first to go beyond the free failures blocks the rest. settle gives
// the failure back if the code turns out valid.
func (s *Service) admitPromocode(ctx context.Context, b Buyer, code string) ([]domain.FailureCharge, error) {
	subjects := s.failureSubjects(b)
	if code == "" || len(subjects) == 0 {
		return nil, nil
	}
	charged, wait, err := s.repo.AdmitPromocode(ctx, subjects, s.clock.Now())
	if err != nil {
		return nil, err
	}
	if wait > 0 {
		return nil, fault.NewTooManyRequests(promocodesBlocked, wait)
	}
	return charged, nil
}

// settlePromocode keeps the failure admitPromocode charged when err answers a promocode that
// is unknown or cannot be used, and gives it back otherwise. A failure to give it back is
// logged: the answer stays err.
func (s *Service) settlePromocode(ctx context.Context, b Buyer, charged []domain.FailureCharge, err error) {
	if len(charged) == 0 || domain.IsInvalidPromocode(err) {
		return
	}
	if ferr := s.repo.ForgivePromocode(context.WithoutCancel(ctx), charged); ferr != nil {
		s.log.ErrorContext(ctx, "giving back a promocode attempt did not work", "key_id", b.KeyID, "err", ferr)
	}
}
