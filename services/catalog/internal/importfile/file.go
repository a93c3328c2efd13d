package importfile

import (
	"encoding/json"
	"time"
)

// File is an event in the import file's shape. A file holds what the organizer authors; the
// stored parts (ids, preview token, version, times, waiver versions, places, basis points) are
// set only on a stored event (FileOf), the shape in which the admin API serves it, and the
// schema refuses them in a file.
type File struct {
	ID            string       `json:"id"`
	OrganizerID   string       `json:"organizerId"`
	ExternalID    string       `json:"externalId"`
	Name          string       `json:"name"`
	Description   string       `json:"description"`
	InternalNotes string       `json:"internalNotes"`
	Status        string       `json:"status"`
	Private       bool         `json:"private"`
	StartDate     string       `json:"startDate"`
	EndDate       string       `json:"endDate"`
	Timezone      string       `json:"timezone"`
	Currency      string       `json:"currency"`
	Venue         venue        `json:"venue"`
	PreviewToken  string       `json:"previewToken"`
	Version       int64        `json:"version"`
	CreatedAt     time.Time    `json:"createdAt"`
	UpdatedAt     time.Time    `json:"updatedAt"`
	Categories    []category   `json:"categories"`
	FormFields    []formField  `json:"formFields"`
	Waivers       []waiver     `json:"waivers"`
	Sponsors      []sponsor    `json:"sponsors"`
	Supplements   []supplement `json:"supplements"`
	Promocodes    []promocode  `json:"promocodes"`
	Fees          []fee        `json:"fees"`
	// TransfersUntil is a date (00:00 in the event's time zone) or an RFC 3339 date-time.
	TransfersUntil *string `json:"transfersUntil"`
}

type venue struct {
	Name        string `json:"name"`
	Address     string `json:"address"`
	City        string `json:"city"`
	Region      string `json:"region"`
	CountryCode string `json:"countryCode"`
}

// The pointers of the authored parts are the fields a file may leave out for their default.

type category struct {
	ID          string    `json:"id"`
	Key         string    `json:"key"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	TeamSize    *teamSize `json:"teamSize"`
	Gender      string    `json:"gender"`
	AgeMin      *int      `json:"ageMin"`
	AgeMax      *int      `json:"ageMax"`
	Quota       *int      `json:"quota"`
	BasePrice   int64     `json:"basePrice"`
	Private     bool      `json:"private"`
	Published   *bool     `json:"published"`
	Tiers       []tier    `json:"tiers"`
	Confirmed   int       `json:"confirmed"`
	Held        int       `json:"held"`
}

type teamSize struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type tier struct {
	ID         string  `json:"id"`
	Key        string  `json:"key"`
	Name       string  `json:"name"`
	Price      int64   `json:"price"`
	From       *string `json:"from"`
	Until      *string `json:"until"`
	UpToPlaces *int    `json:"upToPlaces"`
}

type formField struct {
	ID         string   `json:"id"`
	Key        string   `json:"key"`
	Label      string   `json:"label"`
	Type       string   `json:"type"`
	Required   bool     `json:"required"`
	Options    []string `json:"options"`
	AppliesTo  string   `json:"appliesTo"`
	Categories []string `json:"categories"`
}

type waiver struct {
	ID        string `json:"id"`
	Key       string `json:"key"`
	Title     string `json:"title"`
	Text      string `json:"text"`
	Required  *bool  `json:"required"`
	ForMinors bool   `json:"forMinors"`
	Version   int    `json:"version"`
}

type sponsor struct {
	ID         string `json:"id"`
	Key        string `json:"key"`
	Name       string `json:"name"`
	LogoURL    string `json:"logoUrl"`
	WebsiteURL string `json:"websiteUrl"`
}

type supplement struct {
	ID          string   `json:"id"`
	Key         string   `json:"key"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Active      *bool    `json:"active"`
	Per         string   `json:"per"`
	Price       *int64   `json:"price"`
	Options     []option `json:"options"`
}

type option struct {
	ID     string `json:"id"`
	Key    string `json:"key"`
	Name   string `json:"name"`
	Price  int64  `json:"price"`
	Active *bool  `json:"active"`
}

type promocode struct {
	ID   string `json:"id"`
	Key  string `json:"key"`
	Code string `json:"code"`
	adjustment
	ValidFrom  *string  `json:"validFrom"`
	ValidUntil *string  `json:"validUntil"`
	MaxUses    *int     `json:"maxUses"`
	Categories []string `json:"categories"`
}

type fee struct {
	ID   string `json:"id"`
	Key  string `json:"key"`
	Name string `json:"name"`
	adjustment
	Per string `json:"per"`
}

// adjustment is a promocode's discount or a fee: a percent (with at most two decimals) or an
// amount; a stored one also gives the percent in basis points.
type adjustment struct {
	Percent     *json.Number `json:"percent"`
	Amount      *int64       `json:"amount"`
	BasisPoints *int         `json:"basisPoints"`
}
