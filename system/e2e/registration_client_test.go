package e2e

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// send is do for a client that honours 429: the suite's gateways allow perKeyLimit requests
// per second and key, which a table test exceeds, so a refused request is sent again once
// Retry-After has passed.
func send(t testing.TB, r req) response {
	t.Helper()
	for attempt := 0; ; attempt++ {
		res := do(t, r)
		if res.status != 429 || attempt == 10 {
			return res
		}
		wait, _ := strconv.Atoi(res.header.Get("Retry-After"))
		time.Sleep(time.Duration(max(wait, 1)) * time.Second)
	}
}

var document = sync.OnceValues(apispec.NewValidator)

// conforms checks a response body against the OpenAPI document's schema for the operation and
// the response's status.
func conforms(t testing.TB, operationID string, res response) {
	t.Helper()
	v, err := document()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateResponse(operationID, res.status, res.body); err != nil {
		t.Fatalf("%s answered %d with a body the document does not allow: %v\n%s", operationID, res.status, err, res.body)
	}
}

var eventSeq atomic.Int64

// importEvent imports doc (the catalog's import-file shape) for org under a unique external id.
func importEvent(t *testing.T, org string, doc map[string]any) stack.Event {
	t.Helper()
	doc["externalId"] = "e2e-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + strconv.FormatInt(eventSeq.Add(1), 10)
	ev, err := sys.ImportEventDoc(t.Context(), org, doc)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// eventDoc is a PUBLISHED event starting on 12 June 2027 with these categories.
func eventDoc(categories ...map[string]any) map[string]any {
	return map[string]any{
		"name": "E2E Throwdown", "status": "PUBLISHED", "startDate": "2027-06-12", "endDate": "2027-06-13",
		"timezone": "Europe/Madrid", "currency": "EUR", "categories": categories,
	}
}

// category is an OPEN individual category without quota; extra overrides or adds fields.
func category(key string, extra map[string]any) map[string]any {
	c := map[string]any{"key": key, "name": "Category " + key, "basePrice": 5000}
	for k, v := range extra {
		c[k] = v
	}
	return c
}

// plain makes a name usable as an e-mail local part.
var plain = strings.NewReplacer(" ", ".", "á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ñ", "n", "Á", "A", "É", "E")

func athlete(name, gender, birthDate string) map[string]any {
	return map[string]any{
		"fullname": name, "idNumber": "ID-" + strings.ReplaceAll(name, " ", "-"),
		"email": strings.ToLower(plain.Replace(name)) + "@example.com",
		"phone": "+34600111222", "gender": gender, "birthDate": birthDate,
	}
}

// registrationBody is a create body for the category with key cat of ev.
func registrationBody(ev stack.Event, cat, team string, athletes ...map[string]any) map[string]any {
	list := make([]any, len(athletes))
	for i, a := range athletes {
		list[i] = a
	}
	return map[string]any{"eventId": ev.ID, "categoryId": ev.Category(cat), "teamName": team, "athletes": list}
}

// registration is the part of a registration the tests read.
type registration struct {
	RegistrationID string                  `json:"registrationId"`
	EventID        string                  `json:"eventId"`
	CategoryID     string                  `json:"categoryId"`
	OrderID        string                  `json:"orderId"`
	TeamName       string                  `json:"teamName"`
	BibRaceNumber  json.Number             `json:"bibRaceNumber"`
	CustomFields   []any                   `json:"customFields"`
	Tickets        []ticket                `json:"tickets"`
	Order          struct{ Status string } `json:"order"`
}

type ticket struct {
	TicketID    string  `json:"ticketId"`
	AthleteID   string  `json:"athleteId"`
	Status      string  `json:"status"`
	Age         int     `json:"age"`
	CancelledAt *string `json:"cancelledAt"`
	Athlete     struct {
		Fullname  string `json:"fullname"`
		Email     string `json:"email"`
		Phone     string `json:"phone"`
		BirthDate string `json:"birthDate"`
	} `json:"athlete"`
}

func decode[T any](t testing.TB, res response) T {
	t.Helper()
	var v T
	d := json.NewDecoder(strings.NewReader(string(res.body)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %.300s: %v", res.body, err)
	}
	return v
}

// createRegistration creates body with the secret key and returns the registration.
func createRegistration(t testing.TB, key string, body map[string]any) registration {
	t.Helper()
	res := send(t, req{"POST", gw("/organizer/registrations"), secret(key), body})
	if res.status != 201 {
		t.Fatalf("create %v: %d %s", body["teamName"], res.status, res.body)
	}
	conforms(t, "organizerCreateRegistration", res)
	return decode[registration](t, res)
}

// searchRow is one ticket of a search result.
type searchRow struct {
	Ticket       ticket `json:"ticket"`
	Registration struct {
		RegistrationID string `json:"registrationId"`
		CategoryID     string `json:"categoryId"`
		TeamName       string `json:"teamName"`
	} `json:"registration"`
	Order struct {
		OrderID  string `json:"orderId"`
		Status   string `json:"status"`
		Livemode *bool  `json:"livemode"`
	} `json:"order"`
}

type searchResult struct {
	Data   []searchRow `json:"data"`
	Total  int         `json:"total"`
	Limit  int         `json:"limit"`
	Offset int         `json:"offset"`
}

// ticketIDs lists the result's ticket ids in order.
func (s searchResult) ticketIDs() []string {
	out := make([]string, len(s.Data))
	for i, r := range s.Data {
		out[i] = r.Ticket.TicketID
	}
	return out
}

func searchRegistrations(t testing.TB, key string, body map[string]any) searchResult {
	t.Helper()
	res := send(t, req{"POST", gw("/organizer/registrations/search"), secret(key), body})
	if res.status != 201 {
		t.Fatalf("search %v: %d %s", body, res.status, res.body)
	}
	conforms(t, "organizerSearchRegistrations", res)
	return decode[searchResult](t, res)
}

// card is a pricing card as the tests read it.
type card struct {
	CategoryID      string `json:"categoryId"`
	Quota           *int   `json:"quota"`
	RegisteredCount int    `json:"registeredCount"`
	HeldCount       int    `json:"heldCount"`
	AvailableCount  *int   `json:"availableCount"`
	ActivePrice     int    `json:"activePrice"`
	Tiers           []struct {
		Price  int    `json:"price"`
		Active bool   `json:"active"`
		EndsAt string `json:"endsAt"`
	} `json:"tiers"`
}

// waitForCard reads the event's pricing cards through the gateway (the organizer's with a
// secret key, the public ones with a publishable key) until the category's card satisfies ok.
// The catalog learns places from registration's Kafka events, so it may lag a little.
func waitForCard(t *testing.T, headers map[string]string, path, categoryID string, ok func(card) bool) card {
	t.Helper()
	var found card
	testkit.Eventually(t, 20*time.Second, func() string {
		res := send(t, req{"GET", gw(path), headers, nil})
		if res.status != 200 {
			t.Fatalf("GET %s: %d %s", path, res.status, res.body)
		}
		if strings.HasPrefix(path, "/browser/") {
			conforms(t, "browserGetPricingCards", res)
		} else {
			conforms(t, "organizerGetPricingCards", res)
		}
		for _, c := range decode[pricingCards](t, res).Cards {
			if c.CategoryID == categoryID && ok(c) {
				found = c
				return ""
			}
		}
		return fmt.Sprintf("pricing card of %s never reached the expected counts; last answer %s", categoryID, res.body)
	})
	return found
}

// registered waits until the organizer's card of the category shows n registrations.
func registered(t *testing.T, o tenant, ev stack.Event, cat string, n int) card {
	t.Helper()
	return waitForCard(t, secret(o.secret.Key), "/organizer/events/"+ev.ID+"/pricing-cards", ev.Category(cat),
		func(c card) bool { return c.RegisteredCount == n })
}
