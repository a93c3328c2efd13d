package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// CheckScan returns the problems of a scan beyond its schema, on the service's clock.
func (s *Service) CheckScan(scan domain.Scan) []fault.Problem { return scan.Check(s.clock.Now()) }

// CheckIn applies one scan (checked by CheckScan) as the caller's organizer in the caller's
// mode; a scan whose nonce was seen answers the first scan's result.
func (s *Service) CheckIn(ctx context.Context, caller identity.Principal, scan domain.Scan) (domain.ScanResult, error) {
	res, err := s.repo.CheckIn(ctx, scopeOf(caller), scan, s.clock.Now())
	if err != nil {
		return domain.ScanResult{}, fmt.Errorf("check in: %w", err)
	}
	return res, nil
}

// CheckInBatch applies scans in their order, each on its own as CheckIn does: a scan that
// breaks its rules or reuses a nonce answers invalid without stopping the others. Only a
// failure of the store stops the batch; the scans applied before it stay applied, and a retry
// of the batch answers them from their nonces.
func (s *Service) CheckInBatch(ctx context.Context, caller identity.Principal, scans []domain.Scan) ([]domain.ScanResult, error) {
	out := make([]domain.ScanResult, len(scans))
	for i, scan := range scans {
		if p := s.CheckScan(scan); len(p) > 0 {
			out[i] = domain.InvalidScan(scan.Nonce, p)
			continue
		}
		res, err := s.CheckIn(ctx, caller, scan)
		var fe *fault.Error
		if errors.As(err, &fe) && fe.Code == domain.CodeNonceReused {
			res = domain.InvalidScan(scan.Nonce, []fault.Problem{{Path: "nonce", Code: domain.CodeNonceReused, Message: fe.Problems[0]}})
		} else if err != nil {
			return nil, err
		}
		out[i] = res
	}
	return out, nil
}

// UndoCheckIn undoes the caller's organizer's check-in id.
func (s *Service) UndoCheckIn(ctx context.Context, caller identity.Principal, id string) (domain.CheckIn, error) {
	c, err := s.repo.UndoCheckIn(ctx, scopeOf(caller), id, s.clock.Now())
	if err != nil {
		return domain.CheckIn{}, fmt.Errorf("undo check-in: %w", err)
	}
	return c, nil
}
