package domain

// What each surface shows of an event:
//   - the organizer surface: everything the organizer authored, categories private and
//     unpublished included, but only active supplements and active options;
//   - the browser surface: published, non-private events only (or any event with its preview
//     token; a test key also sees the organizer's non-private events of every status), and of those only published, non-private categories, the form fields that apply
//     to one of them, active supplements and options, no promocodes, fees or internal notes;
//   - the internal API: everything, inactive supplements and options included.

// ActiveSupplements returns the active supplements with their active options; a supplement
// with options of which none is active is left out.
func (e Event) ActiveSupplements() []Supplement {
	out := []Supplement{}
	for _, s := range e.Supplements {
		if !s.Active {
			continue
		}
		if s.HasOptions() {
			opts := []SupplementOption{}
			for _, o := range s.Options {
				if o.Active {
					opts = append(opts, o)
				}
			}
			if len(opts) == 0 {
				continue
			}
			s.Options = opts
		}
		out = append(out, s)
	}
	return out
}

// BrowserVisible reports whether the browser surface shows e in scope: with previewToken set,
// when it is e's preview token; otherwise when e is public or, in a test scope, not private
// whatever its status (a test key previews drafts; a live key never does).
func (e Event) BrowserVisible(scope OrganizerScope, previewToken string) bool {
	if previewToken != "" {
		return e.PreviewMatches(previewToken)
	}
	return e.Public() || !scope.Livemode() && !e.Private
}

// PublicView returns the public subset of e shown on the browser surface.
func (e Event) PublicView() Event {
	pub := Event{
		ID: e.ID, OrganizerID: e.OrganizerID, Name: e.Name, Description: e.Description, Status: e.Status,
		StartDate: e.StartDate, EndDate: e.EndDate, Timezone: e.Timezone, Currency: e.Currency, Venue: e.Venue,
		Categories: []Category{}, FormFields: []FormField{}, Waivers: e.Waivers, Sponsors: e.Sponsors,
		Supplements: e.ActiveSupplements(), Promocodes: []Promocode{}, Fees: []Fee{},
	}
	public := map[string]bool{}
	for _, c := range e.Categories {
		if c.Public() {
			pub.Categories = append(pub.Categories, c)
			public[c.Key] = true
		}
	}
	for _, f := range e.FormFields {
		if len(f.CategoryKeys) == 0 {
			pub.FormFields = append(pub.FormFields, f)
			continue
		}
		keys := []string{}
		for _, k := range f.CategoryKeys {
			if public[k] {
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			f.CategoryKeys = keys
			pub.FormFields = append(pub.FormFields, f)
		}
	}
	return pub
}
