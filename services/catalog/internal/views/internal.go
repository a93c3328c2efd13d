package views

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// InternalEvent is GET /internal/events/{eventId}, as services/catalog/contracts
// (internal.openapi.yaml) defines it.
type InternalEvent struct {
	summaryView
	PreviewToken string                   `json:"previewToken"`
	Version      int64                    `json:"version"`
	UpdatedAt    time.Time                `json:"updatedAt"`
	Categories   []categoryView           `json:"categories"`
	FormFields   []formFieldView          `json:"formFields"`
	Waivers      []waiverView             `json:"waivers"`
	Supplements  []internalSupplementView `json:"supplements"`
	Promocodes   []promocodeView          `json:"promocodes"`
	Fees         []feeView                `json:"fees"`
	// TransfersUntil is when the event stops taking ticket transfers; null is never.
	TransfersUntil *time.Time `json:"transfersUntil"`
}

// internalSupplementView is a supplement, inactive ones included, with its options.
type internalSupplementView struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Kind    string       `json:"kind"`
	Price   *int64       `json:"price"`
	Active  bool         `json:"active"`
	Per     string       `json:"per"`
	Options []optionView `json:"options"`
}

// NewInternalEvent renders e with its pricing p for the internal API.
func NewInternalEvent(e domain.Event, p domain.Pricing) InternalEvent {
	parts := eventParts{e, Service}
	return InternalEvent{
		summaryView:  newSummary(e, Service),
		PreviewToken: e.PreviewToken, Version: e.Version, UpdatedAt: e.UpdatedAt.UTC(),
		Categories: each(p.Cards, parts.card), FormFields: each(e.FormFields, parts.formField),
		Waivers: each(e.Waivers, parts.waiver), Supplements: each(e.Supplements, parts.internalSupplement),
		Promocodes: each(e.Promocodes, parts.promocode), Fees: each(e.Fees, parts.fee),
		TransfersUntil: utcOf(e.TransfersUntil),
	}
}

func (p eventParts) internalSupplement(s domain.Supplement) internalSupplementView {
	return internalSupplementView{
		ID: s.ID, Name: s.Name, Kind: supplementKind(s), Price: s.Price, Active: s.Active, Per: string(s.Per),
		Options: each(s.Options, p.option),
	}
}
