package store

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/services/catalog/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// store writes e: its row (inserted when created) and, replacing the previous ones, its
// children, keeping every id e carries. Waiver versions not stored yet are added to the
// history.
func store(ctx context.Context, q *db.Queries, e domain.Event, created bool) error {
	if err := storeEvent(ctx, q, e, created); err != nil {
		return err
	}
	for name, del := range map[string]func(context.Context, string) error{
		"categories": q.DeleteCategories, "form fields": q.DeleteFormFields, "waivers": q.DeleteWaivers,
		"sponsors": q.DeleteSponsors, "supplements": q.DeleteSupplements, "promocodes": q.DeletePromocodes, "fees": q.DeleteFees,
	} {
		if err := del(ctx, e.ID); err != nil {
			return fmt.Errorf("delete %s: %w", name, err)
		}
	}
	for _, step := range []func(context.Context, *db.Queries, domain.Event) error{
		storeCategories, storeFormFields, storeWaivers, storeSponsors, storeSupplements, storePromocodes, storeFees,
	} {
		if err := step(ctx, q, e); err != nil {
			return err
		}
	}
	return nil
}

func storeEvent(ctx context.Context, q *db.Queries, e domain.Event, created bool) error {
	if created {
		err := q.InsertEvent(ctx, db.InsertEventParams{
			ID: e.ID, OrganizerID: e.OrganizerID, ExternalID: e.ExternalID, Name: e.Name, Description: e.Description,
			InternalNotes: e.InternalNotes, Status: string(e.Status), Private: e.Private,
			StartDate: e.StartDate.UTC(), EndDate: e.EndDate.UTC(), Timezone: e.Timezone, Currency: e.Currency,
			VenueName: e.Venue.Name, VenueAddress: e.Venue.Address, VenueCity: e.Venue.City, VenueRegion: e.Venue.Region,
			VenueCountry: e.Venue.CountryCode, PreviewToken: e.PreviewToken, Version: e.Version, Fingerprint: e.Fingerprint,
			CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, TransfersUntil: e.TransfersUntil,
		})
		if err != nil {
			return fmt.Errorf("insert event: %w", err)
		}
		return nil
	}
	err := q.UpdateEvent(ctx, db.UpdateEventParams{
		ID: e.ID, Name: e.Name, Description: e.Description, InternalNotes: e.InternalNotes, Status: string(e.Status),
		Private: e.Private, StartDate: e.StartDate.UTC(), EndDate: e.EndDate.UTC(), Timezone: e.Timezone, Currency: e.Currency,
		VenueName: e.Venue.Name, VenueAddress: e.Venue.Address, VenueCity: e.Venue.City, VenueRegion: e.Venue.Region,
		VenueCountry: e.Venue.CountryCode, Version: e.Version, Fingerprint: e.Fingerprint, UpdatedAt: e.UpdatedAt,
		TransfersUntil: e.TransfersUntil,
	})
	if err != nil {
		return fmt.Errorf("update event: %w", err)
	}
	return nil
}

func storeCategories(ctx context.Context, q *db.Queries, e domain.Event) error {
	for i, c := range e.Categories {
		err := q.InsertCategory(ctx, db.InsertCategoryParams{
			ID: c.ID, EventID: e.ID, Key: c.Key, Position: clamp32(i), Name: c.Name, Description: c.Description,
			TeamMin: clamp32(c.TeamSize.Min), TeamMax: clamp32(c.TeamSize.Max), Gender: string(c.Gender),
			AgeMin: int32p(c.AgeMin), AgeMax: int32p(c.AgeMax), Quota: int32p(c.Quota), BasePrice: c.BasePrice,
			Private: c.Private, Published: c.Published,
		})
		if err != nil {
			return fmt.Errorf("insert category %s: %w", c.Key, err)
		}
		for j, t := range c.Tiers {
			err := q.InsertTier(ctx, db.InsertTierParams{
				ID: t.ID, CategoryID: c.ID, EventID: e.ID, Key: t.Key, Position: clamp32(j), Name: t.Name, Price: t.Price,
				FromDate: dateTime(t.From), UntilDate: dateTime(t.Until), UpToPlaces: int32p(t.UpToPlaces),
			})
			if err != nil {
				return fmt.Errorf("insert tier %s.%s: %w", c.Key, t.Key, err)
			}
		}
	}
	return nil
}

func storeFormFields(ctx context.Context, q *db.Queries, e domain.Event) error {
	for i, f := range e.FormFields {
		err := q.InsertFormField(ctx, db.InsertFormFieldParams{
			ID: f.ID, EventID: e.ID, Key: f.Key, Position: clamp32(i), Label: f.Label, Type: string(f.Type), Required: f.Required,
			Options: nonNil(f.Options), AppliesTo: string(f.AppliesTo), CategoryKeys: nonNil(f.CategoryKeys),
		})
		if err != nil {
			return fmt.Errorf("insert form field %s: %w", f.Key, err)
		}
	}
	return nil
}

func storeWaivers(ctx context.Context, q *db.Queries, e domain.Event) error {
	for i, w := range e.Waivers {
		err := q.InsertWaiver(ctx, db.InsertWaiverParams{
			ID: w.ID, EventID: e.ID, Key: w.Key, Position: clamp32(i), Title: w.Title, Body: w.Text,
			Required: w.Required, ForMinors: w.ForMinors, Version: clamp32(w.Version),
		})
		if err != nil {
			return fmt.Errorf("insert waiver %s: %w", w.Key, err)
		}
		err = q.InsertWaiverVersion(ctx, db.InsertWaiverVersionParams{
			WaiverID: w.ID, Version: clamp32(w.Version), EventID: e.ID, Title: w.Title, Body: w.Text, CreatedAt: e.UpdatedAt,
		})
		if err != nil {
			return fmt.Errorf("insert waiver version %s: %w", w.Key, err)
		}
	}
	return nil
}

func storeSponsors(ctx context.Context, q *db.Queries, e domain.Event) error {
	for i, s := range e.Sponsors {
		err := q.InsertSponsor(ctx, db.InsertSponsorParams{
			ID: s.ID, EventID: e.ID, Key: s.Key, Position: clamp32(i), Name: s.Name, LogoUrl: s.LogoURL, WebsiteUrl: s.WebsiteURL,
		})
		if err != nil {
			return fmt.Errorf("insert sponsor %s: %w", s.Key, err)
		}
	}
	return nil
}

func storeSupplements(ctx context.Context, q *db.Queries, e domain.Event) error {
	for i, s := range e.Supplements {
		err := q.InsertSupplement(ctx, db.InsertSupplementParams{
			ID: s.ID, EventID: e.ID, Key: s.Key, Position: clamp32(i), Name: s.Name, Description: s.Description,
			Active: s.Active, Per: string(s.Per), Price: s.Price,
		})
		if err != nil {
			return fmt.Errorf("insert supplement %s: %w", s.Key, err)
		}
		for j, o := range s.Options {
			err := q.InsertSupplementOption(ctx, db.InsertSupplementOptionParams{
				ID: o.ID, SupplementID: s.ID, EventID: e.ID, Key: o.Key, Position: clamp32(j), Name: o.Name, Price: o.Price, Active: o.Active,
			})
			if err != nil {
				return fmt.Errorf("insert supplement option %s.%s: %w", s.Key, o.Key, err)
			}
		}
	}
	return nil
}

func storePromocodes(ctx context.Context, q *db.Queries, e domain.Event) error {
	for i, c := range e.Promocodes {
		bp, amount := adjustmentColumns(c.Discount)
		err := q.InsertPromocode(ctx, db.InsertPromocodeParams{
			ID: c.ID, EventID: e.ID, Key: c.Key, Position: clamp32(i), Code: c.Code, Kind: string(c.Discount.Type),
			BasisPoints: bp, Amount: amount, ValidFrom: c.ValidFrom, ValidUntil: c.ValidUntil,
			MaxUses: int32p(c.MaxUses), CategoryKeys: nonNil(c.CategoryKeys),
		})
		if err != nil {
			return fmt.Errorf("insert promocode %s: %w", c.Key, err)
		}
	}
	return nil
}

func storeFees(ctx context.Context, q *db.Queries, e domain.Event) error {
	for i, f := range e.Fees {
		bp, amount := adjustmentColumns(f.Charge)
		err := q.InsertFee(ctx, db.InsertFeeParams{
			ID: f.ID, EventID: e.ID, Key: f.Key, Position: clamp32(i), Name: f.Name, Kind: string(f.Charge.Type),
			BasisPoints: bp, Amount: amount, Per: string(f.Per),
		})
		if err != nil {
			return fmt.Errorf("insert fee %s: %w", f.Key, err)
		}
	}
	return nil
}

// adjustmentColumns stores basis points for PERCENT and an amount for FIXED, the other null.
func adjustmentColumns(a domain.Adjustment) (*int32, *int64) {
	if a.Type == domain.Percent {
		bp := clamp32(a.BasisPoints)
		return &bp, nil
	}
	amount := a.Amount
	return nil, &amount
}
