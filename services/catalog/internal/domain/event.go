package domain

import (
	"crypto/subtle"
	"time"
)

// Status is the lifecycle state of an event.
type Status string

// Event statuses of the contract.
const (
	Draft       Status = "DRAFT"
	Published   Status = "PUBLISHED"
	UnderReview Status = "UNDER_REVIEW"
	Postponed   Status = "POSTPONED"
	Completed   Status = "COMPLETED"
	Cancelled   Status = "CANCELLED"
	Archived    Status = "ARCHIVED"
)

// Statuses lists every status in the contract's order.
var Statuses = []Status{Draft, Published, UnderReview, Postponed, Completed, Cancelled, Archived}

// Gender is the gender rule of a category.
type Gender string

// Gender rules: OPEN takes any athletes, MALE and FEMALE athletes of that gender only, MIXED at
// least one athlete of each.
const (
	GenderOpen   Gender = "OPEN"
	GenderMale   Gender = "MALE"
	GenderFemale Gender = "FEMALE"
	GenderMixed  Gender = "MIXED"
)

// FieldType is the input kind of a custom form field.
type FieldType string

// Form field types; only select and multiselect fields have options.
const (
	FieldText        FieldType = "text"
	FieldNumber      FieldType = "number"
	FieldBoolean     FieldType = "boolean"
	FieldSelect      FieldType = "select"
	FieldMultiselect FieldType = "multiselect"
	FieldDate        FieldType = "date"
)

// HasOptions reports whether answers to a field of this type are picked from its options.
func (t FieldType) HasOptions() bool { return t == FieldSelect || t == FieldMultiselect }

// Scope says what a form field, supplement or fee is counted per.
type Scope string

// Scopes: form fields are asked per ATHLETE or per TEAM; supplements are sold per
// REGISTRATION or per ATHLETE; fees are charged per REGISTRATION or per ORDER.
const (
	PerAthlete      Scope = "ATHLETE"
	PerTeam         Scope = "TEAM"
	PerRegistration Scope = "REGISTRATION"
	PerOrder        Scope = "ORDER"
)

// AdjustmentType says how a promocode discount or a fee is computed.
type AdjustmentType string

// Adjustment types: a share of the price in basis points, or a fixed amount in minor units.
const (
	Percent AdjustmentType = "PERCENT"
	Fixed   AdjustmentType = "FIXED"
)

// Adjustment is a promocode's discount or a fee: BasisPoints (1000 = 10 %) for PERCENT, Amount
// in minor units of the event currency for FIXED.
type Adjustment struct {
	Type        AdjustmentType
	BasisPoints int
	Amount      int64
}

// Event is what an organizer sells: the authored content of its last import plus the
// identifiers, preview token, version and places the catalog keeps. An event decoded from an
// import file (a draft) has no identifiers yet; the merge assigns them.
type Event struct {
	ID            string
	OrganizerID   string
	ExternalID    string
	Name          string
	Description   string
	InternalNotes string
	Status        Status
	Private       bool
	StartDate     Date
	EndDate       Date
	// Timezone is the IANA zone the dates and price tier windows are read in.
	Timezone string
	// Currency is the ISO 4217 code of every amount of the event.
	Currency     string
	Venue        Venue
	PreviewToken string
	// Version grows by one with every import that changed the event.
	Version int64
	// Fingerprint identifies the authored content of the last import.
	Fingerprint string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Categories  []Category
	FormFields  []FormField
	Waivers     []Waiver
	Sponsors    []Sponsor
	Supplements []Supplement
	Promocodes  []Promocode
	Fees        []Fee
	// TransfersUntil is when the event stops taking ticket transfers (nil: never). Left out of
	// the fingerprint while unset, so events authored before it are not seen as changed.
	TransfersUntil *time.Time `json:",omitempty"`
}

// Venue is where an event takes place.
type Venue struct {
	Name        string
	Address     string
	City        string
	Region      string
	CountryCode string
}

// Category is a sellable division of an event (RX Men, Teams of 3, 10K).
type Category struct {
	ID          string
	Key         string
	Name        string
	Description string
	TeamSize    TeamSize
	Gender      Gender
	// AgeMin and AgeMax bound athletes' ages in whole years on the event's start date; nil
	// means no bound.
	AgeMin *int
	AgeMax *int
	// Quota is the number of places on sale; nil means unlimited.
	Quota     *int
	BasePrice int64
	Private   bool
	Published bool
	Tiers     []Tier
	// Places are the category's places taken, from registration (not authored).
	Places Places
}

// TeamSize bounds the athletes of one registration.
type TeamSize struct {
	Min int
	Max int
}

// Tier is a price step of a category: it applies while its date window and its count bound
// (each optional) both hold; see ActivePrice.
type Tier struct {
	ID    string
	Key   string
	Name  string
	Price int64
	// From and Until are calendar dates in the event's time zone: the tier applies from 00:00
	// on From (inclusive) to 00:00 on Until (exclusive).
	From  *Date
	Until *Date
	// UpToPlaces makes the tier apply while fewer places than this are taken.
	UpToPlaces *int
}

// FormField is a custom question asked at registration.
type FormField struct {
	ID        string
	Key       string
	Label     string
	Type      FieldType
	Required  bool
	Options   []string
	AppliesTo Scope
	// CategoryKeys limits the field to these categories; empty means every category.
	CategoryKeys []string
}

// Waiver is a text athletes accept; Version grows by one whenever the text changes.
type Waiver struct {
	ID        string
	Key       string
	Title     string
	Text      string
	Required  bool
	ForMinors bool
	Version   int
}

// Sponsor is shown on the event page.
type Sponsor struct {
	ID         string
	Key        string
	Name       string
	LogoURL    string
	WebsiteURL string
}

// Supplement is an extra sold with a registration: a single price, or options with a price each.
type Supplement struct {
	ID          string
	Key         string
	Name        string
	Description string
	Active      bool
	Per         Scope
	// Price is set on single-price supplements, nil on supplements with options.
	Price   *int64
	Options []SupplementOption
}

// HasOptions reports whether the supplement is sold through its options.
func (s Supplement) HasOptions() bool { return s.Price == nil }

// SupplementOption is one choice of a supplement with options.
type SupplementOption struct {
	ID     string
	Key    string
	Name   string
	Price  int64
	Active bool
}

// Promocode is a discount code.
type Promocode struct {
	ID       string
	Key      string
	Code     string
	Discount Adjustment
	// ValidFrom (inclusive) and ValidUntil (exclusive) bound when the code applies; nil means
	// no bound.
	ValidFrom  *time.Time
	ValidUntil *time.Time
	// MaxUses is how many registrations may use the code; nil means no limit.
	MaxUses *int
	// CategoryKeys limits the code to these categories; empty means every category.
	CategoryKeys []string
}

// Fee is a charge added to registrations or orders.
type Fee struct {
	ID     string
	Key    string
	Name   string
	Charge Adjustment
	Per    Scope
}

// Public reports whether the browser surface shows the event: published and not private.
func (e Event) Public() bool { return e.Status == Published && !e.Private }

// Public reports whether the browser surface shows the category: published and not private.
func (c Category) Public() bool { return c.Published && !c.Private }

// PreviewMatches reports, in constant time, whether token is the event's preview token.
func (e Event) PreviewMatches(token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(e.PreviewToken)) == 1
}

// Location returns the event's time zone.
func (e Event) Location() (*time.Location, error) { return Location(e.Timezone) }

// CategoryIDs returns the ids of the categories with the given keys, in the event's order.
func (e Event) CategoryIDs(keys []string) []string {
	out := []string{}
	for _, c := range e.Categories {
		for _, k := range keys {
			if c.Key == k {
				out = append(out, c.ID)
				break
			}
		}
	}
	return out
}
