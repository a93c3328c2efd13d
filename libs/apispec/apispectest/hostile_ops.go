package apispectest

import (
	"encoding/json"
	"strings"
)

// Number literals at the limits a body may use: 100 characters, exponents within ±400. The
// schema library turns each into an exact rational to compare it with a bound.
var (
	// limitFraction is 1.2…2e-400: from 0 to 1, so valid for a signature coordinate.
	limitFraction = "1." + strings.Repeat("2", 93) + "e-400"
	// limitInteger is 299999 written with 90 more zeros and an exponent that takes them back.
	limitInteger = "299999" + strings.Repeat("0", 90) + "e-90"
	// limitTen is 10 written in 100 characters.
	limitTen = "1" + strings.Repeat("0", 95) + "e-94"
)

// raw builds a JSON payload.
func raw(fill func(b *strings.Builder)) json.RawMessage {
	var b strings.Builder
	fill(&b)
	return json.RawMessage(b.String())
}

// pastBounds is a body with one collection or string far past its bound, filling the body: the
// bounds are checked before anything reads the collection's items.
func (h hostile) pastBounds() Body {
	var name string
	var fill func(b *strings.Builder, room int)
	switch h.op {
	case "browserSearchEvents", "organizerSearchEvents":
		name, fill = "search", longString
	case "browserLookupReceipts", "browserSendReceipts":
		name, fill = "email", longString
	case "browserJoinWaitlist":
		name, fill = "name", longString
	case "organizerSearchRegistrations":
		name, fill = "cancelledFrom", zeros
	case "organizerCreateWebhookEndpoint", "organizerUpdateWebhookEndpoint":
		name, fill = "eventTypes", zeros
	case "organizerRecoverWebhookDeliveries":
		name, fill = "since", longString
	case "organizerCheckIn":
		name, fill = "device", longString
	case "organizerCheckInBatch":
		name, fill = "scans", zeros
	case "organizerCreateRefund":
		name, fill = "ticketIds", zeros
	default:
		name, fill = "selectedSupplementIds", zeros
	}
	var b strings.Builder
	fill(&b, h.size-len(Encode(h.base))-len(name)-4)
	return Body{Check: "a collection past its bound", JSON: h.body(map[string]any{name: json.RawMessage(b.String())}, false)}
}

func longString(b *strings.Builder, room int) {
	b.WriteByte('"')
	b.WriteString(strings.Repeat("s", max(room-2, 0)))
	b.WriteByte('"')
}

func zeros(b *strings.Builder, room int) {
	list(b, room, func(b *strings.Builder, _ int) { b.WriteByte('0') })
}

// numbers is a body of number literals at the limits, where the schema compares them with a
// bound when the operation has such numbers (signature points, search limits), else in an
// unknown member. It is valid.
func (h hostile) numbers() Body {
	const check = "number literals at their limits"
	point := `{"x":` + limitFraction + `,"y":` + limitFraction + `,"t":` + limitInteger + `}`
	switch h.op {
	case "browserCheckoutSession":
		signature := SignatureOf(FullPoint())
		delete(signature, "strokes")
		body := func(points int) []byte {
			signature["strokes"] = strokesOf(point, points)
			return h.body(map[string]any{"legalSignature": signature}, true)
		}
		// Start from the points that fit, then drop the few the estimate let in too many.
		points := min((h.size-len(Encode(h.base))-len(Encode(signature)))/(len(point)+1), 20*1000)
		out := body(points)
		for len(out) > h.size {
			points -= (len(out)-h.size)/(len(point)+1) + 1
			out = body(points)
		}
		return Body{Check: check, JSON: out, Valid: true}
	case "browserSearchEvents", "organizerSearchEvents":
		members := map[string]any{"limit": json.Number(limitTen), "offset": json.Number(limitTen)}
		h.base = merge(h.base, members)
	}
	return h.unknown(check, func(b *strings.Builder, room int) {
		list(b, room, func(b *strings.Builder, _ int) { b.WriteString(limitFraction) })
	}, true)
}

// strokesOf returns strokes of up to 1000 copies of point, points in all.
func strokesOf(point string, points int) json.RawMessage {
	return raw(func(b *strings.Builder) {
		b.WriteByte('[')
		for s := 0; s*1000 < points; s++ {
			if s > 0 {
				b.WriteByte(',')
			}
			n := min(points-s*1000, 1000)
			b.WriteString("[" + strings.TrimSuffix(strings.Repeat(point+",", n), ",") + "]")
		}
		b.WriteByte(']')
	})
}

// merge returns a copy of base with members set.
func merge(base, members map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range members {
		out[k] = v
	}
	return out
}

// invalid is a body with as many invalid values as the bounds let through, each as small as it
// can be: empty objects missing every required member, wrong types. Every problem is counted,
// and the first hundred worded.
func (h hostile) invalid() Body {
	const check = "many invalid values"
	empties := func(n int) json.RawMessage {
		return raw(func(b *strings.Builder) { b.WriteString("[" + strings.TrimSuffix(strings.Repeat("{},", n), ",") + "]") })
	}
	zeros := func(n int) json.RawMessage {
		return raw(func(b *strings.Builder) { b.WriteString("[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]") })
	}
	waivers := map[string]any{}
	for i := range 50 {
		waivers[ID("wvr_", i)] = 0
	}
	registration := map[string]any{"athletes": empties(100), "customFields": empties(1000), "waiversAccepted": waivers,
		"selectedSupplementIds": zeros(50), "supplementSelections": empties(50)}
	var members map[string]any
	switch h.op {
	case "browserCheckoutSession":
		strokes := raw(func(b *strings.Builder) {
			b.WriteByte('[')
			for s := range 20 {
				if s > 0 {
					b.WriteByte(',')
				}
				b.Write(empties(1000))
			}
			b.WriteByte(']')
		})
		members = merge(registration, map[string]any{
			"legalSignature":     map[string]any{"strokes": strokes},
			"guestRegistrations": repeat(10, func(int) any { return registration }),
		})
	case "browserCheckoutSummary":
		summary := map[string]any{"categoryId": 0, "selectedSupplementIds": zeros(50), "supplementSelections": empties(50)}
		members = merge(summary, map[string]any{"guestRegistrations": repeat(10, func(int) any { return summary })})
	case "browserSearchEvents", "organizerSearchEvents":
		members = map[string]any{"search": 0, "limit": "", "offset": ""}
	case "browserLookupReceipts", "browserSendReceipts":
		members = map[string]any{"email": 0}
	case "browserJoinWaitlist":
		members = map[string]any{"categoryId": 0, "email": 0, "name": 0, "teamSize": "", "offerUrl": 0}
	case "organizerCreateWebhookEndpoint", "organizerUpdateWebhookEndpoint":
		members = map[string]any{"url": 0, "eventTypes": zeros(9), "description": 0, "enabled": ""}
	case "organizerRecoverWebhookDeliveries":
		members = map[string]any{"since": 0}
	case "organizerCheckIn":
		members = map[string]any{"ticketId": 0, "eventId": 0, "bibRaceNumber": "", "nonce": 0, "scannedAt": 0, "device": 0, "team": ""}
	case "organizerCheckInBatch":
		members = map[string]any{"scans": repeat(500, func(int) any { return 0 })}
	case "organizerTransferRegistration":
		members = map[string]any{"athlete": map[string]any{"fullname": 0, "idNumber": 0, "email": 0, "phone": 0, "gender": 0, "birthDate": 0},
			"waiversAccepted": map[string]any{"wvr_1": 0}}
	case "organizerSignRegistrationWaivers":
		members = map[string]any{"waiversAccepted": 0}
	case "organizerCreateRefund":
		members = map[string]any{"orderId": 0, "ticketIds": zeros(20), "amount": "", "reason": 0, "cancelTickets": ""}
	default:
		members = registration
	}
	return Body{Check: check, JSON: h.body(members, true)}
}

// slowEmail is an e-mail address of the longest length that the e-mail pattern takes longest to
// refuse: a domain of one-letter labels ending in a digit.
var slowEmail = "a@" + strings.Repeat("a.", 125) + "1"

// patterns is a body with every string that a pattern checks at the longest length its schema
// lets through, each written to be slow to refuse. Operations without patterned strings have
// none.
func (h hostile) patterns() (Body, bool) {
	const check = "long strings against patterns"
	athletes := repeat(100, func(int) any {
		return map[string]any{"fullname": "A", "idNumber": "1", "email": slowEmail, "phone": "+" + strings.Repeat("1", 31),
			"gender": "MALE", "birthDate": strings.Repeat("2024-", 7)[:32]}
	})
	var members map[string]any
	switch h.op {
	case "browserCheckoutSession":
		members = map[string]any{
			"athletes": athletes, "purchaserEmail": slowEmail, "promocode": strings.Repeat("Á", 64),
			"idempotencyKey": strings.Repeat("k", 256), "successUrl": "https://example.com/" + strings.Repeat("a/", 1014),
			"ipEnrichment": map[string]any{"provider": "ipquery", "countryCode": strings.Repeat("E", 16)},
			"guestRegistrations": repeat(10, func(i int) any {
				return map[string]any{"guestEmail": slowEmail, "guestName": "Guest", "categoryId": ID("cat_", i),
					"teamName": "Team", "athletes": athletes}
			}),
		}
	case "browserCheckoutSummary":
		members = map[string]any{"purchaserEmail": slowEmail, "promocode": strings.Repeat("Á", 64)}
	case "browserLookupReceipts", "browserSendReceipts", "browserJoinWaitlist":
		members = map[string]any{"email": slowEmail}
	case "organizerCreateRegistration", "organizerUpdateRegistration":
		members = map[string]any{"athletes": athletes}
	case "organizerTransferRegistration":
		members = map[string]any{"athlete": athletes[0]}
	case "organizerCreateWebhookEndpoint", "organizerUpdateWebhookEndpoint":
		members = map[string]any{"description": strings.Repeat("a", 499) + "\u2028"}
	default:
		return Body{}, false
	}
	return Body{Check: check, JSON: h.body(members, true)}, true
}
