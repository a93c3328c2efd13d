package store

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// loadChildren reads the children of e (categories with tiers and places of the mode, form
// fields, waivers, sponsors, supplements with options, promocodes, fees).
func loadChildren(ctx context.Context, q *db.Queries, e domain.Event, livemode bool) (domain.Event, error) {
	if err := loadCategories(ctx, q, &e, livemode); err != nil {
		return domain.Event{}, err
	}
	fields, err := q.ListFormFields(ctx, e.ID)
	if err != nil {
		return domain.Event{}, fmt.Errorf("list form fields: %w", err)
	}
	for _, f := range fields {
		e.FormFields = append(e.FormFields, domain.FormField{
			ID: f.ID, Key: f.Key, Label: f.Label, Type: domain.FieldType(f.Type), Required: f.Required,
			Options: nonNil(f.Options), AppliesTo: domain.Scope(f.AppliesTo), CategoryKeys: nonNil(f.CategoryKeys),
		})
	}
	waivers, err := q.ListWaivers(ctx, e.ID)
	if err != nil {
		return domain.Event{}, fmt.Errorf("list waivers: %w", err)
	}
	for _, w := range waivers {
		e.Waivers = append(e.Waivers, domain.Waiver{
			ID: w.ID, Key: w.Key, Title: w.Title, Text: w.Body, Required: w.Required, ForMinors: w.ForMinors, Version: int(w.Version),
		})
	}
	sponsors, err := q.ListSponsors(ctx, e.ID)
	if err != nil {
		return domain.Event{}, fmt.Errorf("list sponsors: %w", err)
	}
	for _, s := range sponsors {
		e.Sponsors = append(e.Sponsors, domain.Sponsor{ID: s.ID, Key: s.Key, Name: s.Name, LogoURL: s.LogoUrl, WebsiteURL: s.WebsiteUrl})
	}
	if err := loadSupplements(ctx, q, &e); err != nil {
		return domain.Event{}, err
	}
	if err := loadPromocodesAndFees(ctx, q, &e); err != nil {
		return domain.Event{}, err
	}
	return e, nil
}

// loadCategories reads the categories of e with their tiers and their places of the mode.
func loadCategories(ctx context.Context, q *db.Queries, e *domain.Event, livemode bool) error {
	cats, err := q.ListCategories(ctx, db.ListCategoriesParams{EventID: e.ID, Livemode: livemode})
	if err != nil {
		return fmt.Errorf("list categories: %w", err)
	}
	tiers, err := q.ListTiers(ctx, e.ID)
	if err != nil {
		return fmt.Errorf("list tiers: %w", err)
	}
	byCategory := map[string][]domain.Tier{}
	for _, t := range tiers {
		byCategory[t.CategoryID] = append(byCategory[t.CategoryID], domain.Tier{
			ID: t.ID, Key: t.Key, Name: t.Name, Price: t.Price, From: date(t.FromDate), Until: date(t.UntilDate), UpToPlaces: intp(t.UpToPlaces),
		})
	}
	e.Categories = make([]domain.Category, len(cats))
	for i, c := range cats {
		e.Categories[i] = domain.Category{
			ID: c.ID, Key: c.Key, Name: c.Name, Description: c.Description,
			TeamSize: domain.TeamSize{Min: int(c.TeamMin), Max: int(c.TeamMax)}, Gender: domain.Gender(c.Gender),
			AgeMin: intp(c.AgeMin), AgeMax: intp(c.AgeMax), Quota: intp(c.Quota), BasePrice: c.BasePrice,
			Private: c.Private, Published: c.Published, Tiers: nonNilSlice(byCategory[c.ID]),
			Places: domain.Places{Confirmed: int(c.Confirmed), Held: int(c.Held), Version: c.PlacesVersion},
		}
	}
	return nil
}

func loadSupplements(ctx context.Context, q *db.Queries, e *domain.Event) error {
	sups, err := q.ListSupplements(ctx, e.ID)
	if err != nil {
		return fmt.Errorf("list supplements: %w", err)
	}
	opts, err := q.ListSupplementOptions(ctx, e.ID)
	if err != nil {
		return fmt.Errorf("list supplement options: %w", err)
	}
	bySupplement := map[string][]domain.SupplementOption{}
	for _, o := range opts {
		bySupplement[o.SupplementID] = append(bySupplement[o.SupplementID], domain.SupplementOption{
			ID: o.ID, Key: o.Key, Name: o.Name, Price: o.Price, Active: o.Active,
		})
	}
	e.Supplements = make([]domain.Supplement, len(sups))
	for i, s := range sups {
		e.Supplements[i] = domain.Supplement{
			ID: s.ID, Key: s.Key, Name: s.Name, Description: s.Description, Active: s.Active, Per: domain.Scope(s.Per),
			Price: s.Price, Options: nonNilSlice(bySupplement[s.ID]),
		}
	}
	return nil
}

func loadPromocodesAndFees(ctx context.Context, q *db.Queries, e *domain.Event) error {
	codes, err := q.ListPromocodes(ctx, e.ID)
	if err != nil {
		return fmt.Errorf("list promocodes: %w", err)
	}
	e.Promocodes = make([]domain.Promocode, len(codes))
	for i, c := range codes {
		e.Promocodes[i] = domain.Promocode{
			ID: c.ID, Key: c.Key, Code: c.Code, Discount: adjustment(c.Kind, c.BasisPoints, c.Amount),
			ValidFrom: utc(c.ValidFrom), ValidUntil: utc(c.ValidUntil), MaxUses: intp(c.MaxUses), CategoryKeys: nonNil(c.CategoryKeys),
		}
	}
	fees, err := q.ListFees(ctx, e.ID)
	if err != nil {
		return fmt.Errorf("list fees: %w", err)
	}
	e.Fees = make([]domain.Fee, len(fees))
	for i, f := range fees {
		e.Fees[i] = domain.Fee{ID: f.ID, Key: f.Key, Name: f.Name, Charge: adjustment(f.Kind, f.BasisPoints, f.Amount), Per: domain.Scope(f.Per)}
	}
	return nil
}

// toEvent maps an event row; children are loaded separately.
func toEvent(r db.GetEventRow) domain.Event {
	return domain.Event{
		ID: r.ID, OrganizerID: r.OrganizerID, ExternalID: r.ExternalID, Name: r.Name, Description: r.Description,
		InternalNotes: r.InternalNotes, Status: domain.Status(r.Status), Private: r.Private,
		StartDate: domain.DateOf(r.StartDate), EndDate: domain.DateOf(r.EndDate), Timezone: r.Timezone, Currency: r.Currency,
		Venue: domain.Venue{
			Name: r.VenueName, Address: r.VenueAddress, City: r.VenueCity, Region: r.VenueRegion, CountryCode: r.VenueCountry,
		},
		PreviewToken: r.PreviewToken, Version: r.Version, Fingerprint: r.Fingerprint,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), TransfersUntil: utc(r.TransfersUntil),
		Categories: []domain.Category{}, FormFields: []domain.FormField{}, Waivers: []domain.Waiver{},
		Sponsors: []domain.Sponsor{}, Supplements: []domain.Supplement{}, Promocodes: []domain.Promocode{}, Fees: []domain.Fee{},
	}
}

func adjustment(kind string, bp *int32, amount *int64) domain.Adjustment {
	a := domain.Adjustment{Type: domain.AdjustmentType(kind)}
	if bp != nil {
		a.BasisPoints = int(*bp)
	}
	if amount != nil {
		a.Amount = *amount
	}
	return a
}

func date(t *time.Time) *domain.Date {
	if t == nil {
		return nil
	}
	d := domain.DateOf(*t)
	return &d
}

func intp(v *int32) *int {
	if v == nil {
		return nil
	}
	n := int(*v)
	return &n
}

func int32p(v *int) *int32 {
	if v == nil {
		return nil
	}
	n := clamp32(*v)
	return &n
}

// clamp32 narrows a validated count; values never come near the bounds.
func clamp32(v int) int32 { return int32(max(min(v, math.MaxInt32), math.MinInt32)) } //nolint:gosec // clamped

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func dateTime(d *domain.Date) *time.Time {
	if d == nil {
		return nil
	}
	t := d.UTC()
	return &t
}
