package api_test

import (
	"encoding/json"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// fuzzEnv is a running service with a registration of org A to update, and the operations with a
// body the service routes.
type fuzzEnv struct {
	*regtest.Env
	ops    []apispec.Operation
	params map[string]string
}

func startFuzz(f *testing.F) fuzzEnv {
	env := start(f, regtest.Options{})
	reg := create(f, env, createBody("Ana"))
	return fuzzEnv{Env: env, ops: contracttest.WithBody(contracttest.Served(env.App)), params: map[string]string{"eventId": evtA, "ticketId": ticketOf(reg, 0)}}
}

// send sends body to the operation of org A as the gateway forwards it, with a token of the
// surface's key, and fails the test unless the answer holds the contract.
func (e fuzzEnv) send(t *testing.T, op apispec.Operation, body []byte) {
	p := identity.Principal{OrganizerID: orgA, KeyID: "key_pk_" + orgA, KeyType: identity.Publishable, Origin: "https://shop.example"}
	if op.Surface == apispec.Organizer {
		p = identity.Principal{OrganizerID: orgA, KeyID: "key_" + orgA, KeyType: identity.Secret, Scopes: []string{scopeRead, scopeWrite, scopeCheckIns}}
	}
	headers := map[string]string{identity.Header: e.Issuers.Token(t, identity.Gateway, identity.Registration, p)}
	a := contracttest.Send(t, e.App, op.Method, contracttest.Path(op, e.params), headers, body)
	if err := contracttest.Check(e.Validator, op.ID, a); err != nil {
		t.Fatalf("%s %q: %v", op.ID, body, err)
	}
}

const (
	scopeRead     = "registrations:read"
	scopeWrite    = "registrations:write"
	scopeCheckIns = "checkins:write"
)

// registrationSeeds are valid bodies of the service's operations that reach past the schema to
// its rules and its database.
var registrationSeeds = map[string][]map[string]any{
	"organizerCreateRegistration": {createBody("Bea"), {"eventId": evtA, "categoryId": "cat_team", "teamName": "Duo",
		"athletes":              []any{athlete("Ca Da", "MALE", "1990-01-01"), athlete("Ea Fa", "FEMALE", "1991-02-03")},
		"customFields":          []any{map[string]any{"fieldId": "fld_size", "value": "S"}, map[string]any{"fieldId": "fld_shirt", "value": "M", "athleteIndex": 1}},
		"selectedSupplementIds": []any{"sup_tee"}, "supplementSelections": []any{map[string]any{"supplementId": "sup_meal", "optionId": "opt_veg"}}}},
	"organizerUpdateRegistration": {{"teamName": "Renamed", "bibRaceNumber": 7, "checkedInAt": []any{"2027-06-12T08:00:00Z"}},
		{"athletes": []any{athlete("Ana", "MALE", "1990-05-01")}, "notifyEmailChange": true}, {"categoryId": "cat_women"}},
	"organizerSearchRegistrations": {{"search": "ana", "eventId": evtA, "gender": "MALE", "ageMin": 18, "ageMax": 99.5, "sortBy": "bib-asc",
		"ticketStatus": "ALL", "cancelledFrom": []any{"2020-01-01T00:00:00Z"}, "limit": 5, "offset": 1,
		"customFieldFilters": []any{map[string]any{"fieldId": "fld_size", "operator": "has-any", "value": []any{"M", 3, true}}},
		"supplementFilters":  []any{map[string]any{"supplementId": "sup_meal", "optionIds": []any{"opt_veg"}}}},
		// PostgreSQL refuses U+0000 in text: this answered 500 before the validation refused it.
		{"search": "a\u0000", "eventId": "\u0000"}},
	"organizerTransferRegistration": {{"athlete": athlete("Gi Ha", "MALE", "1990-01-01")}, {"athlete": athlete("Ana", "MALE", "1990-05-01")},
		{"athlete": athlete("Ni\u0000o", "FEMALE", "2012-02-29")}},
	"browserLookupReceipts": {{"email": "ana@example.com"}},
	"browserSendReceipts":   {{"email": "ana@example.com"}},
	"organizerCheckIn": {{"ticketId": "tkt_unknown", "nonce": "fuzz-0001", "scannedAt": "2027-06-12T08:00:00Z", "device": "gate-a", "team": true},
		{"eventId": evtA, "bibRaceNumber": 7, "nonce": "fuzz-0002", "scannedAt": "2027-06-12T08:00:00+02:00", "device": "gate-b"}},
	"organizerCheckInBatch": {{"scans": []any{map[string]any{"ticketId": "tkt_unknown", "nonce": "fuzz-0003", "scannedAt": "2027-06-12T08:00:00Z", "device": "a"},
		map[string]any{"nonce": "\u0000", "device": 7}, map[string]any{}}}},
}

// FuzzExternalBodies sends arbitrary bodies to every operation with a body the service routes,
// with a valid identity token, through the service's Fiber app: never a 5xx; a refusal is the
// standard error body with a status the document gives the operation; a success is the body
// the document describes.
func FuzzExternalBodies(f *testing.F) {
	e := startFuzz(f)
	for i, op := range e.ops {
		for _, seed := range contracttest.Seeds(op.ID, registrationSeeds[op.ID]...) {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		e.send(t, e.ops[int(opIndex)%len(e.ops)], body)
	})
}

// FuzzSearchFilters builds registration searches that the schema accepts from arbitrary
// strings and numbers, so that every filter reaches the database with any text a client can
// send: never a 5xx.
func FuzzSearchFilters(f *testing.F) {
	e := startFuzz(f)
	f.Add("ana", "fld_size", "has-any", "M", "sup_meal", "opt_veg", "bib-asc", "2027-06-12T08:00:00Z", 18.0, 60.0, 1.0)
	f.Add("%_\\'", "fld_notes", "contains", "v'); --", "sup_tee", "x", "amount-desc", "2020-01-01T00:00:00+14:00", 0.0, 0.5, 9007199254740991.0)
	// PostgreSQL refuses U+0000 in text: this answered 500 before the validation refused it.
	f.Add("\u0000", "fld_\u0000", "equals", "\u0000", "sup_\u0000", "\u0000", "category-asc", "0001-01-01T00:00:00Z", 18.0, 60.0, 0.0)
	var op apispec.Operation
	for _, o := range e.ops {
		if o.ID == "organizerSearchRegistrations" {
			op = o
		}
	}
	f.Fuzz(func(t *testing.T, text, field, operator, value, supplement, option, sortBy, instant string, ageMin, ageMax, offset float64) {
		body, err := json.Marshal(map[string]any{
			"search": text, "athleteId": value, "ticketId": value, "categoryId": field, "sortBy": sortBy,
			"ageMin": ageMin, "ageMax": ageMax, "offset": offset, "cancelledFrom": []string{instant}, "cancelledTo": []string{instant},
			"customFieldFilters": []any{map[string]any{"fieldId": field, "operator": operator, "value": value},
				map[string]any{"fieldId": field, "operator": "has-any", "value": []any{value, ageMin}}},
			"supplementFilters": []any{map[string]any{"supplementId": supplement, "optionIds": []string{option}}},
		})
		if err != nil {
			t.Skip("not JSON (a number JSON cannot carry)")
		}
		e.send(t, op, body)
	})
}
