package podium_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	podium "github.com/podiumhq/podium/clients/go"
)

// The test-mode purchase of docs/integration.md: search, price, a checkout session and its
// test completion (system/clients runs it against the whole system).
func Example() {
	ctx := context.Background()
	api, err := podium.New("http://localhost:8080", os.Getenv("PODIUM_SECRET_KEY")) // pdm_sk_test_…
	if err != nil {
		log.Fatal(err)
	}
	shop, err := podium.NewBrowser("http://localhost:8080", os.Getenv("PODIUM_PUBLISHABLE_KEY"), "http://localhost:5173")
	if err != nil {
		log.Fatal(err)
	}
	found, err := api.OrganizerSearchEventsWithResponse(ctx, podium.OrganizerSearchEventsJSONRequestBody{Search: ptr("summer")})
	if err != nil {
		log.Fatal(err)
	}
	event, err := api.OrganizerGetEventWithResponse(ctx, found.JSON201.Data[0].Id)
	if err != nil {
		log.Fatal(err)
	}
	cards, err := shop.BrowserGetPricingCardsWithResponse(ctx, event.JSON200.Id, &podium.BrowserGetPricingCardsParams{})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range cards.JSON200.Cards {
		fmt.Println(c.Name, c.ActivePrice, cards.JSON200.Currency)
	}
	session, err := shop.BrowserCheckoutSessionWithResponse(ctx, &podium.BrowserCheckoutSessionParams{}, podium.CheckoutSessionRequest{
		EventId: event.JSON200.Id, CategoryId: event.JSON200.Categories[0].Id, TeamName: "Ana & Bea",
		Athletes: podium.Athletes{}, WaiversAccepted: &podium.WaiverMap{}, TermsAccepted: true,
		PurchaserEmail: "ana@example.com", PurchaserName: "Ana Example", IdempotencyKey: ptr("purchase-1"),
		SuccessUrl: "http://localhost:5173/thanks", CancelUrl: "http://localhost:5173/cart",
	})
	var apiErr *podium.APIError
	if errors.As(err, &apiErr) {
		log.Fatalf("%s (%d, request %s): %v", apiErr.Code, apiErr.StatusCode, apiErr.RequestID, apiErr.Problems)
	}
	outcome, err := api.OrganizerCompleteTestCheckoutSessionWithResponse(ctx, session.JSON201.SessionId)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(outcome.JSON202.OrderId, outcome.JSON202.Outcome)
}

func ExampleVerifyWebhook() {
	secret := os.Getenv("PODIUM_WEBHOOK_SECRET") // the endpoint's, whsec_…
	http.HandleFunc("POST /webhooks", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<20))
		if err != nil {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		event, err := podium.VerifyWebhook(secret, r.Header, body)
		if err != nil {
			http.Error(w, "not verified", http.StatusUnauthorized)
			return
		}
		if event.Type == podium.WebhookMessageTypeOrderCompleted {
			var order podium.Order
			if err := json.Unmarshal(event.Data.Object, &order); err == nil {
				log.Println(order.OrderId, order.Status, event.Data.Livemode)
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// The waitlist of docs/integration.md: a buyer joins a sold-out category, buys the place an
// offer holds, and the organizer lists, offers by hand and closes the waitlist.
func Example_waitlist() {
	ctx := context.Background()
	api, err := podium.New("http://localhost:8080", os.Getenv("PODIUM_SECRET_KEY"))
	if err != nil {
		log.Fatal(err)
	}
	shop, err := podium.NewBrowser("http://localhost:8080", os.Getenv("PODIUM_PUBLISHABLE_KEY"), "http://localhost:5173")
	if err != nil {
		log.Fatal(err)
	}
	eventID, categoryID := os.Getenv("PODIUM_EVENT_ID"), os.Getenv("PODIUM_CATEGORY_ID")
	entry, err := shop.BrowserJoinWaitlistWithResponse(ctx, eventID, &podium.BrowserJoinWaitlistParams{}, podium.WaitlistJoinRequest{
		CategoryId: categoryID, Email: "lucia@example.com", Name: "Lucía García", TeamSize: 1,
		OfferUrl: "http://localhost:5173/?event=" + eventID,
	})
	if err != nil {
		log.Fatal(err)
	}
	switch {
	case entry.JSON409 != nil && entry.JSON409.Code == podium.ErrorCodeWaitlistEmailLimit:
		log.Fatal("the e-mail already waits in 5 of the organizer's waitlists")
	case entry.JSON429 != nil: // per address, or 5 new entries an hour per e-mail
		log.Fatal("retry after ", entry.HTTPResponse.Header.Get("Retry-After"), " seconds")
	}
	fmt.Println(entry.JSON201.Status, entry.JSON201.Position)
	purchase := podium.CheckoutSessionRequest{EventId: eventID, CategoryId: categoryID}
	purchase.WaitlistOffer = ptr(os.Getenv("PODIUM_WAITLIST_OFFER")) // the offer link's waitlistOffer
	if _, err := shop.BrowserCheckoutSessionWithResponse(ctx, &podium.BrowserCheckoutSessionParams{}, purchase); err != nil {
		log.Println(err)
	}
	line, err := api.OrganizerListWaitlistWithResponse(ctx, categoryID, &podium.OrganizerListWaitlistParams{})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range line.JSON200.Data {
		fmt.Println(e.Id, e.Email, e.Status, e.OfferExpiresAt)
	}
	if len(line.JSON200.Data) > 0 {
		if _, err := api.OrganizerOfferWaitlistEntryWithResponse(ctx, line.JSON200.Data[0].Id); err != nil {
			log.Println(err) // 409 quota_exhausted: no place free
		}
	}
	closed, err := api.OrganizerCloseWaitlistWithResponse(ctx, categoryID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(closed.JSON200.ClosedEntries)
}

func ptr[T any](v T) *T { return &v }
