package domain

import "time"

// Event is what registration reads of a catalog event (services/catalog/contracts; its
// adapter's tests check this type against the contract).
type Event struct {
	ID          string       `json:"id"`
	OrganizerID string       `json:"organizerId"`
	Name        string       `json:"name"`
	Status      string       `json:"status"`
	Private     bool         `json:"private"`
	StartDate   string       `json:"startDate"`
	Currency    string       `json:"currency"`
	Version     int64        `json:"version"`
	Categories  []Category   `json:"categories"`
	FormFields  []FormField  `json:"formFields"`
	Supplements []Supplement `json:"supplements"`
	Waivers     []Waiver     `json:"waivers"`
	// TransfersUntil is when the event stops taking ticket transfers (nil: never).
	TransfersUntil *time.Time `json:"transfersUntil"`
}

// Waiver is a waiver of the event, in its current version.
type Waiver struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Version   int    `json:"version"`
	Required  bool   `json:"required"`
	ForMinors bool   `json:"forMinors"`
}

// Category is a sellable category of an event.
type Category struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	TeamSize  TeamSize `json:"teamSize"`
	Gender    string   `json:"gender"`
	AgeMin    *int     `json:"ageMin"`
	AgeMax    *int     `json:"ageMax"`
	Quota     *int     `json:"quota"`
	Private   bool     `json:"private"`
	Published bool     `json:"published"`
}

// TeamSize bounds the number of athletes of a registration.
type TeamSize struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// Category genders.
const (
	GenderOpen   = "OPEN"
	GenderMale   = "MALE"
	GenderFemale = "FEMALE"
	GenderMixed  = "MIXED"
)

// FormField is a custom field of the event's registration form.
type FormField struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Options     []string `json:"options"`
	AppliesTo   string   `json:"appliesTo"`
	CategoryIDs []string `json:"categoryIds"`
}

// Form field scopes.
const (
	AppliesToAthlete = "ATHLETE"
	AppliesToTeam    = "TEAM"
)

// Supplement is an extra an event sells with a registration.
type Supplement struct {
	ID      string             `json:"id"`
	Name    string             `json:"name"`
	Kind    string             `json:"kind"`
	Active  bool               `json:"active"`
	Options []SupplementOption `json:"options"`
}

// Supplement kinds.
const (
	SupplementSinglePrice = "SINGLE_PRICE"
	SupplementOptions     = "OPTIONS"
)

// SupplementOption is one option of an OPTIONS supplement.
type SupplementOption struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
}

// Category returns the event's category with id.
func (e Event) Category(id string) (Category, bool) {
	for _, c := range e.Categories {
		if c.ID == id {
			return c, true
		}
	}
	return Category{}, false
}

// Public reports whether the browser surface may see the event.
func (e Event) Public() bool { return e.Status == "PUBLISHED" && !e.Private }

// Start returns the event's start date (the day ages are counted on).
func (e Event) Start() (time.Time, bool) {
	t, err := time.Parse(DateLayout, e.StartDate)
	return t, err == nil
}

// DateLayout is the layout of calendar dates.
const DateLayout = "2006-01-02"
