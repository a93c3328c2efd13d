// Package apispectest builds request bodies for the tests and benchmarks of the API's body
// validation: the largest legitimate body of each operation, which its byte limit is chosen to
// fit, and hostile bodies, each built to be the worst case for one check on a body.
package apispectest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The largest legitimate body of each operation is built as a real client would send it: every
// collection at its bound where a real client could reach it, and values of realistic size
// (ids as the API gives them out, names and answers a person writes).

// Largest returns the largest legitimate body of the operation with overrides set on its top
// level, or nil for an operation without a body.
func Largest(operationID string, overrides map[string]any) map[string]any {
	build, ok := largest[operationID]
	if !ok {
		return nil
	}
	body := build()
	for k, v := range overrides {
		body[k] = v
	}
	return body
}

// largest builds the largest legitimate body of each operation that takes one. The event
// searches are encoded by hand (see searchBody) and have no entry.
var largest = map[string]func() map[string]any{
	"browserCheckoutSession":            checkoutSession,
	"browserCheckoutSummary":            checkoutSummary,
	"organizerCreateRegistration":       createRegistration,
	"organizerUpdateRegistration":       updateRegistration,
	"organizerSearchRegistrations":      searchRegistrations,
	"browserLookupReceipts":             receipt,
	"browserSendReceipts":               receipt,
	"browserJoinWaitlist":               waitlistJoin,
	"organizerCreateWebhookEndpoint":    webhookEndpoint,
	"organizerUpdateWebhookEndpoint":    webhookEndpointUpdate,
	"organizerRecoverWebhookDeliveries": recoverDeliveries,
	"organizerCheckIn":                  checkInScan,
	"organizerCheckInBatch":             checkInBatch,
	"organizerTransferRegistration":     transferRegistration,
	"organizerSignRegistrationWaivers":  signRegistrationWaivers,
	"organizerCreateRefund":             createRefund,
}

// Encode returns the JSON of body. Numbers given as json.Number keep their literal.
func Encode(body any) []byte {
	b, err := json.Marshal(body)
	if err != nil {
		panic(fmt.Sprintf("apispectest: encode: %v", err))
	}
	return b
}

// LargestJSON is the encoded largest legitimate body of the operation; for the event searches,
// a search of 100 characters outside the Basic Multilingual Plane, which a client that escapes
// non-ASCII writes as 12 bytes each.
func LargestJSON(operationID string) []byte {
	switch operationID {
	case "browserSearchEvents":
		return searchBody(false)
	case "organizerSearchEvents":
		return searchBody(true)
	}
	if body := Largest(operationID, nil); body != nil {
		return Encode(body)
	}
	return nil
}

func searchBody(withStatus bool) []byte {
	body := `{"search":"` + strings.Repeat(`\ud83c\udfcb`, 100) + `","limit":100,"offset":9007199254740991`
	if withStatus {
		body += `,"status":"UNDER_REVIEW"`
	}
	return []byte(body + "}")
}

// ID returns an id as the API gives them out: prefix and 20 base62 characters.
func ID(prefix string, i int) string {
	return fmt.Sprintf("%s%020d", prefix, i)
}

// repeat returns n values built by item, one per index.
func repeat(n int, item func(i int) any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = item(i)
	}
	return out
}

// athlete returns a realistic athlete with long but real values.
func athlete(i int) map[string]any {
	return map[string]any{
		"fullname":  fmt.Sprintf("María Fernanda López-García de la Fuente %d", i),
		"idNumber":  fmt.Sprintf("X%07dL", i),
		"email":     fmt.Sprintf("maria.fernanda.lopez.garcia.%d@crossfit-example-club.com", i),
		"phone":     "+346001112223",
		"gender":    "FEMALE",
		"birthDate": "1990-05-17",
	}
}

// answers returns realistic answers for a team: perAthlete answers for each athlete (with its
// athleteIndex), then teamAnswers for the team.
func answers(athletes, perAthlete, teamAnswers int) []any {
	var out []any
	kinds := []any{"XL", "Juan Pérez Martínez (father)", "+34600111333",
		"Allergic to penicillin; asthma, carries an inhaler. Previous knee surgery (2019), fully recovered.",
		[]any{"Vegetarian", "Gluten free", "No nuts"}}
	for a := range athletes {
		for f := range perAthlete {
			out = append(out, map[string]any{"fieldId": ID("fld_", f), "value": kinds[f%len(kinds)], "athleteIndex": a})
		}
	}
	team := []any{"CrossFit Norte Madrid", true, 3, "2025-05-01", "We would like to be in the same heat as Team Atlas."}
	for f := range teamAnswers {
		out = append(out, map[string]any{"fieldId": ID("fld_", 100+f), "value": team[f%len(team)]})
	}
	return out
}

// supplements returns n single-price supplement ids and n option selections.
func supplements(n int) (ids, selections []any) {
	for i := range n {
		ids = append(ids, ID("sup_", i))
		selections = append(selections, map[string]any{"supplementId": ID("sup_", 100+i), "optionId": ID("opt_", i)})
	}
	return ids, selections
}

// waivers returns n accepted waivers.
func waivers(n int) map[string]any {
	out := map[string]any{}
	for i := range n {
		out[ID("wvr_", i)] = true
	}
	return out
}

// team returns a realistic registration of a team of size athletes.
func team(size, i int) map[string]any {
	ids, selections := supplements(5)
	return map[string]any{
		"categoryId":            ID("cat_", i),
		"teamName":              fmt.Sprintf("Los Invencibles del Norte, equipo %d", i),
		"club":                  "CrossFit Norte Madrid - Alcobendas",
		"athletes":              repeat(size, func(a int) any { return athlete(a) }),
		"customFields":          answers(size, 5, 5),
		"waiversAccepted":       waivers(5),
		"selectedSupplementIds": ids,
		"supplementSelections":  selections,
	}
}
