package api

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// scopeCheckIns is the scope of the check-in routes, and of nothing else: a door scanner's key.
const scopeCheckIns = "checkins:write"

// checkIn applies one scan: 201 with the result for a scan accepted or a duplicate, the standard
// error otherwise (404 unknown ticket, 409 ticket_cancelled or ticket_unpaid).
func (h handlers) checkIn(c *fiber.Ctx) error {
	var scan domain.Scan
	if err := h.decode(c, "organizerCheckIn", &scan); err != nil {
		return err
	}
	if p := h.svc.CheckScan(scan); len(p) > 0 {
		return httpserver.Invalid(p)
	}
	res, err := h.svc.CheckIn(c.UserContext(), identity.From(c), scan)
	if err != nil {
		return err
	}
	switch res.Result {
	case domain.ScanUnknown:
		return &fault.Error{Kind: fault.NotFound, Problems: []string{res.Message}}
	case domain.ScanCancelled:
		return fault.NewConflict(res.Message).WithCode(domain.CodeTicketCancelled)
	case domain.ScanUnpaid:
		return fault.NewConflict(res.Message).WithCode(domain.CodeTicketUnpaid)
	}
	return c.Status(fiber.StatusCreated).JSON(res)
}

type batchBody struct {
	Scans []json.RawMessage `json:"scans"`
}

type batchView struct {
	Data   []domain.ScanResult `json:"data"`
	Counts map[string]int      `json:"counts"`
}

// checkInBatch applies a batch of scans in their order and answers each: a scan that breaks
// the scan's schema or rules answers invalid, the others as one scan would.
func (h handlers) checkInBatch(c *fiber.Ctx) error {
	var b batchBody
	if err := h.decode(c, "organizerCheckInBatch", &b); err != nil {
		return err
	}
	scans := make([]domain.Scan, len(b.Scans))
	invalid := make(map[int]domain.ScanResult)
	for i, raw := range b.Scans {
		if res, ok := h.decodeScan(raw, &scans[i]); !ok {
			invalid[i] = res
		}
	}
	valid := make([]domain.Scan, 0, len(scans))
	for i, s := range scans {
		if _, bad := invalid[i]; !bad {
			valid = append(valid, s)
		}
	}
	results, err := h.svc.CheckInBatch(c.UserContext(), identity.From(c), valid)
	if err != nil {
		return err
	}
	out := batchView{Data: make([]domain.ScanResult, len(scans)), Counts: map[string]int{
		domain.ScanAccepted: 0, domain.ScanDuplicate: 0, domain.ScanUnknown: 0, domain.ScanCancelled: 0, domain.ScanUnpaid: 0, domain.ScanInvalid: 0,
	}}
	next := 0
	for i := range scans {
		res, bad := invalid[i]
		if !bad {
			res, next = results[next], next+1
		}
		out.Data[i] = res
		out.Counts[res.Result]++
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}

// decodeScan validates one scan of a batch against the single scan's schema and decodes it;
// ok is false with the invalid answer when it breaks the schema.
func (h handlers) decodeScan(raw json.RawMessage, scan *domain.Scan) (domain.ScanResult, bool) {
	var nonce struct {
		Nonce any `json:"nonce"`
	}
	_ = json.Unmarshal(raw, &nonce)
	n, _ := nonce.Nonce.(string)
	err := h.v.ValidateRequest("organizerCheckIn", raw)
	var ve *apispec.ValidationError
	if errors.As(err, &ve) {
		return domain.InvalidScan(n, ve.Problems), false
	}
	if err == nil {
		err = json.Unmarshal(raw, scan)
	}
	if err != nil {
		return domain.InvalidScan(n, []fault.Problem{{Code: fault.CodeInvalid, Message: fmt.Sprintf("the scan cannot be read: %v", err)}}), false
	}
	return domain.ScanResult{}, true
}

// undoCheckIn undoes a check-in: 200 with the check-in and its undoneAt.
func (h handlers) undoCheckIn(c *fiber.Ctx) error {
	ci, err := h.svc.UndoCheckIn(c.UserContext(), identity.From(c), param(c, "checkInId"))
	if err != nil {
		return err
	}
	return c.JSON(domain.NewCheckInView(ci))
}
