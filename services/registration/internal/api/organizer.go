package api

import (
	"errors"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// handlers parse requests, call the use cases and write their results.
type handlers struct {
	svc *app.Service
	v   *apispec.Validator
}

// validate checks the body against the operation's request schema.
func (h handlers) validate(c *fiber.Ctx, operationID string) error {
	err := h.v.ValidateRequest(operationID, c.Body())
	var ve *apispec.ValidationError
	if errors.As(err, &ve) {
		return httpserver.Invalid(ve.Problems)
	}
	return err
}

// decode validates and decodes the body into v.
func (h handlers) decode(c *fiber.Ctx, operationID string, v any) error {
	if err := h.validate(c, operationID); err != nil {
		return err
	}
	return httpserver.DecodeJSON(c, v)
}

// registrationBody is the create body and, with every field optional, the update body.
type registrationBody struct {
	EventID               *string                       `json:"eventId"`
	CategoryID            *string                       `json:"categoryId"`
	TeamName              *string                       `json:"teamName"`
	Club                  *string                       `json:"club"`
	BibRaceNumber         *int64                        `json:"bibRaceNumber"`
	Athletes              *[]domain.Athlete             `json:"athletes"`
	CheckedInAt           *[]time.Time                  `json:"checkedInAt"`
	Note                  *string                       `json:"note"`
	CustomFields          *[]domain.CustomFieldValue    `json:"customFields"`
	SelectedSupplementIDs *[]string                     `json:"selectedSupplementIds"`
	SupplementSelections  *[]domain.SupplementSelection `json:"supplementSelections"`
	NotifyEmailChange     bool                          `json:"notifyEmailChange"`
}

func val[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// param returns a copy of the named path parameter.
func param(c *fiber.Ctx, name string) string { return strings.Clone(c.Params(name)) }

func (h handlers) create(c *fiber.Ctx) error {
	var b registrationBody
	if err := h.decode(c, "organizerCreateRegistration", &b); err != nil {
		return err
	}
	in := app.CreateInput{EventID: val(b.EventID), RegistrationInput: domain.RegistrationInput{
		CategoryID: val(b.CategoryID), TeamName: val(b.TeamName), Club: b.Club, Bib: b.BibRaceNumber,
		Athletes: val(b.Athletes), CheckedInAt: val(b.CheckedInAt), Note: b.Note, CustomFields: val(b.CustomFields),
		SupplementIDs: val(b.SelectedSupplementIDs), SupplementSelections: val(b.SupplementSelections),
	}}
	r, err := h.svc.Create(c.UserContext(), identity.From(c), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(domain.NewRegistrationView(r))
}

func (h handlers) update(c *fiber.Ctx) error {
	var b registrationBody
	if err := h.decode(c, "organizerUpdateRegistration", &b); err != nil {
		return err
	}
	p := domain.Patch{
		EventID: b.EventID, CategoryID: b.CategoryID, TeamName: b.TeamName, Club: b.Club, Bib: b.BibRaceNumber,
		Note: b.Note, NotifyEmailChange: b.NotifyEmailChange,
		Athletes: val(b.Athletes), AthletesSet: b.Athletes != nil,
		CheckedInAt: val(b.CheckedInAt), CheckedInAtSet: b.CheckedInAt != nil,
		CustomFields: val(b.CustomFields), CustomFieldsSet: b.CustomFields != nil,
		SupplementIDs: val(b.SelectedSupplementIDs), SupplementIDsSet: b.SelectedSupplementIDs != nil,
		SupplementSelections: val(b.SupplementSelections), SelectionsSet: b.SupplementSelections != nil,
	}
	if p.AthletesSet && len(p.Athletes) == 0 {
		return httpserver.BadRequest("athletes must have at least 1 item")
	}
	r, err := h.svc.Update(c.UserContext(), identity.From(c), param(c, "ticketId"), p)
	if err != nil {
		return err
	}
	return c.JSON(domain.NewRegistrationView(r))
}

type transferBody struct {
	Athlete         domain.Athlete  `json:"athlete"`
	WaiversAccepted map[string]bool `json:"waiversAccepted"`
}

func (h handlers) transfer(c *fiber.Ctx) error {
	var b transferBody
	if err := h.decode(c, "organizerTransferRegistration", &b); err != nil {
		return err
	}
	r, err := h.svc.Transfer(c.UserContext(), identity.From(c), param(c, "ticketId"), b.Athlete, b.WaiversAccepted)
	if err != nil {
		return err
	}
	return c.JSON(domain.NewRegistrationView(r))
}

type signWaiversBody struct {
	WaiversAccepted map[string]bool `json:"waiversAccepted"`
}

func (h handlers) signWaivers(c *fiber.Ctx) error {
	var b signWaiversBody
	if err := h.decode(c, "organizerSignRegistrationWaivers", &b); err != nil {
		return err
	}
	r, err := h.svc.SignWaivers(c.UserContext(), identity.From(c), param(c, "ticketId"), b.WaiversAccepted)
	if err != nil {
		return err
	}
	return c.JSON(domain.NewRegistrationView(r))
}

func (h handlers) remove(c *fiber.Ctx) error {
	res, err := h.svc.Delete(c.UserContext(), identity.From(c), param(c, "ticketId"))
	if err != nil {
		return err
	}
	return c.JSON(newDeleteView(res))
}

func (h handlers) search(c *fiber.Ctx) error {
	if err := h.validate(c, "organizerSearchRegistrations"); err != nil {
		return err
	}
	var req domain.SearchRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	rows, total, q, err := h.svc.Search(c.UserContext(), identity.From(c), req)
	if err != nil {
		return err
	}
	data := make([]searchRowView, len(rows))
	for i, r := range rows {
		data[i] = newSearchRowView(r)
	}
	return c.Status(fiber.StatusCreated).JSON(searchView{Data: data, Total: total, Limit: q.Limit, Offset: q.Offset})
}

type receiptBody struct {
	Email string `json:"email"`
}

func (h handlers) lookupReceipts(c *fiber.Ctx) error {
	var b receiptBody
	if err := h.decode(c, "browserLookupReceipts", &b); err != nil {
		return err
	}
	n, err := h.svc.LookupReceipts(c.UserContext(), identity.From(c), param(c, "eventId"), b.Email)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"found": n > 0, "count": n})
}

func (h handlers) sendReceipts(c *fiber.Ctx) error {
	var b receiptBody
	if err := h.decode(c, "browserSendReceipts", &b); err != nil {
		return err
	}
	n, err := h.svc.SendReceipts(c.UserContext(), identity.From(c), param(c, "eventId"), b.Email)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"accepted": true, "count": n})
}
