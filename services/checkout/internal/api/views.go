package api

import "github.com/podiumhq/podium/services/checkout/internal/domain"

// summaryView is the checkout summary. It satisfies the contract's CheckoutSummary (lineItems
// per registration, fees as the total of fees) and adds the breakdown: registrations with
// their priced lines, feeItems and feesTotal.
type summaryView struct {
	EventID       string             `json:"eventId"`
	Currency      string             `json:"currency"`
	LineItems     []lineItemView     `json:"lineItems"`
	Registrations []registrationView `json:"registrations"`
	Subtotal      int64              `json:"subtotal"`
	Discount      int64              `json:"discount"`
	Fees          int64              `json:"fees"`
	FeeItems      []domain.FeeLine   `json:"feeItems"`
	FeesTotal     int64              `json:"feesTotal"`
	Total         int64              `json:"total"`
	Promocode     *promocodeView     `json:"promocode,omitempty"`
}

type lineItemView struct {
	Kind         string           `json:"kind"`
	GuestIndex   *int             `json:"guestIndex,omitempty"`
	CategoryID   string           `json:"categoryId"`
	CategoryName string           `json:"categoryName"`
	Price        int64            `json:"price"`
	Supplements  []supplementView `json:"supplements"`
	Subtotal     int64            `json:"subtotal"`
	Discount     int64            `json:"discount"`
	Fees         int64            `json:"fees"`
	Total        int64            `json:"total"`
}

type supplementView struct {
	SupplementID string `json:"supplementId"`
	OptionID     string `json:"optionId,omitempty"`
	Name         string `json:"name"`
	Quantity     int64  `json:"quantity"`
	UnitAmount   int64  `json:"unitAmount"`
	Amount       int64  `json:"amount"`
}

type registrationView struct {
	CategoryID string        `json:"categoryId"`
	GuestIndex *int          `json:"guestIndex,omitempty"`
	LineItems  []domain.Line `json:"lineItems"`
	Subtotal   int64         `json:"subtotal"`
	Discount   int64         `json:"discount"`
	Fees       int64         `json:"fees"`
	Total      int64         `json:"total"`
}

type promocodeView struct {
	Code    string `json:"code"`
	Applied bool   `json:"applied"`
}

func newSummaryView(q domain.Quote) summaryView {
	v := summaryView{
		EventID: q.EventID, Currency: q.Currency, Subtotal: q.Subtotal, Discount: q.Discount,
		Fees: q.FeesTotal, FeeItems: q.Fees, FeesTotal: q.FeesTotal, Total: q.Total,
		LineItems: []lineItemView{}, Registrations: []registrationView{},
	}
	if v.FeeItems == nil {
		v.FeeItems = []domain.FeeLine{}
	}
	if q.Promocode != "" {
		v.Promocode = &promocodeView{Code: q.Promocode, Applied: true}
	}
	for _, r := range q.Registrations {
		item := lineItemView{
			Kind: "REGISTRATION", GuestIndex: r.GuestIndex, CategoryID: r.CategoryID, CategoryName: r.CategoryName,
			Supplements: []supplementView{}, Subtotal: r.Subtotal, Discount: r.Discount, Fees: r.Fees, Total: r.Total,
		}
		if r.GuestIndex != nil {
			item.Kind = "GUEST"
		}
		for _, l := range r.Lines {
			if l.Kind == domain.LineCategory {
				item.Price = l.Amount
				continue
			}
			item.Supplements = append(item.Supplements, supplementView{
				SupplementID: l.ID, OptionID: l.OptionID, Name: l.Name, Quantity: l.Quantity, UnitAmount: l.UnitAmount, Amount: l.Amount,
			})
		}
		v.LineItems = append(v.LineItems, item)
		v.Registrations = append(v.Registrations, registrationView{
			CategoryID: r.CategoryID, GuestIndex: r.GuestIndex, LineItems: r.Lines,
			Subtotal: r.Subtotal, Discount: r.Discount, Fees: r.Fees, Total: r.Total,
		})
	}
	return v
}
