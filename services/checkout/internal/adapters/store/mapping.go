package store

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func insertParams(c domain.Checkout) (db.InsertCheckoutParams, error) {
	quote, err := json.Marshal(c.Quote)
	if err != nil {
		return db.InsertCheckoutParams{}, fmt.Errorf("marshal quote: %w", err)
	}
	sig, err := jsonOrNil(c.LegalSignature)
	if err != nil {
		return db.InsertCheckoutParams{}, err
	}
	deferred, err := jsonOrNil(c.Deferred)
	if err != nil {
		return db.InsertCheckoutParams{}, err
	}
	var ip []byte
	if len(c.IPEnrichment) > 0 {
		ip = c.IPEnrichment
	}
	return db.InsertCheckoutParams{
		ID: c.ID, OrganizerID: c.OrganizerID, Livemode: c.Livemode, KeyID: c.KeyID, IdempotencyKey: nilIfEmpty(c.IdempotencyKey),
		EventID: c.EventID, State: string(c.State), Currency: c.Currency, Total: c.Total, Quote: quote,
		Promocode: nilIfEmpty(c.Promocode), PromocodeState: string(c.PromoState),
		PurchaserEmail: c.PurchaserEmail, PurchaserName: c.PurchaserName,
		LegalSignature: sig, IpEnrichment: ip, Deferred: deferred,
		HoldExpiresAt: c.HoldExpiresAt, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, PromocodeMaxUses: c.PromoMaxUses,
	}, nil
}

func updateParams(c domain.Checkout) db.UpdateCheckoutParams {
	return db.UpdateCheckoutParams{
		ID: c.ID, State: string(c.State), PromocodeState: string(c.PromoState),
		OrderID: nilIfEmpty(c.OrderID), SessionID: nilIfEmpty(c.SessionID), SessionUrl: nilIfEmpty(c.SessionURL),
		PaymentIntent: nilIfEmpty(c.PaymentIntent), AmountPaid: c.AmountPaid, RefundID: nilIfEmpty(c.RefundID),
		SessionExpiresAt: c.SessionExpiresAt, UpdatedAt: c.UpdatedAt, PaidAt: c.PaidAt, CompletedAt: c.CompletedAt,
		RefundReason: nilIfEmpty(c.RefundReason), RefundAttempts: int32(min(c.RefundAttempts, math.MaxInt32)), //nolint:gosec // bounded just before
		RefundNextAttemptAt: c.RefundNextAttemptAt, RefundErrorCode: nilIfEmpty(c.RefundErrorCode),
		RefundErrorMessage: nilIfEmpty(c.RefundErrorMessage), RefundFailedAt: c.RefundFailedAt,
		RefundClaim: int32(min(c.RefundClaim, math.MaxInt32)), RefundClaimedUntil: c.RefundClaimedUntil, //nolint:gosec // bounded just before
		HoldTickets: holdTickets(c.HoldTickets),
	}
}

// holdTickets is the hold's tickets as stored (NULL when not known).
func holdTickets(t [][]string) []byte {
	if len(t) == 0 {
		return nil
	}
	b, _ := json.Marshal(t) // a slice of strings always marshals
	return b
}

func toCheckout(row db.Checkout) (domain.Checkout, error) {
	c := domain.Checkout{
		ID: row.ID, OrganizerID: row.OrganizerID, Livemode: row.Livemode, KeyID: row.KeyID, IdempotencyKey: deref(row.IdempotencyKey),
		EventID: row.EventID, State: domain.State(row.State), Currency: row.Currency, Total: row.Total,
		Promocode: deref(row.Promocode), PromoState: domain.PromoState(row.PromocodeState), PromoMaxUses: row.PromocodeMaxUses,
		PurchaserEmail: row.PurchaserEmail, PurchaserName: row.PurchaserName, IPEnrichment: row.IpEnrichment,
		OrderID: deref(row.OrderID), SessionID: deref(row.SessionID), SessionURL: deref(row.SessionUrl),
		PaymentIntent: deref(row.PaymentIntent), AmountPaid: row.AmountPaid, RefundID: deref(row.RefundID), RefundReason: deref(row.RefundReason),
		HoldExpiresAt: row.HoldExpiresAt.UTC(), SessionExpiresAt: utc(row.SessionExpiresAt),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(), PaidAt: utc(row.PaidAt), CompletedAt: utc(row.CompletedAt),
		RefundAttempts: int(row.RefundAttempts), RefundNextAttemptAt: utc(row.RefundNextAttemptAt),
		RefundErrorCode: deref(row.RefundErrorCode), RefundErrorMessage: deref(row.RefundErrorMessage), RefundFailedAt: utc(row.RefundFailedAt),
		RefundClaim: int(row.RefundClaim), RefundClaimedUntil: utc(row.RefundClaimedUntil),
	}
	if err := json.Unmarshal(row.Quote, &c.Quote); err != nil {
		return domain.Checkout{}, fmt.Errorf("checkout %s quote: %w", row.ID, err)
	}
	if row.HoldTickets != nil {
		if err := json.Unmarshal(row.HoldTickets, &c.HoldTickets); err != nil {
			return domain.Checkout{}, fmt.Errorf("checkout %s hold tickets: %w", row.ID, err)
		}
	}
	if row.LegalSignature != nil {
		c.LegalSignature = &domain.LegalSignature{}
		if err := json.Unmarshal(row.LegalSignature, c.LegalSignature); err != nil {
			return domain.Checkout{}, fmt.Errorf("checkout %s signature: %w", row.ID, err)
		}
	}
	if row.Deferred != nil {
		c.Deferred = &domain.DeferredTeamCompletion{}
		if err := json.Unmarshal(row.Deferred, c.Deferred); err != nil {
			return domain.Checkout{}, fmt.Errorf("checkout %s deferred completion: %w", row.ID, err)
		}
	}
	return c, nil
}

func jsonOrNil[T any](v *T) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	return b, nil
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
