package store_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

func idx(i int) *int { return &i }

// searchFixture stores, for org_1 in evt_1 unless said otherwise:
//
//	Ana López    FEMALE 37 cat_rx    bib 4711, club Crossfit Norte, checked in, size M, days [SAT SUN], notes "Gluten free", sup_tee + sup_meal/opt_veg, amount 0
//	Bruno Díaz   MALE   27 cat_team  team Los Lobos, size S, count 3, vegan, shirt M (athlete 0), amount 9000
//	Carla Pérez  FEMALE 47 cat_team  (same registration as Bruno), shirt S (athlete 1)
//	Dario Fo     MALE   22 cat_rx    PENDING order, size L, notes "", amount 5000
//	Eva Gil      FEMALE 30 cat_women cancelled (delete of a paid registration)
//	Fran Ruiz    MALE   30 cat_rx    evt_2
//	Ana Other    FEMALE 30 cat_rx    org_2 (never visible to org_1)
//
// They are made in that order a second apart from t0 (Ana checked in an hour after), and Eva's is
// cancelled two hours after t0, the instant returned.
func searchFixture(t *testing.T) (*store.Repository, time.Time) {
	repo := store.New(regtest.NewPool(t, 0))
	bib := int64(4711)
	club := "Crossfit Norte"
	put(t, repo, t0, "org_1", "evt_1", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx", Club: &club, Bib: &bib,
		Athletes: []domain.Athlete{athlete("Ana López", "FEMALE", "1990-01-01")}, CheckedInAt: []time.Time{t0.Add(time.Hour)},
		CustomFields:  []domain.CustomFieldValue{{FieldID: "fld_size", Value: "M"}, {FieldID: "fld_days", Value: []any{"SAT", "SUN"}}, {FieldID: "fld_notes", Value: "Gluten free"}},
		SupplementIDs: []string{"sup_tee"}, SupplementSelections: []domain.SupplementSelection{{SupplementID: "sup_meal", OptionID: "opt_veg"}}}, 0)
	put(t, repo, t0.Add(time.Second), "org_1", "evt_1", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_team", TeamName: "Los Lobos",
		Athletes: []domain.Athlete{athlete("Bruno Díaz", "MALE", "2000-01-01"), athlete("Carla Pérez", "FEMALE", "1980-01-01")},
		CustomFields: []domain.CustomFieldValue{{FieldID: "fld_size", Value: "S"}, {FieldID: "fld_count", Value: 3.0}, {FieldID: "fld_vegan", Value: true},
			{FieldID: "fld_shirt", Value: "M", AthleteIndex: idx(0)}, {FieldID: "fld_shirt", Value: "S", AthleteIndex: idx(1)}}}, 9000)
	put(t, repo, t0.Add(2*time.Second), "org_1", "evt_1", domain.OrderPending, domain.RegistrationInput{CategoryID: "cat_rx",
		Athletes: []domain.Athlete{athlete("Dario Fo", "MALE", "2005-01-01")}, CustomFields: []domain.CustomFieldValue{{FieldID: "fld_size", Value: "L"}, {FieldID: "fld_notes", Value: ""}}}, 5000)
	eva := put(t, repo, t0.Add(3*time.Second), "org_1", "evt_1", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_women", Athletes: []domain.Athlete{athlete("Eva Gil", "FEMALE", "1997-01-01")}}, 0)
	put(t, repo, t0.Add(4*time.Second), "org_1", "evt_2", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete("Fran Ruiz", "MALE", "1997-01-01")}}, 0)
	put(t, repo, t0.Add(5*time.Second), "org_2", "evt_9", domain.OrderCompleted, domain.RegistrationInput{CategoryID: "cat_rx", Athletes: []domain.Athlete{athlete("Ana Other", "FEMALE", "1997-01-01")}}, 0)
	cancelledAt := t0.Add(2 * time.Hour)
	if _, err := repo.DeleteRegistration(t.Context(), liveOf("org_1"), eva.Tickets[0].ID, cancelledAt); err != nil {
		t.Fatal(err)
	}
	return repo, cancelledAt
}

func names(rows []domain.SearchRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Ticket.Athlete.Fullname
	}
	return out
}

func search(t *testing.T, repo *store.Repository, org string, r domain.SearchRequest) ([]domain.SearchRow, int) {
	t.Helper()
	q, err := r.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	rows, total, err := repo.Search(t.Context(), liveOf(org), q)
	if err != nil {
		t.Fatalf("search %+v: %v", r, err)
	}
	return rows, total
}

func TestSearchFilters(t *testing.T) {
	repo, cancelledAt := searchFixture(t)
	before, after := cancelledAt.Add(-time.Minute).Format(time.RFC3339Nano), cancelledAt.Add(time.Minute).Format(time.RFC3339Nano)
	at := cancelledAt.Format(time.RFC3339Nano)
	active := []string{"Ana López", "Bruno Díaz", "Carla Pérez", "Dario Fo", "Fran Ruiz"}
	cases := []struct {
		name string
		req  domain.SearchRequest
		want []string
	}{
		{"default: ACTIVE tickets of the organizer", domain.SearchRequest{}, active},
		{"text over the name, accents ignored", domain.SearchRequest{Search: "lopez"}, []string{"Ana López"}},
		{"text over the e-mail", domain.SearchRequest{Search: "bruno díaz@example"}, []string{"Bruno Díaz"}},
		{"text over the id number", domain.SearchRequest{Search: "ID-Carla"}, []string{"Carla Pérez"}},
		{"text over the team", domain.SearchRequest{Search: "lobos"}, []string{"Bruno Díaz", "Carla Pérez"}},
		{"text over the club", domain.SearchRequest{Search: "norte"}, []string{"Ana López"}},
		{"text over the bib", domain.SearchRequest{Search: "4711"}, []string{"Ana López"}},
		{"text with LIKE wildcards is literal", domain.SearchRequest{Search: "%"}, nil},
		{"athleteId", domain.SearchRequest{AthleteID: "ath_none"}, nil},
		{"eventId", domain.SearchRequest{EventID: "evt_2"}, []string{"Fran Ruiz"}},
		{"categoryId", domain.SearchRequest{CategoryID: "cat_team"}, []string{"Bruno Díaz", "Carla Pérez"}},
		{"gender", domain.SearchRequest{Gender: "FEMALE"}, []string{"Ana López", "Carla Pérez"}},
		{"ageMin", domain.SearchRequest{AgeMin: floatp(37)}, []string{"Ana López", "Carla Pérez"}},
		{"ageMax", domain.SearchRequest{AgeMax: floatp(27)}, []string{"Bruno Díaz", "Dario Fo"}},
		{"age range", domain.SearchRequest{AgeMin: floatp(23), AgeMax: floatp(30)}, []string{"Bruno Díaz", "Fran Ruiz"}},
		{"checked in", domain.SearchRequest{CheckIn: "checked-in"}, []string{"Ana López"}},
		{"check-in pending", domain.SearchRequest{CheckIn: "pending"}, []string{"Bruno Díaz", "Carla Pérez", "Dario Fo", "Fran Ruiz"}},
		{"order status", domain.SearchRequest{Status: "PENDING"}, []string{"Dario Fo"}},
		{"ticketStatus CANCELLED", domain.SearchRequest{TicketStatus: "CANCELLED"}, []string{"Eva Gil"}},
		{"ticketStatus ALL", domain.SearchRequest{TicketStatus: "ALL"}, append(slices.Clone(active), "Eva Gil")},
		{"participant data status", domain.SearchRequest{ParticipantDataStatus: "PENDING_PARTICIPANTS"}, nil},
		{"participant data READY", domain.SearchRequest{ParticipantDataStatus: "READY", EventID: "evt_2"}, []string{"Fran Ruiz"}},
		{"cancelled from (inclusive)", domain.SearchRequest{TicketStatus: "ALL", CancelledFrom: []string{at}}, []string{"Eva Gil"}},
		{"cancelled to (exclusive)", domain.SearchRequest{TicketStatus: "ALL", CancelledTo: []string{at}}, nil},
		{"cancelled window, latest from and earliest to apply", domain.SearchRequest{TicketStatus: "ALL", CancelledFrom: []string{"2020-01-01T00:00:00Z", before}, CancelledTo: []string{"2099-01-01T00:00:00Z", after}}, []string{"Eva Gil"}},
		{"custom contains", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_notes", Operator: "contains", Value: "GLUTEN"}}}, []string{"Ana López"}},
		{"custom equals select", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_size", Operator: "equals", Value: "S"}}}, []string{"Bruno Díaz", "Carla Pérez"}},
		{"custom equals number", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_count", Operator: "equals", Value: 3.0}}}, []string{"Bruno Díaz", "Carla Pérez"}},
		{"custom equals boolean", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_vegan", Operator: "equals", Value: true}}}, []string{"Bruno Díaz", "Carla Pérez"}},
		{"custom equals array is exact", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_days", Operator: "equals", Value: []any{"SAT"}}}}, nil},
		{"custom equals whole array", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_days", Operator: "equals", Value: []any{"SAT", "SUN"}}}}, []string{"Ana López"}},
		{"custom has-any over a multiselect", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_days", Operator: "has-any", Value: []any{"SUN", "MON"}}}}, []string{"Ana López"}},
		{"custom has-any over a select", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_size", Operator: "has-any", Value: []any{"M", "L"}}}}, []string{"Ana López", "Dario Fo"}},
		{"custom has-any single value", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_size", Operator: "has-any", Value: "L"}}}, []string{"Dario Fo"}},
		{"athlete-scoped field per ticket", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_shirt", Operator: "equals", Value: "S"}}}, []string{"Carla Pérez"}},
		{"custom is-empty (missing or empty)", domain.SearchRequest{EventID: "evt_1", CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_notes", Operator: "is-empty"}}}, []string{"Bruno Díaz", "Carla Pérez", "Dario Fo"}},
		{"custom is-not-empty", domain.SearchRequest{CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_notes", Operator: "is-not-empty"}}}, []string{"Ana López"}},
		{"supplement chosen", domain.SearchRequest{SupplementFilters: []domain.SupplementFilter{{SupplementID: "sup_tee"}}}, []string{"Ana López"}},
		{"supplement option chosen", domain.SearchRequest{SupplementFilters: []domain.SupplementFilter{{SupplementID: "sup_meal", OptionIDs: []string{"opt_meat", "opt_veg"}}}}, []string{"Ana López"}},
		{"supplement other option", domain.SearchRequest{SupplementFilters: []domain.SupplementFilter{{SupplementID: "sup_meal", OptionIDs: []string{"opt_meat"}}}}, nil},
		{"combined", domain.SearchRequest{Search: "a", EventID: "evt_1", Gender: "MALE", AgeMax: floatp(30), Status: "COMPLETED",
			CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: "fld_size", Operator: "equals", Value: "S"}}}, []string{"Bruno Díaz"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, total := search(t, repo, "org_1", c.req)
			got := names(rows)
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) || total != len(want) {
				t.Fatalf("got %q (total %d), want %q", got, total, want)
			}
		})
	}
	t.Run("ticketId and athleteId", func(t *testing.T) {
		rows, _ := search(t, repo, "org_1", domain.SearchRequest{Search: "carla"})
		tk := rows[0].Ticket
		for _, r := range []domain.SearchRequest{{TicketID: tk.ID}, {AthleteID: tk.AthleteID}, {Search: tk.ID}} {
			if rows, _ := search(t, repo, "org_1", r); len(rows) != 1 || rows[0].Ticket.ID != tk.ID {
				t.Fatalf("%+v found %q", r, names(rows))
			}
		}
		// The text matches a whole ticket id only: the random characters of ids match nothing.
		for _, part := range []string{tk.ID[len(domain.TicketIDPrefix) : len(domain.TicketIDPrefix)+8], domain.TicketIDPrefix, tk.ID[:len(tk.ID)-1]} {
			if rows, _ := search(t, repo, "org_1", domain.SearchRequest{Search: part}); len(rows) != 0 {
				t.Fatalf("text %q (part of a ticket id) found %q", part, names(rows))
			}
		}
		for _, r := range []domain.SearchRequest{{TicketID: tk.ID}, {Search: tk.ID}} {
			if rows, _ := search(t, repo, "org_2", r); len(rows) != 0 {
				t.Fatalf("another organizer found the ticket with %+v", r)
			}
		}
		row := rows[0]
		if row.Registration.TeamName != "Los Lobos" || row.Order.Amount != 9000 || row.Order.Status != domain.OrderCompleted {
			t.Fatalf("row %+v", row)
		}
	})
	t.Run("tenancy", func(t *testing.T) {
		rows, total := search(t, repo, "org_2", domain.SearchRequest{Search: "ana"})
		if total != 1 || names(rows)[0] != "Ana Other" {
			t.Fatalf("org_2 sees %q", names(rows))
		}
	})
}

func TestSearchSortsAndPaging(t *testing.T) {
	repo, _ := searchFixture(t)
	for _, c := range []struct {
		sort string
		want []string
	}{
		{"createdAt-desc", []string{"Fran Ruiz", "Dario Fo", "Carla Pérez", "Bruno Díaz", "Ana López"}},
		{"createdAt-asc", []string{"Ana López", "Bruno Díaz", "Carla Pérez", "Dario Fo", "Fran Ruiz"}},
		{"athlete-asc", []string{"Ana López", "Bruno Díaz", "Carla Pérez", "Dario Fo", "Fran Ruiz"}},
		{"amount-desc", nil}, // checked below: 9000 (two tickets), 5000, then 0
		{"bib-asc", nil},
		{"category-asc", nil},
	} {
		t.Run(c.sort, func(t *testing.T) {
			rows, _ := search(t, repo, "org_1", domain.SearchRequest{SortBy: c.sort})
			got := names(rows)
			switch c.sort {
			case "amount-desc":
				if !slices.Equal(got[:3], []string{"Bruno Díaz", "Carla Pérez", "Dario Fo"}) && !slices.Equal(got[:3], []string{"Carla Pérez", "Bruno Díaz", "Dario Fo"}) {
					t.Fatalf("got %q", got)
				}
			case "bib-asc":
				if got[0] != "Ana López" {
					t.Fatalf("got %q", got)
				}
			case "category-asc": // RX (Ana, Dario, Fran) before Teams
				if !slices.Equal(got[3:], []string{"Bruno Díaz", "Carla Pérez"}) && !slices.Equal(got[3:], []string{"Carla Pérez", "Bruno Díaz"}) {
					t.Fatalf("got %q", got)
				}
			default: // Bruno and Carla share a registration, so their order follows the ticket ids
				swapped := slices.Clone(c.want)
				i := slices.Index(swapped, "Bruno Díaz")
				j := slices.Index(swapped, "Carla Pérez")
				swapped[i], swapped[j] = swapped[j], swapped[i]
				if !slices.Equal(got, c.want) && (c.sort == "athlete-asc" || !slices.Equal(got, swapped)) {
					t.Fatalf("got %q, want %q", got, c.want)
				}
			}
			// Paging walks the same order without repeats.
			var paged []string
			for off := 0; off < 5; off += 2 {
				l, o := float64(2), float64(off)
				rows, total := search(t, repo, "org_1", domain.SearchRequest{SortBy: c.sort, Limit: &l, Offset: &o})
				if total != 5 {
					t.Fatalf("total %d", total)
				}
				paged = append(paged, names(rows)...)
			}
			if !slices.Equal(paged, got) {
				t.Fatalf("pages %q, whole %q", paged, got)
			}
		})
	}
	l, o := float64(10), float64(50)
	rows, total := search(t, repo, "org_1", domain.SearchRequest{Limit: &l, Offset: &o})
	if len(rows) != 0 || total != 5 {
		t.Fatalf("beyond the end: %d rows, total %d", len(rows), total)
	}
}

var placeholder = regexp.MustCompile(`\$(\d+)`)

// FuzzBuildSearch checks that whatever a client sends, the search SQL contains only fixed
// text and placeholders: no client string reaches it, and every placeholder has its value.
func FuzzBuildSearch(f *testing.F) {
	f.Add("ana", "fld_x", "contains", "v'); DROP TABLE tickets; --", "sup_1", "opt_1", "bib-asc", 3)
	f.Add("%_\\", "f", "has-any", "a", "s", "", "amount-desc", 0)
	f.Fuzz(func(t *testing.T, text, field, op, value, sup, opt, sortBy string, n int) {
		marker := "\x00"
		q := domain.SearchQuery{
			Text: text + marker, AthleteID: value + marker, EventID: field + marker, Sort: sortBy, Limit: 20,
			CustomFieldFilters: []domain.CustomFieldFilter{{FieldID: field + marker, Operator: op, Value: value + marker}, {FieldID: field, Operator: "has-any", Value: []any{value, text}}},
			SupplementFilters:  []domain.SupplementFilter{{SupplementID: sup + marker}, {SupplementID: sup, OptionIDs: []string{opt + marker}}},
			AgeMin:             &n,
		}
		for _, op := range []string{"contains", "equals", "has-any", "is-empty", "is-not-empty", op} {
			q.CustomFieldFilters[0].Operator = op
			sql, args, _ := store.BuildSearch(domain.Scope{OrganizerID: "org" + marker, Livemode: true}, q)
			if strings.Contains(sql, marker) {
				t.Fatalf("a client value reached the SQL: %q", sql)
			}
			max := 0
			for _, m := range placeholder.FindAllStringSubmatch(sql, -1) {
				k, _ := strconv.Atoi(m[1])
				max = maxInt(max, k)
			}
			if max != len(args) {
				t.Fatalf("%d placeholders, %d args: %s", max, len(args), sql)
			}
		}
	})
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}
