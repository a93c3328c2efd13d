package regtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	catalogcontracts "github.com/podiumhq/podium/services/catalog/contracts"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Catalog is an HTTP double of the catalog's internal API: GET /internal/events/{id}
// answers the stored event to its organizer and 404 otherwise, and refuses requests without a
// valid identity token from registration that names an organizer. The event is served as a
// document of the catalog's contract: its example with the event's values (what registration
// does not read keeps the example's).
type Catalog struct {
	URL    string
	mu     sync.Mutex
	events map[string]domain.Event
	// Calls counts event reads.
	Calls atomic.Int64
	// Fail makes every call answer 503.
	Fail atomic.Bool
}

// catalogEvent is the catalog's answer to GET /internal/events/{eventId}.
var catalogEvent = func() *contracttest.Response {
	op, _ := contracttest.MustParse(catalogcontracts.Internal).Match(http.MethodGet, "/internal/events/x")
	return op.Responses[http.StatusOK]
}()

// StartCatalog starts the double until the test ends.
func StartCatalog(t testing.TB, v *identity.Verifier) *Catalog {
	c := &Catalog{events: map[string]domain.Event{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.Calls.Add(1)
		p, err := v.Verify(r.Header.Get(identity.Header))
		switch {
		case err != nil:
			writeError(w, http.StatusUnauthorized, "the internal identity token is invalid or expired")
			return
		case p.Issuer != identity.Registration || p.OrganizerID == "":
			writeError(w, http.StatusForbidden, "this route does not accept this caller")
			return
		case c.Fail.Load():
			writeError(w, http.StatusServiceUnavailable, "unavailable")
			return
		}
		id, ok := strings.CutPrefix(r.URL.Path, "/internal/events/")
		c.mu.Lock()
		e, found := c.events[id]
		c.mu.Unlock()
		if !ok || !found || p.OrganizerID != e.OrganizerID {
			writeError(w, http.StatusNotFound, fmt.Sprintf("event %s not found", id))
			return
		}
		body, err := catalogEvent.Document(e)
		if err != nil {
			t.Error(err)
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"statusCode": status, "message": msg, "error": http.StatusText(status), "requestId": "req_x"})
}

// Put stores (or replaces) an event.
func (c *Catalog) Put(e domain.Event) {
	c.mu.Lock()
	c.events[e.ID] = e
	c.mu.Unlock()
}

func intp(v int) *int { return &v }

// Event returns a published event of org with these categories: cat_rx (individual, quota
// 50, age 18+), cat_team (teams of 2-3, MIXED, quota 10), cat_women (FEMALE, teams of 1,
// unlimited), cat_masters (age 40-120, quota 5, private and unpublished); form fields
// fld_size (required select, TEAM), fld_notes (text), fld_count (number), fld_vegan (boolean),
// fld_days (multiselect), fld_arrival (date), fld_shirt (ATHLETE select, required, only
// cat_team); supplements sup_tee (single price), sup_meal (options opt_veg, opt_meat,
// opt_old inactive), sup_old (inactive).
func Event(id, org string) domain.Event {
	return domain.Event{
		ID: id, OrganizerID: org, Name: "Summer Throwdown", Status: "PUBLISHED", StartDate: "2027-06-12", Currency: "EUR",
		Categories: []domain.Category{
			{ID: "cat_rx", Name: "RX", TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderOpen, AgeMin: intp(18), Quota: intp(50), Published: true},
			{ID: "cat_team", Name: "Teams", TeamSize: domain.TeamSize{Min: 2, Max: 3}, Gender: domain.GenderMixed, Quota: intp(10), Published: true},
			{ID: "cat_women", Name: "Women", TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderFemale, Published: true},
			{ID: "cat_masters", Name: "Masters", TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderOpen, AgeMin: intp(40), AgeMax: intp(120), Quota: intp(5), Private: true},
		},
		FormFields: []domain.FormField{
			{ID: "fld_size", Label: "Box size", Type: domain.FieldSelect, Required: true, Options: []string{"S", "M", "L"}, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_notes", Label: "Notes", Type: domain.FieldText, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_count", Label: "Count", Type: domain.FieldNumber, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_vegan", Label: "Vegan", Type: domain.FieldBoolean, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_days", Label: "Days", Type: domain.FieldMultiselect, Options: []string{"SAT", "SUN"}, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_arrival", Label: "Arrival", Type: domain.FieldDate, AppliesTo: domain.AppliesToTeam},
			{ID: "fld_shirt", Label: "Shirt", Type: domain.FieldSelect, Required: true, Options: []string{"S", "M"}, AppliesTo: domain.AppliesToAthlete, CategoryIDs: []string{"cat_team"}},
		},
		Supplements: []domain.Supplement{
			{ID: "sup_tee", Name: "Tee", Kind: domain.SupplementSinglePrice, Active: true},
			{ID: "sup_meal", Name: "Meal", Kind: domain.SupplementOptions, Active: true, Options: []domain.SupplementOption{
				{ID: "opt_veg", Name: "Veg", Active: true}, {ID: "opt_meat", Name: "Meat", Active: true}, {ID: "opt_old", Name: "Old", Active: false}}},
			{ID: "sup_old", Name: "Old", Kind: domain.SupplementSinglePrice, Active: false},
		},
		Waivers: []domain.Waiver{
			{ID: "wvr_liability", Title: "Liability", Version: 2, Required: true},
			{ID: "wvr_minors", Title: "Parental consent", Version: 1, Required: true, ForMinors: true},
			{ID: "wvr_photos", Title: "Photos", Version: 1},
		},
	}
}
