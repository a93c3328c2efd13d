package checkouttest

import (
	"encoding/json"
	"time"
)

// Ids of the fixtures.
const (
	OrgID           = "org_test"
	OtherOrgID      = "org_else"
	Site            = "https://shop.example"
	KeyID           = "key_pub_1"
	EventID         = "evt_summer"
	PreviewToken    = "prv_secret"
	CatRX           = "cat_rx"
	CatTeam         = "cat_team"
	CatPrivate      = "cat_private"
	CatDraft        = "cat_draft"
	WaiverLiability = "wvr_liability"
	WaiverMinors    = "wvr_minors"
	SupShirt        = "sup_shirt"
	SupMeal         = "sup_meal"
	SupHoodie       = "sup_hoodie"
	SupOld          = "sup_old"
)

// Event is the catalog document of a published event on 2027-06-12 in EUR:
//   - categories: cat_rx (individual, 5500), cat_team (2 to 3 athletes, 10000), cat_private
//     (private), cat_draft (unpublished);
//   - waivers: wvr_liability v2 (required), wvr_minors v1 (required, for minors);
//   - supplements: sup_shirt 1500 per registration, sup_meal 800 per athlete, sup_hoodie
//     options opt_m 3000 / opt_l 3200 / opt_xl (inactive), sup_old (inactive);
//   - promocodes: EARLY10 (10 %), FIVEOFF (500 off), FREE (100 %), ONCE (10 %, one use),
//     LATER (not valid yet), OVER (expired), TEAMS (20 %, cat_team only);
//   - fees: fee_service 5 % per registration, fee_booking 100 per order.
func Event() map[string]any {
	now := time.Now().UTC()
	return map[string]any{
		"id": EventID, "organizerId": OrgID, "name": "Summer Throwdown", "status": "PUBLISHED", "private": false,
		"startDate": "2027-06-12", "endDate": "2027-06-13", "timezone": "Europe/Madrid", "currency": "EUR",
		"previewToken": PreviewToken, "version": 7, "updatedAt": "2026-11-22T10:00:00Z", "transfersUntil": nil,
		"categories": []any{
			category(CatRX, "RX Men", 1, 1, 5500, false, true),
			category(CatTeam, "Teams of 2-3", 2, 3, 10000, false, true),
			category(CatPrivate, "Invitational", 1, 1, 4000, true, true),
			category(CatDraft, "Masters", 1, 1, 4000, false, false),
		},
		"formFields": []any{},
		"waivers": []any{
			map[string]any{"id": WaiverLiability, "title": "Liability", "version": 2, "required": true, "forMinors": false},
			map[string]any{"id": WaiverMinors, "title": "Parental consent", "version": 1, "required": true, "forMinors": true},
		},
		"supplements": []any{
			map[string]any{"id": SupShirt, "name": "Event T-shirt", "kind": "SINGLE_PRICE", "price": 1500, "active": true, "per": "REGISTRATION", "options": []any{}},
			map[string]any{"id": SupMeal, "name": "Lunch", "kind": "SINGLE_PRICE", "price": 800, "active": true, "per": "ATHLETE", "options": []any{}},
			map[string]any{"id": SupHoodie, "name": "Hoodie", "kind": "OPTIONS", "price": nil, "active": true, "per": "REGISTRATION", "options": []any{
				map[string]any{"id": "opt_m", "name": "M", "price": 3000, "active": true},
				map[string]any{"id": "opt_l", "name": "L", "price": 3200, "active": true},
				map[string]any{"id": "opt_xl", "name": "XL", "price": 3200, "active": false},
			}},
			map[string]any{"id": SupOld, "name": "Old bag", "kind": "SINGLE_PRICE", "price": 500, "active": false, "per": "REGISTRATION", "options": []any{}},
		},
		"promocodes": []any{
			promocode("EARLY10", "PERCENT", 1000, nil, nil, nil, nil),
			promocode("FIVEOFF", "FIXED", nil, 500, nil, nil, nil),
			promocode("FREE", "PERCENT", 10000, nil, nil, nil, nil),
			promocode("ONCE", "PERCENT", 1000, nil, nil, nil, 1),
			promocode("LATER", "PERCENT", 1000, nil, now.AddDate(1, 0, 0).Format(time.RFC3339), nil, nil),
			promocode("OVER", "PERCENT", 1000, nil, nil, now.AddDate(0, 0, -1).Format(time.RFC3339), nil),
			map[string]any{"code": "TEAMS", "type": "PERCENT", "basisPoints": 2000, "amount": nil, "validFrom": nil, "validUntil": nil, "maxUses": nil, "categoryIds": []any{CatTeam}},
		},
		"fees": []any{
			map[string]any{"id": "fee_service", "name": "Service fee", "type": "PERCENT", "basisPoints": 500, "amount": nil, "per": "REGISTRATION"},
			map[string]any{"id": "fee_booking", "name": "Booking fee", "type": "FIXED", "basisPoints": nil, "amount": 100, "per": "ORDER"},
		},
	}
}

func category(id, name string, minTeam, maxTeam int, price int64, private, published bool) map[string]any {
	return map[string]any{
		"id": id, "name": name, "teamSize": map[string]any{"min": minTeam, "max": maxTeam}, "gender": "OPEN",
		"ageMin": nil, "ageMax": nil, "quota": 50, "basePrice": price + 1000, "activePrice": price, "confirmed": 0, "held": 0,
		"private": private, "published": published,
	}
}

func promocode(code, typ string, bp, amount, from, until, maxUses any) map[string]any {
	return map[string]any{"code": code, "type": typ, "basisPoints": bp, "amount": amount, "validFrom": from, "validUntil": until, "maxUses": maxUses, "categoryIds": []any{}}
}

// Athlete returns an athlete born on birthDate.
func Athlete(name, birthDate string) map[string]any {
	return map[string]any{"fullname": name, "idNumber": "X1234567", "email": "ana@example.com", "phone": "+34600111222", "gender": "FEMALE", "birthDate": birthDate}
}

// Signature is a legal signature of the fixture event's waivers at their current versions.
func Signature() map[string]any {
	return map[string]any{
		"signerName": "Ana Atleta", "signerIdNumber": "X1234567", "authorityAccepted": true, "locale": "en",
		"waiverVersions": []any{map[string]any{"waiverId": WaiverLiability, "version": 2}, map[string]any{"waiverId": WaiverMinors, "version": 1}},
		"strokes":        []any{[]any{map[string]any{"x": 0.1, "y": 0.2, "t": 0}, map[string]any{"x": 0.4, "y": 0.5, "t": 120}}},
	}
}

// Purchase is a valid checkout session body for one adult in cat_rx (total 5875: 5500, 5 %
// service fee 275, booking fee 100).
func Purchase() map[string]any {
	return map[string]any{
		"eventId": EventID, "categoryId": CatRX, "teamName": "Team A",
		"athletes":        []any{Athlete("Ana Atleta", "1990-04-01")},
		"waiversAccepted": map[string]any{WaiverLiability: true},
		"legalSignature":  Signature(),
		"termsAccepted":   true,
		"ipEnrichment":    map[string]any{"provider": "ipapico", "countryCode": "ES", "city": "Madrid", "risk": map[string]any{"vpn": false}},
		"purchaserEmail":  "ana@example.com", "purchaserName": "Ana Atleta",
		"successUrl": Site + "/thanks?step=done", "cancelUrl": Site + "/cart",
	}
}

// Clone deep-copies a JSON-like map, so a test can change a fixture freely.
func Clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}
