package domain

import (
	"crypto/subtle"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Event status values of the catalog.
const (
	StatusPublished = "PUBLISHED"
)

// Supplement kinds and the unit a supplement is priced per.
const (
	SupplementSinglePrice = "SINGLE_PRICE"
	SupplementOptions     = "OPTIONS"
)

// Promocode and fee types.
const (
	AmountPercent = "PERCENT"
	AmountFixed   = "FIXED"
)

// Event is what checkout needs of a catalog event, priced at the time it was read
// (catalog's GET /internal/events/{id}).
type Event struct {
	ID           string
	OrganizerID  string
	Name         string
	Status       string
	Private      bool
	StartDate    time.Time // midnight UTC of the event's first day
	Currency     string
	PreviewToken string
	Categories   []Category
	Waivers      []Waiver
	Supplements  []Supplement
	Promocodes   []Promocode
	Fees         []Fee
}

// Category is a sellable category of an event.
type Category struct {
	ID          string
	Name        string
	TeamMin     int
	TeamMax     int
	ActivePrice int64
	Private     bool
	Published   bool
}

// Waiver is a document athletes accept; Version grows with each change of its text.
type Waiver struct {
	ID        string
	Title     string
	Version   int64
	Required  bool
	ForMinors bool
}

// Supplement is an extra sold with a registration: a single price or a choice of options,
// charged once per registration or once per athlete.
type Supplement struct {
	ID         string
	Name       string
	Kind       string
	Price      int64
	Active     bool
	PerAthlete bool
	Options    []SupplementOption
}

// SupplementOption is one choice of an OPTIONS supplement.
type SupplementOption struct {
	ID     string
	Name   string
	Price  int64
	Active bool
}

// Promocode is a discount code of an event. Nil bounds are unbounded; no CategoryIDs means
// every category.
type Promocode struct {
	Code        string
	Type        string
	BasisPoints int64
	Amount      int64
	ValidFrom   *time.Time
	ValidUntil  *time.Time
	MaxUses     *int64
	CategoryIDs []string
}

// Fee is charged on top of the discounted price, per registration or once per order.
type Fee struct {
	ID          string
	Name        string
	Type        string
	BasisPoints int64
	Amount      int64
	PerOrder    bool
}

// Category returns the category with id.
func (e *Event) Category(id string) (Category, bool) {
	for _, c := range e.Categories {
		if c.ID == id {
			return c, true
		}
	}
	return Category{}, false
}

// Supplement returns the supplement with id.
func (e *Event) Supplement(id string) (Supplement, bool) {
	for _, s := range e.Supplements {
		if s.ID == id {
			return s, true
		}
	}
	return Supplement{}, false
}

// Promocode returns the promocode with exactly this code.
func (e *Event) Promocode(code string) (Promocode, bool) {
	for _, p := range e.Promocodes {
		if p.Code == code {
			return p, true
		}
	}
	return Promocode{}, false
}

// CheckVisible applies the browser's visibility rule: the event must be PUBLISHED and not
// private, unless previewToken equals the event's preview token, which opens an event of any
// status or privacy. Anything else is reported as not found, so a browser learns nothing of
// events it may not see.
func (e *Event) CheckVisible(previewToken string) error {
	if previewToken != "" && e.PreviewToken != "" && subtle.ConstantTimeCompare([]byte(previewToken), []byte(e.PreviewToken)) == 1 {
		return nil
	}
	if e.Status != StatusPublished || e.Private {
		return fault.NewNotFound("event " + e.ID)
	}
	return nil
}

// VisibleCategory returns the category with id when a browser may buy it: published and not
// private (a preview token never opens a category).
func (e *Event) VisibleCategory(id string) (Category, error) {
	c, ok := e.Category(id)
	if !ok || !c.Published || c.Private {
		return Category{}, fault.NewNotFound("category " + id)
	}
	return c, nil
}
