package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// builder assembles a parameterised WHERE clause: every value a client sends becomes a
// positional parameter; only fixed SQL text comes from the code.
type builder struct {
	conds []string
	args  []any
}

// arg adds a parameter and returns its placeholder.
func (b *builder) arg(v any) string {
	b.args = append(b.args, v)
	return "$" + strconv.Itoa(len(b.args))
}

func (b *builder) where(cond string) { b.conds = append(b.conds, cond) }

// searchColumns are the ticket columns a search row needs.
const searchColumns = `t.id, t.athlete_id, t.registration_id, t.order_id, t.position, t.status, t.cancelled_at,
t.fullname, t.id_number, t.email, t.phone, t.gender, t.birth_date, t.age, t.created_at, t.updated_at, t.scanned_at,
t.pending_waivers, t.transfers, t.signed_waivers`

// sortOrders are the ORDER BY clauses of each sort, each ending with a unique tiebreak.
var sortOrders = map[string]string{
	domain.SortCreatedDesc: "t.created_at DESC, t.id DESC",
	domain.SortCreatedAsc:  "t.created_at ASC, t.id ASC",
	domain.SortAthleteAsc:  "t.fullname ASC, t.id ASC",
	domain.SortAmountDesc:  "t.order_amount DESC, t.id ASC",
	domain.SortBibAsc:      "t.bib ASC NULLS LAST, t.id ASC",
	domain.SortCategoryAsc: "t.category_name ASC, t.category_id ASC, t.id ASC",
}

// BuildSearch returns the SQL of one page of the search and its parameters, and whether the
// rows carry the total (a window count). With free text, every match is read through the
// trigram index anyway, so one query counts them too. Without text, a page read in index
// order stops after limit rows, and the total is counted by a second query (buildCount) only
// when the page does not tell it.
func BuildSearch(s domain.Scope, q domain.SearchQuery) (sql string, args []any, counted bool) {
	b := &builder{}
	b.where("t.organizer_id = " + b.arg(s.OrganizerID))
	b.where("t.livemode = " + b.arg(s.Livemode))
	filters(b, q)
	order, ok := sortOrders[q.Sort]
	if !ok {
		order = sortOrders[domain.SortCreatedDesc]
	}
	counted = q.Text != ""
	total := ""
	if counted {
		total = ", count(*) OVER ()"
	}
	sql = "SELECT " + searchColumns + total + " FROM tickets t WHERE " +
		strings.Join(b.conds, " AND ") + " ORDER BY " + order +
		" LIMIT " + b.arg(q.Limit) + " OFFSET " + b.arg(q.Offset)
	return sql, b.args, counted
}

// buildCount returns the count of the search's matches.
func buildCount(s domain.Scope, q domain.SearchQuery) (string, []any) {
	b := &builder{}
	b.where("t.organizer_id = " + b.arg(s.OrganizerID))
	b.where("t.livemode = " + b.arg(s.Livemode))
	filters(b, q)
	return "SELECT count(*) FROM tickets t WHERE " + strings.Join(b.conds, " AND "), b.args
}

func filters(b *builder, q domain.SearchQuery) {
	if q.Text != "" {
		// Texts of three characters or more are served by the trigram index; shorter ones
		// have no trigram, and the index would have to be read whole, so they are matched
		// with strpos (not indexable) on the rows the other conditions select.
		var text string
		if utf8.RuneCountInString(strings.TrimSpace(q.Text)) < 3 {
			text = "strpos(t.search_doc, reg_fold(" + b.arg(q.Text) + "::text)) > 0"
		} else {
			text = "t.search_doc LIKE '%' || reg_fold(" + b.arg(escapeLike(q.Text)) + "::text) || '%'"
		}
		// A number also matches the bib exactly, and a whole ticket id its ticket (the search
		// document leaves the random ids out).
		whole := strings.TrimSpace(q.Text)
		if n, err := strconv.ParseInt(whole, 10, 64); err == nil {
			text = "(" + text + " OR t.bib = " + b.arg(n) + ")"
		} else if strings.HasPrefix(whole, domain.TicketIDPrefix) {
			text = "(" + text + " OR t.id = " + b.arg(whole) + ")"
		}
		b.where(text)
	}
	equal := []struct{ col, v string }{
		{"t.athlete_id", q.AthleteID}, {"t.event_id", q.EventID}, {"t.id", q.TicketID},
		{"t.category_id", q.CategoryID}, {"t.gender", q.Gender}, {"t.order_status", q.OrderStatus},
		{"t.participant_status", q.ParticipantStatus},
	}
	for _, e := range equal {
		if e.v != "" {
			b.where(e.col + " = " + b.arg(e.v))
		}
	}
	if q.TicketStatus != "" && q.TicketStatus != domain.TicketStatusAll {
		b.where("t.status = " + b.arg(q.TicketStatus))
	}
	if q.AgeMin != nil {
		b.where("t.age >= " + b.arg(*q.AgeMin))
	}
	if q.AgeMax != nil {
		b.where("t.age <= " + b.arg(*q.AgeMax))
	}
	switch q.CheckIn {
	case domain.CheckInCheckedIn:
		b.where("t.checked_in")
	case domain.CheckInPending:
		b.where("NOT t.checked_in")
	}
	if q.CancelledFrom != nil {
		b.where("t.cancelled_at >= " + b.arg(*q.CancelledFrom))
	}
	if q.CancelledTo != nil {
		b.where("t.cancelled_at < " + b.arg(*q.CancelledTo))
	}
	for _, f := range q.CustomFieldFilters {
		customFilter(b, f)
	}
	for _, f := range q.SupplementFilters {
		if len(f.OptionIDs) == 0 {
			b.where("t.supplement_keys @> ARRAY[" + b.arg(f.SupplementID) + "::text]")
			continue
		}
		keys := make([]string, len(f.OptionIDs))
		for i, o := range f.OptionIDs {
			keys[i] = f.SupplementID + "/" + o
		}
		b.where("t.supplement_keys && " + b.arg(keys) + "::text[]")
	}
}

// customFilter adds one custom field condition over the ticket's custom_values map.
func customFilter(b *builder, f domain.CustomFieldFilter) {
	field := b.arg(f.FieldID)
	value := "(t.custom_values -> " + field + "::text)"
	empty := value + " IS NULL OR " + value + " IN ('null'::jsonb, '\"\"'::jsonb, '[]'::jsonb)"
	switch f.Operator {
	case domain.OpContains:
		s, _ := f.Value.(string)
		b.where("(t.custom_values ->> " + field + "::text) ILIKE '%' || " + b.arg(escapeLike(s)) + "::text || '%'")
	case domain.OpEquals:
		v := jsonArg(f.Value)
		// @> lets the GIN index find candidates; the equality makes arrays match exactly.
		b.where("t.custom_values @> jsonb_build_object(" + field + "::text, " + b.arg(v) + "::jsonb) AND " +
			value + " = " + b.arg(v) + "::jsonb")
	case domain.OpHasAny:
		var terms []string
		for _, item := range anyItems(f.Value) {
			one := jsonArg(item)
			many := jsonArg([]any{item})
			terms = append(terms,
				"t.custom_values @> jsonb_build_object("+field+"::text, "+b.arg(one)+"::jsonb)",
				"t.custom_values @> jsonb_build_object("+field+"::text, "+b.arg(many)+"::jsonb)")
		}
		if len(terms) == 0 {
			b.where("false")
			return
		}
		b.where("(" + strings.Join(terms, " OR ") + ")")
	case domain.OpIsEmpty:
		b.where("(" + empty + ")")
	case domain.OpIsNotEmpty:
		b.where("NOT (" + empty + ")")
	}
}

// anyItems returns the values of a has-any filter: the array's items, or the single value.
func anyItems(v any) []any {
	if arr, ok := v.([]any); ok {
		return arr
	}
	if v == nil {
		return nil
	}
	return []any{v}
}

func jsonArg(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// escapeLike makes s match literally inside a LIKE pattern (backslash is the escape).
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Search runs the search and loads the page's registrations and orders.
func (r *Repository) Search(ctx context.Context, s domain.Scope, q domain.SearchQuery) ([]domain.SearchRow, int, error) {
	sql, args, counted := BuildSearch(s, q)
	rows, err := r.conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	type hit struct {
		t     db.TicketsByRegistrationsRow
		order string
		total int64
		regID string
	}
	hits, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hit, error) {
		var h hit
		dest := []any{&h.t.ID, &h.t.AthleteID, &h.t.RegistrationID, &h.order, &h.t.Position, &h.t.Status, &h.t.CancelledAt,
			&h.t.Fullname, &h.t.IDNumber, &h.t.Email, &h.t.Phone, &h.t.Gender, &h.t.BirthDate, &h.t.Age,
			&h.t.CreatedAt, &h.t.UpdatedAt, &h.t.ScannedAt, &h.t.PendingWaivers, &h.t.Transfers, &h.t.SignedWaivers}
		if counted {
			dest = append(dest, &h.total)
		}
		err := row.Scan(dest...)
		h.regID = h.t.RegistrationID
		return h, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	total := q.Offset + len(hits)
	switch {
	case counted && len(hits) > 0:
		total = int(hits[0].total)
	case len(hits) == q.Limit && !counted, len(hits) == 0 && q.Offset > 0:
		csql, cargs := buildCount(s, q)
		if err := r.conn.QueryRow(ctx, csql, cargs...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("search count: %w", err)
		}
	}
	if len(hits) == 0 {
		return []domain.SearchRow{}, total, nil
	}
	regIDs, orderIDs := make([]string, 0, len(hits)), make([]string, 0, len(hits))
	for _, h := range hits {
		regIDs, orderIDs = append(regIDs, h.regID), append(orderIDs, h.order)
	}
	regs, err := r.q.GetRegistrations(ctx, regIDs)
	if err != nil {
		return nil, 0, fmt.Errorf("search registrations: %w", err)
	}
	orders, err := r.q.GetOrders(ctx, orderIDs)
	if err != nil {
		return nil, 0, fmt.Errorf("search orders: %w", err)
	}
	regByID, orderByID := map[string]domain.Registration{}, map[string]domain.Order{}
	for _, row := range regs {
		reg, err := toRegistration(row)
		if err != nil {
			return nil, 0, err
		}
		regByID[reg.ID] = reg
	}
	for _, row := range orders {
		orderByID[row.ID] = toOrder(row)
	}
	out := make([]domain.SearchRow, len(hits))
	for i, h := range hits {
		t, err := toTicket(h.t)
		if err != nil {
			return nil, 0, err
		}
		out[i] = domain.SearchRow{Ticket: t, Registration: regByID[h.regID], Order: orderByID[h.order]}
	}
	return out, total, nil
}
