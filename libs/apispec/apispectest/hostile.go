package apispectest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Body is a request body built to be the worst case for one check on a body.
type Body struct {
	// Check names what the body is the worst case for.
	Check string
	JSON  []byte
	// Valid reports whether the validation accepts the body: its cost is in checks it passes.
	Valid bool
}

// Hostile returns one body per check on a body for the operation, each of at most size bytes
// and filling them where the check's worst case can, built on a small valid body of the
// operation with overrides set on its top level. A check's payload goes where the operation's
// schema reads it when it has such a place, else into an unknown member, which only the
// checks of every body read; a payload that cannot fill the body is followed by an unknown
// member holding a plain string.
func Hostile(operationID string, size int, overrides map[string]any) []Body {
	base := Minimal(operationID)
	for k, v := range overrides {
		base[k] = v
	}
	h := hostile{op: operationID, base: base, size: size}
	bodies := []Body{
		h.unknown("member names differing only in case", caseTwins, false),
		h.unknown("many members", manyMembers, true),
		h.unknown("nesting at the depth bound", deepArrays, true),
		h.unknown("member names at their bound, deep", longPaths, false),
		h.pastBounds(),
		h.numbers(),
		h.invalid(),
	}
	if b, ok := h.patterns(); ok {
		bodies = append(bodies, b)
	}
	return bodies
}

// Minimal returns a small valid body of the operation (an empty object for one whose fields
// are all optional), with ids that name nothing.
func Minimal(operationID string) map[string]any {
	switch operationID {
	case "browserCheckoutSession":
		return map[string]any{"eventId": ID("evt_", 1), "categoryId": ID("cat_", 1), "teamName": "Team",
			"athletes": []any{athlete(0)}, "termsAccepted": true, "purchaserEmail": "ana@example.com",
			"purchaserName": "Ana", "successUrl": "https://example.com/done", "cancelUrl": "https://example.com/cancel"}
	case "browserCheckoutSummary":
		return map[string]any{"categoryId": ID("cat_", 1), "purchaserEmail": "ana@example.com"}
	case "organizerCreateRegistration":
		return map[string]any{"eventId": ID("evt_", 1), "categoryId": ID("cat_", 1), "teamName": "Team",
			"athletes": []any{athlete(0)}}
	case "browserLookupReceipts", "browserSendReceipts":
		return map[string]any{"email": "ana@example.com"}
	case "browserJoinWaitlist":
		return map[string]any{"categoryId": ID("cat_", 1), "email": "ana@example.com", "name": "Ana", "teamSize": 1,
			"offerUrl": "https://shop.example.com/waitlist"}
	case "organizerCreateWebhookEndpoint":
		return map[string]any{"url": "https://example.com/hooks", "eventTypes": []any{"order.completed"}}
	case "organizerRecoverWebhookDeliveries":
		return map[string]any{"since": "2025-05-01T08:00:00Z"}
	case "organizerCheckIn":
		return map[string]any{"ticketId": ID("tkt_", 1), "nonce": "scan-0001", "scannedAt": "2026-05-16T07:45:12Z", "device": "gate-a"}
	case "organizerCheckInBatch":
		return map[string]any{"scans": []any{map[string]any{}}}
	case "organizerTransferRegistration":
		return map[string]any{"athlete": athlete(0)}
	case "organizerSignRegistrationWaivers":
		return map[string]any{"waiversAccepted": map[string]any{ID("wvr_", 1): true}}
	case "organizerCreateRefund":
		return map[string]any{"orderId": ID("ord_", 1), "reason": "r"}
	default:
		return map[string]any{}
	}
}

// hostile builds the bodies of one operation.
type hostile struct {
	op   string
	base map[string]any
	size int
}

// body encodes the base body with members set, then, when pad is set, adds an unknown member
// holding a plain string that brings it to the size.
func (h hostile) body(members map[string]any, pad bool) []byte {
	all := map[string]any{}
	for k, v := range h.base {
		all[k] = v
	}
	for k, v := range members {
		all[k] = v
	}
	out := Encode(all)
	if !pad {
		return out
	}
	return Pad(out, h.size)
}

// Pad grows an encoded object to size bytes with an unknown member "pad" holding a plain
// string, when there is room for one.
func Pad(body []byte, size int) []byte {
	comma := len(body) > 2
	room := size - len(body) - len(`"pad":""`)
	if comma {
		room--
	}
	if room < 0 {
		return body
	}
	out := bytes.Clone(body[:len(body)-1])
	if comma {
		out = append(out, ',')
	}
	out = append(out, `"pad":"`...)
	out = append(out, strings.Repeat("p", room)...)
	return append(out, `"}`...)
}

// room is the bytes left for a payload in member x of the base body.
func (h hostile) room() int {
	return h.size - len(Encode(h.base)) - len(`,"x":`)
}

// unknown is the body whose unknown member x carries the payload of a check that reads every
// body.
func (h hostile) unknown(check string, fill func(b *strings.Builder, room int), valid bool) Body {
	var b strings.Builder
	fill(&b, h.room())
	return Body{Check: check, JSON: h.body(map[string]any{"x": json.RawMessage(b.String())}, false), Valid: valid}
}

// list writes a JSON array of the items item writes until the next one would not fit in room.
func list(b *strings.Builder, room int, item func(b *strings.Builder, i int)) {
	start := b.Len()
	b.WriteByte('[')
	var next strings.Builder
	for i := 0; ; i++ {
		next.Reset()
		if i > 0 {
			next.WriteByte(',')
		}
		item(&next, i)
		if b.Len()-start+next.Len()+1 > room {
			break
		}
		b.WriteString(next.String())
	}
	b.WriteByte(']')
}

// caseTwins is one object of as many members as fit, each named twice in different cases.
func caseTwins(b *strings.Builder, room int) {
	object(b, room, func(b *strings.Builder, i int) {
		fmt.Fprintf(b, `"k%d":0,"K%d":0`, i, i)
	})
}

// manyMembers is one object of as many distinct members as fit.
func manyMembers(b *strings.Builder, room int) {
	object(b, room, func(b *strings.Builder, i int) { fmt.Fprintf(b, `"m%d":0`, i) })
}

// object writes a JSON object of the members member writes until the next would not fit.
func object(b *strings.Builder, room int, member func(b *strings.Builder, i int)) {
	start := b.Len()
	b.WriteByte('{')
	var next strings.Builder
	for i := 0; ; i++ {
		next.Reset()
		if i > 0 {
			next.WriteByte(',')
		}
		member(&next, i)
		if b.Len()-start+next.Len()+1 > room {
			break
		}
		b.WriteString(next.String())
	}
	b.WriteByte('}')
}

// MaxDepth is the deepest nesting a body may have (the body itself is level 1).
const MaxDepth = 32

// deepArrays is an array of towers of arrays nested to the depth bound: x is level 2.
func deepArrays(b *strings.Builder, room int) {
	levels := MaxDepth - 2
	tower := strings.Repeat("[", levels) + "0" + strings.Repeat("]", levels)
	list(b, room, func(b *strings.Builder, _ int) { b.WriteString(tower) })
}

// MaxNameLength is the longest member name a body may have, in characters.
const MaxNameLength = 128

// longPaths nests objects to the depth bound, each under a member name of the longest length,
// around an array of numbers beyond the limits: one problem each, at the longest paths.
func longPaths(b *strings.Builder, room int) {
	levels := min(MaxDepth-3, room/2/(MaxNameLength+6))
	for i := range levels {
		fmt.Fprintf(b, `{"%0*d":`, MaxNameLength, i)
	}
	list(b, room-b.Len()-levels, func(b *strings.Builder, _ int) { b.WriteString("1e999") })
	b.WriteString(strings.Repeat("}", levels))
}
