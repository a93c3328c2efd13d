package apispectest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// FullPoint is a signature point at full float64 precision, as a browser's JSON.stringify
// writes it, with the largest t.
func FullPoint() map[string]any {
	return map[string]any{"x": json.Number("0.12345678901234567"), "y": json.Number("0.98765432109876543"), "t": json.Number("299999")}
}

// WidestPoint is a signature point whose coordinates take the most characters a browser writes
// for a number from 0 to 1 (21: "0.0012345678901234567", or an exponent form of a tiny one).
func WidestPoint() map[string]any {
	return map[string]any{"x": json.Number("0.0012345678901234567"), "y": json.Number("0.0098765432109876543"), "t": json.Number("299999")}
}

// SignatureOf returns a legal signature of 20 strokes of 1000 copies of point, the most the
// API takes.
func SignatureOf(point map[string]any) map[string]any {
	return map[string]any{
		"signerName": "María Fernanda López-García de la Fuente", "signerIdNumber": "X1234567L",
		"authorityAccepted": true, "minorRelationship": "mother", "guardianAuthorityAccepted": true, "locale": "es",
		"waiverVersions": repeat(5, func(i int) any { return map[string]any{"waiverId": ID("wvr_", i), "version": 12} }),
		"strokes":        repeat(20, func(int) any { return repeat(1000, func(int) any { return point }) }),
	}
}

// checkoutSession is the largest legitimate checkout session: a signature of 20 strokes of 1000
// points each at full precision, a team of six and ten guest teams of six, each with their
// answers, waivers and supplements.
func checkoutSession() map[string]any {
	body := team(6, 0)
	for k, v := range map[string]any{
		"eventId":        ID("evt_", 1),
		"idempotencyKey": "checkout:2025-05-01:7f3a9c1e-8b2d-4c6f-9a1e-3d5b7c9e1f20",
		"promocode":      "SPRING-EARLY-BIRD-2025-TEAMS-10",
		"legalSignature": SignatureOf(FullPoint()),
		"termsAccepted":  true,
		"guestRegistrations": repeat(10, func(i int) any {
			g := team(6, i+1)
			g["guestEmail"] = fmt.Sprintf("guest.number.%d.of.the.team@crossfit-example-club.com", i)
			g["guestName"] = "Luis Alberto Pérez Rodríguez de Castro"
			return g
		}),
		"ipEnrichment": map[string]any{
			"provider": "ipapiis", "countryCode": "ES", "country": "Spain", "regionCode": "MD", "region": "Community of Madrid",
			"city": "Alcobendas", "timezone": "Europe/Madrid",
			"network": map[string]any{"asn": "AS3352", "organization": "Telefonica de Espana S.A.U.", "isp": "Movistar Fibra"},
			"risk":    map[string]any{"vpn": false, "proxy": false, "tor": false, "hosting": false},
		},
		"purchaserEmail":       "maria.fernanda.lopez.garcia@crossfit-example-club.com",
		"purchaserName":        "María Fernanda López-García de la Fuente",
		"checkoutResumeSecret": strings.Repeat("r", 64),
		"successUrl":           "https://www.crossfit-example-club.com/events/summer-throwdown-2025/checkout/done?session={CHECKOUT_SESSION_ID}&lang=es",
		"cancelUrl":            "https://www.crossfit-example-club.com/events/summer-throwdown-2025/checkout/cancelled?lang=es&step=payment",
	} {
		body[k] = v
	}
	return body
}

// checkoutSummary is the largest legitimate summary: ten guests, and every registration with as
// many supplements as an event may offer.
func checkoutSummary() map[string]any {
	registration := func(i int) map[string]any {
		ids, selections := supplements(50)
		return map[string]any{"categoryId": ID("cat_", i), "selectedSupplementIds": ids, "supplementSelections": selections}
	}
	body := registration(0)
	body["previewToken"] = "prv_" + strings.Repeat("P", 32)
	body["promocode"] = "SPRING-EARLY-BIRD-2025-TEAMS-10"
	body["guestRegistrations"] = repeat(10, func(i int) any { return registration(i + 1) })
	body["purchaserEmail"] = "maria.fernanda.lopez.garcia@crossfit-example-club.com"
	return body
}

// createRegistration is the largest legitimate create body: a team of 100 athletes with ten
// answers each, a full note and every supplement.
func createRegistration() map[string]any {
	body := team(100, 0)
	body["customFields"] = answers(100, 10, 0)
	ids, selections := supplements(50)
	body["selectedSupplementIds"], body["supplementSelections"] = ids, selections
	body["eventId"] = ID("evt_", 1)
	body["bibRaceNumber"] = 1234
	body["checkedInAt"] = repeat(100, func(i int) any { return fmt.Sprintf("2025-05-01T08:%02d:00.123+02:00", i%60) })
	body["note"] = strings.Repeat("Pagado en mostrador; revisar certificado médico. ", 100)[:5000]
	return body
}

// updateRegistration is the create body with notifyEmailChange.
func updateRegistration() map[string]any {
	body := createRegistration()
	body["notifyEmailChange"] = true
	return body
}

// searchRegistrations uses every filter at its bound: 20 custom field filters of 100 option
// values and 20 supplement filters of 50 options.
func searchRegistrations() map[string]any {
	return map[string]any{
		"search": strings.Repeat("ñ", 100), "athleteId": ID("ath_", 1), "eventId": ID("evt_", 1),
		"ticketId": ID("tkt_", 1), "categoryId": ID("cat_", 1), "gender": "FEMALE", "ageMin": 18, "ageMax": 120,
		"checkIn": "checked-in", "sortBy": "category-asc", "status": "COMPLETED", "ticketStatus": "CANCELLED",
		"participantDataStatus": "PENDING_PARTICIPANTS",
		"cancelledFrom":         repeat(10, func(int) any { return "2025-01-01T00:00:00.000000000+02:00" }),
		"cancelledTo":           repeat(10, func(int) any { return "2025-02-01T00:00:00.000000000+02:00" }),
		"customFieldFilters": repeat(20, func(i int) any {
			return map[string]any{"fieldId": ID("fld_", i), "operator": "has-any",
				"value": repeat(100, func(j int) any { return fmt.Sprintf("Option number %d", j) })}
		}),
		"supplementFilters": repeat(20, func(i int) any {
			return map[string]any{"supplementId": ID("sup_", i), "optionIds": repeat(50, func(j int) any { return ID("opt_", j) })}
		}),
		"limit": 100, "offset": json.Number("9007199254740991"),
	}
}

// receipt is a receipt request for the longest e-mail address.
func receipt() map[string]any {
	return map[string]any{"email": LongestEmail()}
}

// waitlistJoin is the largest legitimate waitlist join: the longest e-mail, a name of 120
// characters with accents and an offer page URL of 2048 characters.
func waitlistJoin() map[string]any {
	base := "https://shop.crossfit-example-club.com/events/evt_7Hq2LmN4pR8sT1vW3xY5zA9b/waitlist?campaign="
	return map[string]any{
		"categoryId": ID("cat_", 1), "email": LongestEmail(), "name": strings.Repeat("Á", 120), "teamSize": 100,
		"offerUrl": base + strings.Repeat("a", 2048-len(base)),
	}
}

// webhookEndpoint is the largest legitimate webhook endpoint: a URL of 2048 characters, every
// event type and a description of 500 characters with accents.
func webhookEndpoint() map[string]any {
	base := "https://hooks.crossfit-example-club.com/podium/webhooks?token="
	return map[string]any{
		"url": base + strings.Repeat("a1B2c3D4", 2048/8)[:2048-len(base)],
		"eventTypes": []any{"registration.created", "registration.updated", "registration.cancelled", "order.completed",
			"order.failed", "order.refunded", "checkout.session.expired", "event.updated", "pricing.changed", "ticket.checked_in"},
		"description": strings.Repeat("Inscripciones y pagos hacia el CRM del club, región de Málaga. ", 10)[:500],
	}
}

// webhookEndpointUpdate is the create body with enabled.
func webhookEndpointUpdate() map[string]any {
	body := webhookEndpoint()
	body["enabled"] = true
	return body
}

// recoverDeliveries is a recover body with the longest date-time a client writes.
func createRefund() map[string]any {
	return map[string]any{
		"orderId":       "ord_" + strings.Repeat("a", 60),
		"ticketIds":     repeat(20, func(i int) any { return ID("tkt_", i) + strings.Repeat("t", 40) }),
		"amount":        json.Number("9007199254740991"),
		"reason":        strings.Repeat("Lesión de rodilla antes de la prueba; devolución completa. ", 10)[:500],
		"cancelTickets": true,
	}
}

func recoverDeliveries() map[string]any {
	return map[string]any{"since": "2025-05-01T08:00:00.123456789+02:00"}
}

// transferRegistration is a transfer body with the longest realistic athlete.
func transferRegistration() map[string]any {
	return map[string]any{"athlete": athlete(0), "waiversAccepted": waivers(10)}
}

// signRegistrationWaivers signs the waivers a transfer can leave pending: an event has fewer
// than 10.
func signRegistrationWaivers() map[string]any {
	return map[string]any{"waiversAccepted": waivers(10)}
}

// LongestEmail is a valid e-mail address of 254 characters.
func LongestEmail() string {
	return strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." +
		strings.Repeat("d", 57) + ".es"
}

// checkInScan is the largest scan: a ticket and an event with a bib (the schema takes both;
// the service refuses one of them), the longest nonce and device name, a date-time with
// nanoseconds and an offset, and team.
func checkInScan() map[string]any {
	return map[string]any{
		"ticketId": ID("tkt_", 1), "eventId": ID("evt_", 1), "bibRaceNumber": json.Number("9007199254740991"),
		"nonce":     strings.Repeat("gate-a:scan-0001.", 8)[:120],
		"scannedAt": "2026-05-16T07:45:12.123456789+02:00",
		"device":    strings.Repeat("Puerta Norte — Lector Nº 3 ", 5)[:120],
		"team":      true,
	}
}

// checkInBatch is the largest batch: 500 of the largest scans.
func checkInBatch() map[string]any {
	return map[string]any{"scans": repeat(500, func(int) any { return checkInScan() })}
}
