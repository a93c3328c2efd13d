package contracttest_test

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/contracttest"
)

func orders(t *testing.T) *contracttest.API {
	t.Helper()
	doc, err := os.ReadFile("testdata/orders.openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return contracttest.Load(t, doc)
}

type line struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// order is what a well-behaved caller reads.
type order struct {
	ID     string     `json:"id"`
	Total  int64      `json:"total"`
	PaidAt *time.Time `json:"paidAt"`
	Note   *string    `json:"note"`
	Lines  []line     `json:"lines"`
}

func TestParseRefusesBrokenContracts(t *testing.T) {
	doc, err := os.ReadFile("testdata/orders.openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ old, new, want string }{
		"an example its schema refuses":          {"total: 1500", "total: fifteen", "example"},
		"an example with an undocumented member": {"id: ord_1, total", "id: ord_1, extra: 1, total", "does not describe: [extra]"},
		"no example":                             {"            example: {email: ana@example.com}\n", "", "no example"},
		"no operation id":                        {"operationId: getOrder", "summary: x", "no operationId"},
		"OpenAPI 3.0":                            {"openapi: 3.1.0", "openapi: 3.0.3", "want 3.1.x"},
		"a status that is not one":               {`"404"`, `"4XX"`, "not a status code"},
	} {
		broken := strings.Replace(string(doc), c.old, c.new, 1)
		if broken == string(doc) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if _, err := contracttest.Parse([]byte(broken)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}

func TestMatchPrefersLiteralSegments(t *testing.T) {
	a := orders(t)
	for _, c := range []struct{ method, path, want string }{
		{"GET", "/internal/orders/ord_1", "getOrder"},
		{"POST", "/internal/orders/search", "searchOrders"},
		{"GET", "/internal/orders/search", "getOrder"},
		{"GET", "/internal/orders/", ""},
		{"DELETE", "/internal/orders/ord_1", ""},
	} {
		o, ok := a.Match(c.method, c.path)
		if got := ""; ok {
			got = o.ID
			if got != c.want {
				t.Errorf("%s %s matched %s, want %q", c.method, c.path, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("%s %s matched nothing, want %s", c.method, c.path, c.want)
		}
	}
}

// recorder keeps what a check reports instead of failing the test.
type recorder struct {
	*testing.T
	errors []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Error(args ...any)         { r.errors = append(r.errors, fmt.Sprint(args...)) }
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, fmt.Sprintf(f, a...)) }

func TestServedChecksTheOwnersAnswers(t *testing.T) {
	a := orders(t)
	for _, c := range []struct {
		name, method, path string
		status             int
		body               string
		want               string // "" when the answer keeps the contract
	}{
		{"a documented body", "GET", "/internal/orders/ord_1?x=1", 200, `{"id":"ord_1","total":1,"paidAt":"2027-01-01T00:00:00Z","lines":[]}`, ""},
		{"an error the operation documents", "GET", "/internal/orders/ord_2", 404, `{"message":"not found"}`, ""},
		{"a status it does not", "GET", "/internal/orders/ord_2", 409, `{}`, "a status its contract does not give"},
		{"a member missing", "GET", "/internal/orders/ord_1", 200, `{"id":"ord_1","total":1,"lines":[]}`, "paidAt"},
		{"a wrong type", "GET", "/internal/orders/ord_1", 200, `{"id":"ord_1","total":"1","paidAt":null,"lines":[]}`, "/total"},
		{"a member deep inside it does not describe", "GET", "/internal/orders/ord_1", 200,
			`{"id":"ord_1","total":1,"paidAt":null,"lines":[{"sku":"tee","quantity":1,"colour":"red"}]}`, "[lines[0].colour]"},
		{"a route it does not have", "GET", "/internal/refunds/r_1", 200, `{}`, "no operation of the contract serves it"},
	} {
		rec := &recorder{T: t}
		a.Served(rec, c.method, c.path, c.status, []byte(c.body))
		switch {
		case c.want == "" && len(rec.errors) > 0:
			t.Errorf("%s: %v", c.name, rec.errors)
		case c.want != "" && (len(rec.errors) != 1 || !strings.Contains(rec.errors[0], c.want)):
			t.Errorf("%s: %v, want one problem saying %q", c.name, rec.errors, c.want)
		}
	}
	if got := a.Unexercised(); !slices.Equal(got, []string{"searchOrders"}) {
		t.Fatalf("unexercised %v, want [searchOrders]", got)
	}
}

func TestReadProblems(t *testing.T) {
	a := orders(t)
	get := a.Operation(t, "getOrder")
	get.CheckReads(t, 200, order{})
	schema := get.Response(t, 200).Schema
	type badLine struct {
		SKU   int     `json:"sku"`
		Price float64 `json:"price"`
	}
	type bad struct {
		Total  float64   `json:"total"`        // fine: an integer fits a float
		PaidAt time.Time `json:"paidAt"`       // may be null
		Note   string    `json:"note"`         // optional
		Lines  []badLine `json:"lines"`        // sku is a string; price is not there
		ID     int64     `json:"id,omitempty"` // a string
		Skip   string    `json:"-"`            // never read
	}
	want := []string{
		"paidAt may be null in the contract; the caller reads it as time.Time",
		"note is optional in the contract; the caller reads it as always present (string)",
		"lines[].sku may be string in the contract; the caller reads it as int",
		"lines[].price is not in the contract",
		"id may be string in the contract; the caller reads it as int64",
	}
	if got := contracttest.ReadProblems(schema, reflect.TypeFor[bad]()); !slices.Equal(got, want) {
		t.Fatalf("problems\n%q\nwant\n%q", got, want)
	}
	type stamped struct {
		Total time.Time `json:"total"`
	}
	got := contracttest.ReadProblems(schema, reflect.TypeFor[stamped]())
	if !slices.Contains(got, "total is a time.Time of the caller; the contract does not say it is a date-time") {
		t.Fatalf("a time read from an integer: %q", got)
	}
}

func TestSendProblems(t *testing.T) {
	search := orders(t).Operation(t, "searchOrders")
	type good struct {
		Email string `json:"email"`
		Limit int    `json:"limit,omitempty"`
	}
	search.CheckSends(t, good{})
	type bad struct {
		Email *string `json:"email,omitempty"`
		Limit *int    `json:"limit"`
		Page  int     `json:"page"`
	}
	want := []string{
		"email is required by the contract; the caller omits it when empty",
		"limit is [integer] in the contract; the caller sends int",
		"page is not in the contract",
	}
	if got := contracttest.SendProblems(search.Request, reflect.TypeFor[bad]()); !slices.Equal(got, want) {
		t.Fatalf("problems\n%q\nwant\n%q", got, want)
	}
	type none struct {
		Limit int `json:"limit"`
	}
	if got := contracttest.SendProblems(search.Request, reflect.TypeFor[none]()); !slices.Equal(got, []string{"email is required by the contract; the caller does not send it"}) {
		t.Fatalf("a required member not sent: %q", got)
	}
	if err := search.CheckRequest([]byte(`{"email":"a@b.es","limit":"ten"}`)); err == nil {
		t.Fatal("a request its schema refuses passed")
	}
	if err := search.CheckRequest(search.RequestExample); err != nil {
		t.Fatal(err)
	}
}

// TestAnIncompatibleChangeFailsTheCaller: renaming a member the caller reads, or changing
// its type, is reported for the caller's type; adding one is not.
func TestAnIncompatibleChangeFailsTheCaller(t *testing.T) {
	a := orders(t)
	typ := reflect.TypeFor[order]()
	for name, c := range map[string]struct {
		edit func(props map[string]any)
		want []string
	}{
		"total renamed": {func(p map[string]any) { p["amount"] = p["total"]; delete(p, "total") }, []string{"total is not in the contract"}},
		"total a string": {func(p map[string]any) { p["total"] = map[string]any{"type": "string"} },
			[]string{"total may be string in the contract; the caller reads it as int64"}},
		"a member added": {func(p map[string]any) { p["currency"] = map[string]any{"type": "string"} }, nil},
	} {
		changed := a.Edit(t, func(doc map[string]any) { c.edit(contracttest.At(doc, "components", "schemas", "Order", "properties")) })
		got := contracttest.ReadProblems(changed.Operation(t, "getOrder").Response(t, 200).Schema, typ)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
	if got := contracttest.ReadProblems(a.Operation(t, "getOrder").Response(t, 200).Schema, typ); len(got) > 0 {
		t.Fatalf("the edits changed the original: %q", got)
	}
}

func TestDocumentLaysTheCallersValuesOverTheExample(t *testing.T) {
	r := orders(t).Operation(t, "getOrder").Response(t, 200)
	type callerLine struct {
		SKU string `json:"sku"`
	}
	type callerOrder struct {
		ID    string       `json:"id"`
		Lines []callerLine `json:"lines"`
	}
	body, err := r.Document(callerOrder{ID: "ord_9", Lines: []callerLine{{SKU: "cap"}, {SKU: "mug"}}})
	want := `{"id":"ord_9","lines":[{"quantity":2,"sku":"cap"},{"quantity":2,"sku":"mug"}],"paidAt":null,"total":1500}`
	if err != nil || string(body) != want {
		t.Fatalf("%s %v\nwant %s", body, err, want)
	}
	if body, err := r.Document(callerOrder{ID: "ord_9"}); err != nil || !strings.Contains(string(body), `"lines":[]`) {
		t.Fatalf("a nil slice: %s %v", body, err)
	}
	if _, err := r.Document(map[string]any{"total": "free"}); err == nil || !strings.Contains(err.Error(), "breaks the contract") {
		t.Fatalf("a body the contract refuses: %v", err)
	}
}
