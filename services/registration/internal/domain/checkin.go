package domain

import (
	"fmt"
	"strconv"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/ids"
)

// CheckInIDPrefix prefixes check-in ids.
const CheckInIDPrefix = "chk_"

// NewCheckInID returns a new random check-in id.
func NewCheckInID() string { return ids.New(CheckInIDPrefix) }

// MaxScansPerBatch is the most scans one batch call carries: a door scanner offline for an hour
// at a busy gate stores a few hundred.
const MaxScansPerBatch = 500

// MaxScanAhead is how far past the service's clock a scan's scannedAt may be (devices' clocks
// drift); a later one is refused.
const MaxScanAhead = 5 * time.Minute

// Results of a scan.
const (
	// ScanAccepted checked in the ticket (and, with Team, every ticket of its team not yet in).
	ScanAccepted = "accepted"
	// ScanDuplicate found the ticket (and its whole team, with Team) already checked in.
	ScanDuplicate = "duplicate"
	// ScanUnknown names no ticket of the organizer in the key's mode.
	ScanUnknown = "unknown"
	// ScanCancelled names a cancelled or deleted ticket.
	ScanCancelled = "cancelled"
	// ScanUnpaid names a ticket whose order is not paid (a checkout still pending).
	ScanUnpaid = "unpaid"
	// ScanInvalid is a scan of a batch that breaks the scan's rules (Problems say which).
	ScanInvalid = "invalid"
)

// Codes of the refusals of a scan (and, but the nonce's, of a transfer), as the error body's code.
const (
	// CodeNonceReused refuses a nonce already used for a scan of another ticket.
	CodeNonceReused = "nonce_reused"
	// CodeTicketCancelled refuses a scan or transfer of a cancelled or deleted ticket.
	CodeTicketCancelled = "ticket_cancelled"
	// CodeTicketUnpaid refuses a scan or transfer of a ticket whose order is not paid.
	CodeTicketUnpaid = "ticket_unpaid"
)

// Scan is one read of a ticket or bib at the door.
type Scan struct {
	TicketID  string    `json:"ticketId,omitempty"`
	EventID   string    `json:"eventId,omitempty"`
	Bib       *int64    `json:"bibRaceNumber,omitempty"`
	Nonce     string    `json:"nonce"`
	ScannedAt time.Time `json:"scannedAt"`
	Device    string    `json:"device"`
	// Team checks in every active ticket of the ticket's registration (a bib names the team,
	// so a bib scan always does).
	Team bool `json:"team,omitempty"`
}

// WholeTeam reports whether the scan checks in the whole team.
func (s Scan) WholeTeam() bool { return s.Team || s.Bib != nil }

// Fingerprint is what the scan names: a nonce reused with another fingerprint is refused.
func (s Scan) Fingerprint() string {
	if s.Bib != nil {
		return "bib:" + s.EventID + ":" + strconv.FormatInt(*s.Bib, 10)
	}
	return fmt.Sprintf("ticket:%s:team=%t", s.TicketID, s.Team)
}

// Check returns the scan's problems beyond its schema: exactly one of ticketId and
// bibRaceNumber, eventId with a bib, scannedAt not ahead of now by more than MaxScanAhead.
func (s Scan) Check(now time.Time) []fault.Problem {
	var out []fault.Problem
	add := func(path, code, msg string) {
		out = append(out, fault.Problem{Path: path, Code: code, Message: path + " " + msg})
	}
	switch {
	case s.TicketID == "" && s.Bib == nil:
		add("ticketId", "required", "or bibRaceNumber is required")
	case s.TicketID != "" && s.Bib != nil:
		add("ticketId", "not_allowed", "and bibRaceNumber cannot both be sent")
	case s.Bib != nil && s.EventID == "":
		add("eventId", "required", "is required with bibRaceNumber (bib numbers are per event)")
	}
	if s.ScannedAt.After(now.Add(MaxScanAhead)) {
		add("scannedAt", "too_large", fmt.Sprintf("must not be later than %s (the service's clock plus %s)", now.Add(MaxScanAhead).UTC().Format(time.RFC3339), MaxScanAhead))
	}
	return out
}

// CheckIn is a ticket checked in at the door.
type CheckIn struct {
	ID             string
	OrganizerID    string
	Livemode       bool
	EventID        string
	RegistrationID string
	CategoryID     string
	TicketID       string
	AthleteID      string
	AthleteName    string
	TeamName       string
	Bib            *int64
	ScannedAt      time.Time
	Device         string
	CreatedAt      time.Time
	UndoneAt       *time.Time
}

// CheckInView is a check-in as the organizer API and the ticket.checked_in webhook show it.
type CheckInView struct {
	CheckInID      string     `json:"checkInId"`
	TicketID       string     `json:"ticketId"`
	AthleteID      string     `json:"athleteId"`
	AthleteName    string     `json:"athleteName"`
	RegistrationID string     `json:"registrationId"`
	EventID        string     `json:"eventId"`
	CategoryID     string     `json:"categoryId"`
	TeamName       string     `json:"teamName"`
	BibRaceNumber  *int64     `json:"bibRaceNumber"`
	ScannedAt      time.Time  `json:"scannedAt"`
	Device         string     `json:"device"`
	CreatedAt      time.Time  `json:"createdAt"`
	UndoneAt       *time.Time `json:"undoneAt"`
	Livemode       bool       `json:"livemode"`
}

// NewCheckInView returns the view of c.
func NewCheckInView(c CheckIn) CheckInView {
	return CheckInView{
		CheckInID: c.ID, TicketID: c.TicketID, AthleteID: c.AthleteID, AthleteName: c.AthleteName,
		RegistrationID: c.RegistrationID, EventID: c.EventID, CategoryID: c.CategoryID, TeamName: c.TeamName,
		BibRaceNumber: c.Bib, ScannedAt: c.ScannedAt.UTC(), Device: c.Device, CreatedAt: c.CreatedAt.UTC(),
		UndoneAt: utcPtr(c.UndoneAt), Livemode: c.Livemode,
	}
}

// TicketOutcome is what a scan did to one ticket of a team.
type TicketOutcome struct {
	TicketID string      `json:"ticketId"`
	Result   string      `json:"result"`
	CheckIn  CheckInView `json:"checkIn"`
}

// ScanResult answers one scan; a retry of its nonce answers it unchanged.
type ScanResult struct {
	Nonce  string `json:"nonce"`
	Result string `json:"result"`
	// Message says the result in a sentence a door screen can show.
	Message  string `json:"message"`
	TicketID string `json:"ticketId,omitempty"`
	// CheckIn is the scanned ticket's check-in: the new one, or for a duplicate the first.
	CheckIn *CheckInView `json:"checkIn,omitempty"`
	// Team lists every active ticket of the team, for a scan of the whole team.
	Team     []TicketOutcome `json:"team,omitempty"`
	Problems []fault.Problem `json:"problems,omitempty"`
}

// InvalidScan returns the answer to a scan of a batch that breaks its rules.
func InvalidScan(nonce string, problems []fault.Problem) ScanResult {
	return ScanResult{Nonce: nonce, Result: ScanInvalid, Message: "the scan is invalid: " + problems[0].Message, Problems: problems}
}

// Refusal returns the answer to a scan of no ticket that can be checked in.
func Refusal(s Scan, result, ticketID string) ScanResult {
	what := "ticket " + s.TicketID
	if s.Bib != nil {
		what = fmt.Sprintf("bib %d in event %s", *s.Bib, s.EventID)
	}
	msg := map[string]string{
		ScanUnknown:   what + " is not a ticket of this organizer",
		ScanCancelled: what + " is cancelled",
		ScanUnpaid:    what + " is not paid",
	}[result]
	return ScanResult{Nonce: s.Nonce, Result: result, Message: msg, TicketID: ticketID}
}

// DuplicateMessage is the answer a second scan of a checked-in ticket shows.
func DuplicateMessage(c CheckIn) string {
	return fmt.Sprintf("%s (ticket %s) was already checked in at %s by %s", c.AthleteName, c.TicketID, c.ScannedAt.UTC().Format(time.RFC3339), c.Device)
}

// AcceptedMessage is the answer to a scan that checked in c.
func AcceptedMessage(c CheckIn, team int) string {
	if team > 1 {
		return fmt.Sprintf("%s checked in with team %s (%d athletes)", c.AthleteName, c.TeamName, team)
	}
	return c.AthleteName + " checked in"
}

// TicketCheckedInEvent is the data of podium.registration.ticket.checked_in.v1.
type TicketCheckedInEvent struct {
	CheckInID   string      `json:"checkInId"`
	TicketID    string      `json:"ticketId"`
	OrganizerID string      `json:"organizerId"`
	Livemode    bool        `json:"livemode"`
	OccurredAt  time.Time   `json:"occurredAt"`
	Object      CheckInView `json:"object"`
}

// NewTicketCheckedInEvent returns the data of the event announcing c.
func NewTicketCheckedInEvent(c CheckIn) TicketCheckedInEvent {
	return TicketCheckedInEvent{
		CheckInID: c.ID, TicketID: c.TicketID, OrganizerID: c.OrganizerID, Livemode: c.Livemode,
		OccurredAt: c.CreatedAt.UTC(), Object: NewCheckInView(c),
	}
}
