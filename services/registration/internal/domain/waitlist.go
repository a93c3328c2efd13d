package domain

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/ids"
)

// WaitlistStatus is where a waitlist entry stands.
type WaitlistStatus string

// Waitlist entry statuses: in line, offered a held place, the offer taken by a checkout hold,
// the offer lapsed unused, or left out when the organizer closed the waitlist.
const (
	WaitlistWaiting  WaitlistStatus = "WAITING"
	WaitlistOffered  WaitlistStatus = "OFFERED"
	WaitlistAccepted WaitlistStatus = "ACCEPTED"
	WaitlistLapsed   WaitlistStatus = "LAPSED"
	WaitlistClosed   WaitlistStatus = "CLOSED"
)

// Codes of the waitlist's refusals.
const (
	// CodeNotSoldOut refuses a join to a category that still has places: buy instead.
	CodeNotSoldOut = "category_not_sold_out"
	// CodeWaitlistClosed refuses a join to a waitlist its organizer closed.
	CodeWaitlistClosed = "waitlist_closed"
	// CodeOfferNotValid refuses a hold with an offer that lapsed, was used or was never made.
	CodeOfferNotValid = "waitlist_offer_not_valid"
	// CodeNotWaiting refuses a manual offer to an entry that is not in line.
	CodeNotWaiting = "waitlist_entry_not_waiting"
)

// WaitlistEntryIDPrefix prefixes waitlist entry ids; WaitlistOfferPrefix an offer's secret.
const (
	WaitlistEntryIDPrefix = "wle_"
	WaitlistOfferPrefix   = "wlo_"
)

// DefaultOfferTTL is how long an offer holds its place unless configured otherwise: a day
// lets a buyer who reads mail once a day answer, and keeps the place from idling longer.
const DefaultOfferTTL = 24 * time.Hour

// WaitlistEntry is a buyer waiting for a place in a sold-out category.
type WaitlistEntry struct {
	ID             string
	OrganizerID    string
	Livemode       bool
	EventID        string
	CategoryID     string
	EventName      string
	CategoryName   string
	Email          string
	Name           string
	TeamSize       int
	OfferURL       string
	Status         WaitlistStatus
	Position       int
	OfferedAt      *time.Time
	OfferExpiresAt *time.Time
	OrderID        string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// JoinInput is a buyer's request to join a category's waitlist.
type JoinInput struct {
	CategoryID string
	Email      string
	Name       string
	TeamSize   int
	// OfferURL is the page of the organizer's site the offer's link opens, with the offer's
	// secret added as the query parameter waitlistOffer.
	OfferURL string
}

// NewWaitlistEntry is a new entry in line for category c of event e.
func NewWaitlistEntry(scope Scope, e Event, c Category, in JoinInput, now time.Time) WaitlistEntry {
	return WaitlistEntry{
		ID: ids.New(WaitlistEntryIDPrefix), OrganizerID: scope.OrganizerID, Livemode: scope.Livemode,
		EventID: e.ID, CategoryID: c.ID, EventName: e.Name, CategoryName: c.Name,
		Email: NormalEmail(in.Email), Name: strings.TrimSpace(in.Name), TeamSize: in.TeamSize, OfferURL: in.OfferURL,
		Status: WaitlistWaiting, CreatedAt: now, UpdatedAt: now,
	}
}

// CheckJoin checks a join against category c and the origin the buyer's key was used from:
// the team fits the category and the offer page is on that origin.
func CheckJoin(c Category, in JoinInput, origin string) error {
	var p fault.Problems
	if c.TeamSize.Min > 0 && in.TeamSize < c.TeamSize.Min || c.TeamSize.Max > 0 && in.TeamSize > c.TeamSize.Max {
		p.Add(fmt.Sprintf("teamSize must be between %d and %d in category %s", c.TeamSize.Min, c.TeamSize.Max, c.ID))
	}
	u, err := url.Parse(in.OfferURL)
	if err != nil || u.Scheme == "" || u.Host == "" || (origin != "" && !strings.EqualFold(u.Scheme+"://"+u.Host, origin)) {
		p.Add("offerUrl must be an absolute URL on the origin the key is used from")
	}
	return p.Err(fault.Unprocessable)
}

// NotSoldOutError refuses a join to a category with places left.
func NotSoldOutError(categoryID string, left int) error {
	return fault.NewConflict(fmt.Sprintf("category %s has %d places left: buy one instead of joining its waitlist", categoryID, left)).
		WithCode(CodeNotSoldOut)
}

// WaitlistClosedError refuses a join to a closed waitlist.
func WaitlistClosedError(categoryID string) error {
	return fault.NewConflict(fmt.Sprintf("the waitlist of category %s is closed", categoryID)).WithCode(CodeWaitlistClosed)
}

// OfferNotValidError refuses a hold with an offer that cannot be used.
func OfferNotValidError(why string) error {
	return fault.NewConflict("waitlistOffer " + why).WithCode(CodeOfferNotValid)
}

// NotWaitingError refuses a manual offer to an entry out of line.
func NotWaitingError(id string, s WaitlistStatus) error {
	return fault.NewConflict(fmt.Sprintf("waitlist entry %s is %s, not WAITING", id, s)).WithCode(CodeNotWaiting)
}

// NewOfferSecret returns a new offer secret and the hash under which it is kept.
func NewOfferSecret() (secret string, hash []byte) {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	secret = WaitlistOfferPrefix + base64.RawURLEncoding.EncodeToString(b)
	return secret, OfferHash(secret)
}

// OfferHash is the hash an offer secret is kept and found under.
func OfferHash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// OfferLink is the link of an offer: the entry's offer page with the secret added.
func OfferLink(offerURL, secret string) string {
	u, err := url.Parse(offerURL)
	if err != nil {
		return offerURL
	}
	q := u.Query()
	q.Set("waitlistOffer", secret)
	u.RawQuery = q.Encode()
	return u.String()
}

// OfferMail tells a waiting buyer that a place is held for them until the offer lapses.
func OfferMail(w WaitlistEntry, secret string) Mail {
	body := fmt.Sprintf("Hello %s,\n\nA place in %s of %s is free and held for you until %s (UTC).\n"+
		"Register and pay through this link before then:\n\n%s\n\n"+
		"After that time the place goes to the next person on the waitlist.\n",
		w.Name, w.CategoryName, w.EventName, w.OfferExpiresAt.UTC().Format(time.RFC3339), OfferLink(w.OfferURL, secret))
	return Mail{
		Test: !w.Livemode, OrganizerID: w.OrganizerID,
		To: w.Email, Subject: fmt.Sprintf("A place in %s is yours for now", w.CategoryName), Body: body,
	}
}

// WaitlistTopic is the topic of waitlist events (key = entry id).
const WaitlistTopic = "registration.waitlist.v1"

// EventWaitlistOffered says an entry was offered a held place.
const EventWaitlistOffered = "podium.registration.waitlist.offered.v1"

// WaitlistEntryView is a waitlist entry as the organizer API and the waitlist events show it.
type WaitlistEntryView struct {
	ID             string     `json:"id"`
	Object         string     `json:"object"`
	EventID        string     `json:"eventId"`
	CategoryID     string     `json:"categoryId"`
	Email          string     `json:"email"`
	Name           string     `json:"name"`
	TeamSize       int        `json:"teamSize"`
	Status         string     `json:"status"`
	Position       *int       `json:"position"`
	OfferedAt      *time.Time `json:"offeredAt"`
	OfferExpiresAt *time.Time `json:"offerExpiresAt"`
	OrderID        *string    `json:"orderId"`
	Livemode       bool       `json:"livemode"`
	CreatedAt      time.Time  `json:"createdAt"`
}

// NewWaitlistEntryView is w's view; its position shows only while it waits in line.
func NewWaitlistEntryView(w WaitlistEntry) WaitlistEntryView {
	v := WaitlistEntryView{
		ID: w.ID, Object: "waitlist_entry", EventID: w.EventID, CategoryID: w.CategoryID, Email: w.Email, Name: w.Name,
		TeamSize: w.TeamSize, Status: string(w.Status), OfferedAt: utc(w.OfferedAt), OfferExpiresAt: utc(w.OfferExpiresAt),
		Livemode: w.Livemode, CreatedAt: w.CreatedAt.UTC(),
	}
	if w.Status == WaitlistWaiting && w.Position > 0 {
		p := w.Position
		v.Position = &p
	}
	if w.OrderID != "" {
		id := w.OrderID
		v.OrderID = &id
	}
	return v
}

// WaitlistOfferedEvent is the data of podium.registration.waitlist.offered.v1.
type WaitlistOfferedEvent struct {
	OrganizerID string            `json:"organizerId"`
	Livemode    bool              `json:"livemode"`
	OccurredAt  time.Time         `json:"occurredAt"`
	Object      WaitlistEntryView `json:"object"`
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// CategoryMode is a category's ledger in one mode, with its event.
type CategoryMode struct {
	CategoryID string
	EventID    string
	Livemode   bool
}

// WaitingCategory is a category where someone waits in line, with its organizer.
type WaitingCategory struct {
	CategoryMode
	OrganizerID string
}

// LineError refuses a purchase of places that people waiting in the category's line come
// first for.
func LineError(categoryID string, waiting int) error {
	return fault.NewConflict(fmt.Sprintf("category %s is sold out: its freed places go to the %d people on its waitlist first", categoryID, waiting)).
		WithCode(CodeQuotaExhausted)
}
