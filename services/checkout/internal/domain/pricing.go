package domain

import (
	"fmt"
	"slices"

	"github.com/podiumhq/podium/libs/fault"
)

// Line item kinds of a priced registration.
const (
	LineCategory   = "CATEGORY"
	LineSupplement = "SUPPLEMENT"
)

// MaxGuests is the most guest registrations an order may have.
const MaxGuests = 10

// SupplementSelection is an option chosen for an OPTIONS supplement.
type SupplementSelection struct {
	SupplementID string `json:"supplementId"`
	OptionID     string `json:"optionId"`
}

// Selection is one registration to price: the main one (GuestIndex nil) or a guest's.
type Selection struct {
	// Path prefixes the field paths of problems: "" or "guestRegistrations[2].".
	Path                 string
	GuestIndex           *int
	CategoryID           string
	SupplementIDs        []string
	SupplementSelections []SupplementSelection
	// Athletes is how many athletes per-athlete supplements are charged for; zero means not
	// known yet (the summary), and the category's minimum team size is used.
	Athletes int
}

// Quote is the price of an order, in minor units of Currency.
type Quote struct {
	EventID       string              `json:"eventId"`
	Currency      string              `json:"currency"`
	Registrations []RegistrationQuote `json:"registrations"`
	Subtotal      int64               `json:"subtotal"`
	Discount      int64               `json:"discount"`
	Fees          []FeeLine           `json:"fees"`
	FeesTotal     int64               `json:"feesTotal"`
	Total         int64               `json:"total"`
	// Promocode is the code applied, empty without one.
	Promocode string `json:"promocode,omitempty"`
}

// RegistrationQuote is the price of one registration. Fees holds its per-registration fees;
// per-order fees are only in the order's FeesTotal.
type RegistrationQuote struct {
	CategoryID   string `json:"categoryId"`
	CategoryName string `json:"categoryName"`
	GuestIndex   *int   `json:"guestIndex,omitempty"`
	Lines        []Line `json:"lines"`
	Subtotal     int64  `json:"subtotal"`
	Discount     int64  `json:"discount"`
	Fees         int64  `json:"fees"`
	Total        int64  `json:"total"`
}

// Line is a priced item of a registration: its category or a supplement.
type Line struct {
	Kind       string `json:"kind"`
	ID         string `json:"id"`
	OptionID   string `json:"optionId,omitempty"`
	Name       string `json:"name"`
	Quantity   int64  `json:"quantity"`
	UnitAmount int64  `json:"unitAmount"`
	Amount     int64  `json:"amount"`
}

// FeeLine is what one fee of the event adds to the order.
type FeeLine struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Amount int64  `json:"amount"`
}

// ApplyBasisPoints returns amount × bp / 10000 rounded half up (1 basis point = 0.01 %),
// for non-negative amount and bp.
func ApplyBasisPoints(amount, bp int64) int64 {
	return (amount*bp + 5000) / 10000
}

// Price prices the registrations of an order on ev at the category's active price, with
// their supplements, the promocode (nil for none) and the event's fees.
//
// A promocode is applied to each registration whose category it allows, on that
// registration's category price plus supplements: a percentage (basis points, rounded half
// up) or a fixed amount, never below zero. A promocode that allows none of the order's
// categories is refused. Fees are computed on the discounted amounts and charged only on what
// is paid: a per-registration fee applies to each registration whose discounted subtotal is
// positive, a per-order fee once when the order's discounted subtotal is positive; a PERCENT
// fee is rounded half up.
func Price(ev *Event, sels []Selection, promo *Promocode) (Quote, error) {
	if len(sels) > MaxGuests+1 {
		return Quote{}, fault.NewUnprocessable(fmt.Sprintf("guestRegistrations must have at most %d items", MaxGuests))
	}
	q := Quote{EventID: ev.ID, Currency: ev.Currency}
	var bad fault.Problems
	applied := false
	for _, s := range sels {
		cat, err := ev.VisibleCategory(s.CategoryID)
		if err != nil {
			return Quote{}, err
		}
		r := RegistrationQuote{CategoryID: cat.ID, CategoryName: cat.Name, GuestIndex: s.GuestIndex}
		r.Lines = append(r.Lines, Line{Kind: LineCategory, ID: cat.ID, Name: cat.Name, Quantity: 1, UnitAmount: cat.ActivePrice, Amount: cat.ActivePrice})
		athletes := s.Athletes
		if athletes <= 0 {
			athletes = max(cat.TeamMin, 1)
		}
		r.Lines = append(r.Lines, supplementLines(ev, s, int64(athletes), &bad)...)
		for _, l := range r.Lines {
			r.Subtotal += l.Amount
		}
		if promo != nil && promo.allows(cat.ID) {
			applied = true
			r.Discount = promo.discount(r.Subtotal)
		}
		q.Registrations = append(q.Registrations, r)
	}
	if err := bad.Err(fault.Unprocessable); err != nil {
		return Quote{}, err
	}
	if promo != nil {
		if !applied {
			return Quote{}, InvalidPromocode(promo.Code)
		}
		q.Promocode = promo.Code
	}
	for _, r := range q.Registrations {
		q.Subtotal += r.Subtotal
		q.Discount += r.Discount
	}
	q.addFees(ev.Fees)
	q.Total = q.Subtotal - q.Discount + q.FeesTotal
	return q, nil
}

// supplementLines prices the supplements of s, reporting unknown, inactive or misused ones.
func supplementLines(ev *Event, s Selection, athletes int64, bad *fault.Problems) []Line {
	var lines []Line
	seen := map[string]bool{}
	for i, id := range s.SupplementIDs {
		path := fmt.Sprintf("%sselectedSupplementIds[%d]", s.Path, i)
		sup, ok := ev.Supplement(id)
		switch {
		case !ok:
			bad.Addf("%s %q is not a supplement of this event", path, id)
		case !sup.Active:
			bad.Addf("%s %q (%s) is no longer available", path, id, sup.Name)
		case sup.Kind != SupplementSinglePrice:
			bad.Addf("%s %q (%s) has options: choose one in supplementSelections", path, id, sup.Name)
		case seen[id]:
			bad.Addf("%s %q is chosen more than once", path, id)
		default:
			seen[id] = true
			lines = append(lines, supplementLine(sup, "", sup.Name, sup.Price, athletes))
		}
	}
	for i, sel := range s.SupplementSelections {
		path := fmt.Sprintf("%ssupplementSelections[%d]", s.Path, i)
		sup, ok := ev.Supplement(sel.SupplementID)
		switch {
		case !ok:
			bad.Addf("%s.supplementId %q is not a supplement of this event", path, sel.SupplementID)
		case !sup.Active:
			bad.Addf("%s.supplementId %q (%s) is no longer available", path, sel.SupplementID, sup.Name)
		case sup.Kind != SupplementOptions:
			bad.Addf("%s.supplementId %q (%s) has a single price: list it in selectedSupplementIds", path, sel.SupplementID, sup.Name)
		case seen[sel.SupplementID]:
			bad.Addf("%s.supplementId %q is chosen more than once", path, sel.SupplementID)
		default:
			idx := slices.IndexFunc(sup.Options, func(o SupplementOption) bool { return o.ID == sel.OptionID })
			if idx < 0 {
				bad.Addf("%s.optionId %q is not an option of %q", path, sel.OptionID, sup.Name)
				continue
			}
			opt := sup.Options[idx]
			if !opt.Active {
				bad.Addf("%s.optionId %q (%s) is no longer available", path, sel.OptionID, opt.Name)
				continue
			}
			seen[sel.SupplementID] = true
			lines = append(lines, supplementLine(sup, opt.ID, sup.Name+": "+opt.Name, opt.Price, athletes))
		}
	}
	return lines
}

func supplementLine(sup Supplement, optionID, name string, price, athletes int64) Line {
	qty := int64(1)
	if sup.PerAthlete {
		qty = athletes
	}
	return Line{Kind: LineSupplement, ID: sup.ID, OptionID: optionID, Name: name, Quantity: qty, UnitAmount: price, Amount: qty * price}
}

// addFees adds the event's fees on the discounted amounts.
func (q *Quote) addFees(fees []Fee) {
	net := q.Subtotal - q.Discount
	for _, f := range fees {
		line := FeeLine{ID: f.ID, Name: f.Name}
		if f.PerOrder {
			if net > 0 {
				line.Amount = f.charge(net)
			}
		} else {
			for i := range q.Registrations {
				r := &q.Registrations[i]
				if rnet := r.Subtotal - r.Discount; rnet > 0 {
					amount := f.charge(rnet)
					r.Fees += amount
					line.Amount += amount
				}
			}
		}
		q.Fees = append(q.Fees, line)
		q.FeesTotal += line.Amount
	}
	for i := range q.Registrations {
		r := &q.Registrations[i]
		r.Total = r.Subtotal - r.Discount + r.Fees
	}
}

// charge is the fee on a positive amount.
func (f Fee) charge(amount int64) int64 {
	if f.Type == AmountPercent {
		return ApplyBasisPoints(amount, f.BasisPoints)
	}
	return f.Amount
}

// PaymentLine is a line of the hosted payment page.
type PaymentLine struct {
	Name       string
	Quantity   int64
	UnitAmount int64
}

// PaymentLines turns the quote into the lines shown on the hosted payment page, which add up
// to Total: each registration's lines (category, supplements) as they are, or, when a
// promocode lowered it, one line with the registration's discounted amount; then one line per
// fee. Lines of zero are left out. teamNames are the registrations' team names, in order.
func (q Quote) PaymentLines(eventName string, teamNames []string) []PaymentLine {
	var out []PaymentLine
	for i, r := range q.Registrations {
		team := ""
		if i < len(teamNames) {
			team = " (" + teamNames[i] + ")"
		}
		if r.Discount > 0 {
			if net := r.Subtotal - r.Discount; net > 0 {
				out = append(out, PaymentLine{Name: fmt.Sprintf("%s: %s%s, promocode %s", eventName, r.CategoryName, team, q.Promocode), Quantity: 1, UnitAmount: net})
			}
			continue
		}
		for _, l := range r.Lines {
			if l.Amount == 0 {
				continue
			}
			name := l.Name + team
			if l.Kind == LineCategory {
				name = eventName + ": " + name
			}
			out = append(out, PaymentLine{Name: name, Quantity: l.Quantity, UnitAmount: l.UnitAmount})
		}
	}
	for _, f := range q.Fees {
		if f.Amount > 0 {
			out = append(out, PaymentLine{Name: f.Name, Quantity: 1, UnitAmount: f.Amount})
		}
	}
	return out
}
