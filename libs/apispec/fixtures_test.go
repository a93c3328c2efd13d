package apispec

import (
	"fmt"
	"math"
)

// athlete returns a valid athlete.
func athlete() map[string]any {
	return map[string]any{
		"fullname":  "Ana García",
		"idNumber":  "12345678Z",
		"email":     "ana.garcia@example.com",
		"phone":     "+34600111222",
		"gender":    "FEMALE",
		"birthDate": "1990-05-17",
	}
}

// createRegistration returns a valid create-registration body.
func createRegistration() map[string]any {
	return map[string]any{
		"eventId":       "evt_01HZX3",
		"categoryId":    "cat_rx_female",
		"teamName":      "Team Atlas",
		"club":          "CrossFit Norte",
		"bibRaceNumber": 12,
		"athletes":      []any{athlete()},
		"checkedInAt":   []any{"2025-05-01T08:00:00Z"},
		"note":          "Paid at the desk",
		"customFields": []any{
			map[string]any{"fieldId": "fld_shirt", "value": "M"},
		},
		"selectedSupplementIds": []any{"sup_lunch"},
		"supplementSelections": []any{
			map[string]any{"supplementId": "sup_shirt", "optionId": "opt_m"},
		},
	}
}

// searchRegistrations returns a valid search-registrations body using every filter.
func searchRegistrations() map[string]any {
	return map[string]any{
		"search":                "garcia",
		"athleteId":             "ath_1",
		"eventId":               "evt_1",
		"ticketId":              "tkt_1",
		"categoryId":            "cat_1",
		"gender":                "FEMALE",
		"ageMin":                18,
		"ageMax":                40,
		"checkIn":               "pending",
		"sortBy":                "createdAt-desc",
		"status":                "COMPLETED",
		"ticketStatus":          "ALL",
		"participantDataStatus": "READY",
		"cancelledFrom":         []any{"2025-01-01T00:00:00Z"},
		"cancelledTo":           []any{"2025-02-01T00:00:00Z"},
		"customFieldFilters": []any{
			map[string]any{"fieldId": "fld_shirt", "operator": "equals", "value": "M"},
		},
		"supplementFilters": []any{
			map[string]any{"supplementId": "sup_shirt", "optionIds": []any{"opt_m"}},
		},
		"limit":  20,
		"offset": 40,
	}
}

// searchEvents returns a valid organizer events search body.
func searchEvents() map[string]any {
	return map[string]any{"search": "madrid", "status": "PUBLISHED", "limit": 50, "offset": 0}
}

// browserSearchEvents returns a valid browser events search body.
func browserSearchEvents() map[string]any {
	return map[string]any{"search": "madrid", "limit": 50, "offset": 0}
}

// checkoutSummary returns a valid checkout-summary body.
func checkoutSummary() map[string]any {
	return map[string]any{
		"previewToken":          "prv_abc",
		"categoryId":            "cat_rx_female",
		"promocode":             "SPRING-10",
		"selectedSupplementIds": []any{"sup_lunch"},
		"supplementSelections": []any{
			map[string]any{"supplementId": "sup_shirt", "optionId": "opt_m"},
		},
		"guestRegistrations": []any{
			map[string]any{"categoryId": "cat_scaled", "selectedSupplementIds": []any{}},
		},
		"purchaserEmail": "buyer@example.com",
	}
}

// stroke returns a signature stroke of n points drawn along a curve.
func stroke(n, offset int) []any {
	points := make([]any, n)
	for i := range points {
		f := float64(i) / float64(n)
		points[i] = map[string]any{
			"x": math.Round((0.1+0.8*f)*1000) / 1000,
			"y": math.Round((0.5+0.3*math.Sin(f*6+float64(offset)))*1000) / 1000,
			"t": i * 16,
		}
	}
	return points
}

// guest returns a valid guest registration.
func guest(i int) map[string]any {
	return map[string]any{
		"guestEmail":            fmt.Sprintf("guest%d@example.com", i),
		"guestName":             "Luis Pérez",
		"categoryId":            "cat_scaled",
		"teamName":              fmt.Sprintf("Guests %d", i),
		"club":                  "Box Sur",
		"athletes":              []any{athlete()},
		"customFields":          []any{map[string]any{"fieldId": "fld_shirt", "value": "L"}},
		"waiversAccepted":       map[string]any{"wvr_liability": true},
		"selectedSupplementIds": []any{},
		"supplementSelections":  []any{},
	}
}

// checkoutSession returns a realistic, complete checkout-session body: two
// athletes, a deferred place, a signature of three strokes, a guest and IP
// metadata.
func checkoutSession() map[string]any {
	second := athlete()
	second["fullname"], second["gender"], second["email"] = "Marta Ruiz", "FEMALE", "marta.ruiz@example.org"
	return map[string]any{
		"eventId":        "evt_01HZX3",
		"idempotencyKey": "chk:2025-05-01:7f3a9c1e",
		"categoryId":     "cat_rx_female",
		"teamName":       "Team Atlas",
		"club":           "CrossFit Norte",
		"promocode":      "SPRING-10",
		"athletes":       []any{athlete(), second},
		"deferredTeamCompletion": map[string]any{
			"pendingParticipantCount":     1,
			"pendingParticipantPositions": []any{2},
			"slotGenders":                 []any{"FEMALE"},
			"participantWaivers": []any{
				map[string]any{"waiversAccepted": map[string]any{"wvr_liability": true}},
			},
		},
		"customFields":    []any{map[string]any{"fieldId": "fld_shirt", "value": "M"}},
		"waiversAccepted": map[string]any{"wvr_liability": true, "wvr_media": false},
		"legalSignature": map[string]any{
			"signerName":                "Ana García",
			"signerIdNumber":            "12345678Z",
			"authorityAccepted":         true,
			"minorRelationship":         "mother",
			"guardianAuthorityAccepted": true,
			"locale":                    "es",
			"waiverVersions": []any{
				map[string]any{"waiverId": "wvr_liability", "version": 3},
				map[string]any{"waiverId": "wvr_media", "version": 1},
			},
			"strokes": []any{stroke(120, 0), stroke(80, 1), stroke(40, 2)},
		},
		"selectedSupplementIds": []any{"sup_lunch"},
		"supplementSelections": []any{
			map[string]any{"supplementId": "sup_shirt", "optionId": "opt_m"},
		},
		"termsAccepted":      true,
		"guestRegistrations": []any{guest(1)},
		"ipEnrichment": map[string]any{
			"provider":    "ipapiis",
			"countryCode": "ES",
			"country":     "Spain",
			"regionCode":  "MD",
			"region":      "Madrid",
			"city":        "Madrid",
			"timezone":    "Europe/Madrid",
			"network":     map[string]any{"asn": "AS3352", "organization": "Telefonica", "isp": "Movistar"},
			"risk":        map[string]any{"vpn": false, "proxy": false, "tor": false, "hosting": false},
		},
		"purchaserEmail":       "ana.garcia@example.com",
		"purchaserName":        "Ana García",
		"checkoutResumeSecret": "r3sume-5ecret-0123456789abcdef0123",
		"successUrl":           "https://shop.example.com/checkout/done?session={CHECKOUT_SESSION_ID}",
		"cancelUrl":            "https://shop.example.com/checkout/cancelled",
	}
}

// receipt returns a valid receipt request body.
func receipt() map[string]any {
	return map[string]any{"email": "ana.garcia@example.com"}
}

// waitlistJoin returns a valid waitlist join body.
func waitlistJoin() map[string]any {
	return map[string]any{"categoryId": "cat_1Qa3Ws5Ed7Rf9Tg1Yh3Uj5Ik", "email": "ana.garcia@example.com", "name": "Ana García",
		"teamSize": 1, "offerUrl": "https://shop.example.com/waitlist"}
}

// webhookEndpoint returns a valid create-webhook-endpoint body using every field.
func webhookEndpoint() map[string]any {
	return map[string]any{
		"url":         "https://hooks.example.com/podium?source=api",
		"eventTypes":  []any{"order.completed", "registration.created"},
		"description": "Orders into the CRM",
	}
}

// webhookEndpointUpdate returns a valid update-webhook-endpoint body using every field.
func webhookEndpointUpdate() map[string]any {
	body := webhookEndpoint()
	body["enabled"] = false
	return body
}

// checkInScan returns a valid scan using every field but bibRaceNumber.
func checkInScan() map[string]any {
	return map[string]any{"ticketId": "tkt_5Rt7Yu9Io1Pa3Sd5Fg7Hj9Kl", "nonce": "gate-a-000123", "scannedAt": "2026-05-16T07:45:12Z",
		"device": "gate-a", "team": true}
}

// checkInBatch returns a valid batch of two scans, one by bib.
func checkInBatch() map[string]any {
	return map[string]any{"scans": []any{checkInScan(), map[string]any{"eventId": "evt_7Hq2LmN4pR8sT1vW3xY5zA9b", "bibRaceNumber": 42,
		"nonce": "gate-a-000124", "scannedAt": "2026-05-16T07:45:20Z", "device": "gate-a"}}}
}

// recoverDeliveries returns a valid recover body.
// createRefund returns a valid refund body using every field.
func createRefund() map[string]any {
	return map[string]any{"orderId": "ord_1", "ticketIds": []any{"tkt_1", "tkt_2"}, "amount": 1500, "reason": "Injured", "cancelTickets": true}
}

func recoverDeliveries() map[string]any {
	return map[string]any{"since": "2025-05-01T08:00:00Z"}
}
