package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	podium "github.com/podiumhq/podium/clients/go"
	"github.com/podiumhq/podium/system/stack"
)

// webhookWait bounds the wait for a webhook: deliveries take milliseconds here.
const webhookWait = time.Minute

// TestGoClientTestModePurchase: with test keys, the Go client searches the organizer's events,
// prices one on the browser surface, creates a registration, opens a checkout session, completes
// it as a test payment, and the order.completed webhook reaches a loopback endpoint registered
// with the test key, verified by podium.VerifyWebhook; everything says livemode false.
func TestGoClientTestModePurchase(t *testing.T) {
	ctx := t.Context()
	api, err := podium.New(sys.GatewayURL(), secret.Key)
	if err != nil {
		t.Fatal(err)
	}
	shop, err := podium.NewBrowser(sys.GatewayURL(), publishable.Key, stack.DemoOrigin)
	if err != nil {
		t.Fatal(err)
	}

	r, err := stack.StartReceiver("127.0.0.1:0", stack.ReceiverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	ep, err := api.OrganizerCreateWebhookEndpointWithResponse(ctx, podium.CreateWebhookEndpointRequest{
		Url: r.EndpointURL(), EventTypes: []podium.WebhookEventType{podium.WebhookEventTypeOrderCompleted},
	})
	if err != nil {
		t.Fatal(err)
	}
	endpoint := ep.JSON201
	if endpoint.Livemode {
		t.Fatalf("an endpoint created with a test key is live: %s", ep.Body)
	}
	t.Cleanup(func() { _, _ = api.OrganizerDeleteWebhookEndpointWithResponse(t.Context(), endpoint.Id) })

	found, err := api.OrganizerSearchEventsWithResponse(ctx, podium.OrganizerSearchEventsJSONRequestBody{Search: ptr("Clients Throwdown")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(found.JSON201.Data, func(e podium.EventSummary) bool { return e.Id == event.ID }) {
		t.Fatalf("the search did not find %s: %s", event.ID, found.Body)
	}
	detail, err := api.OrganizerGetEventWithResponse(ctx, event.ID)
	if err != nil {
		t.Fatal(err)
	}
	cards, err := shop.BrowserGetPricingCardsWithResponse(ctx, event.ID, &podium.BrowserGetPricingCardsParams{})
	if err != nil {
		t.Fatal(err)
	}
	category := event.Category("pairs")
	i := slices.IndexFunc(cards.JSON200.Cards, func(c podium.PricingCard) bool { return c.CategoryId == category })
	if i < 0 || cards.JSON200.Cards[i].ActivePrice != 9000 {
		t.Fatalf("pricing cards %s, want pairs at 9000", cards.Body)
	}

	team := entry(detail.JSON200, category, "Go Organizer")
	created, err := api.OrganizerCreateRegistrationWithResponse(ctx, podium.RegistrationFields{
		EventId: &event.ID, CategoryId: &category, TeamName: &team.name, Athletes: &team.athletes, CustomFields: &team.fields,
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.JSON201.Livemode == nil || *created.JSON201.Livemode {
		t.Fatalf("a registration created with a test key is not test data: %s", created.Body)
	}

	session, err := shop.BrowserCheckoutSessionWithResponse(ctx, &podium.BrowserCheckoutSessionParams{}, purchase(detail.JSON200, category, "Go Buyers"))
	if err != nil {
		t.Fatal(err)
	}
	s := session.JSON201
	if s.OrderId == nil {
		t.Fatalf("the session has no order: %s", session.Body)
	}
	done, err := api.OrganizerCompleteTestCheckoutSessionWithResponse(ctx, s.SessionId)
	if err != nil {
		t.Fatal(err)
	}
	if o := done.JSON202; o.Outcome != podium.TestCheckoutOutcomeOutcomeComplete || o.OrderId != *s.OrderId || bool(o.Livemode) {
		t.Fatalf("test completion %s, want order %s complete", done.Body, *s.OrderId)
	}

	// The outcome is applied asynchronously (checkout, then registration, then webhooks).
	wait, cancel := context.WithTimeout(ctx, webhookWait)
	defer cancel()
	hook, err := r.Wait(wait, func(w stack.Webhook) bool {
		return w.Type == "order.completed" && bytes.Contains(w.Body, []byte(*s.OrderId))
	})
	if err != nil {
		t.Fatalf("no order.completed webhook about %s within %s: %v; received: %v", *s.OrderId, webhookWait, err, r.Webhooks())
	}
	e, err := podium.VerifyWebhook(endpoint.Secret, hook.Header, hook.Body)
	if err != nil {
		t.Fatalf("the order.completed webhook does not verify: %v", err)
	}
	var order podium.Order
	if err := json.Unmarshal(e.Data.Object, &order); err != nil {
		t.Fatal(err)
	}
	if e.Data.ObjectID != *s.OrderId || e.Data.Livemode || order.Status != podium.OrderStatusCOMPLETED || e.ID == "" {
		t.Fatalf("order.completed %s, want order %s COMPLETED in test mode", hook.Body, *s.OrderId)
	}
}

// team is the entry of a team of two in a category: its name, athletes and required fields.
type team struct {
	name     string
	athletes podium.Athletes
	fields   podium.CustomFields
}

// entry fills the event's required form fields of categoryID with their first option.
func entry(ev *podium.EventDetail, categoryID, name string) team {
	tm := team{name: name}
	for i, first := range []string{"Ana", "Bea"} {
		tm.athletes = append(tm.athletes, podium.Athlete{
			Fullname: first + " " + name, IdNumber: fmt.Sprintf("X123456%d", i),
			Email: podium.Email(fmt.Sprintf("%s.%d@example.com", first, time.Now().UnixNano())),
			Phone: "+34600111222", Gender: podium.GenderFEMALE,
			BirthDate: podium.CalendarDate{Time: time.Date(1990, 4, 1, 0, 0, 0, 0, time.UTC)},
		})
	}
	for _, f := range ev.FormFields {
		if !f.Required || (len(f.CategoryIds) > 0 && !slices.Contains(f.CategoryIds, categoryID)) {
			continue
		}
		var value podium.CustomFieldAnswer = "yes"
		if f.Options != nil && len(*f.Options) > 0 {
			value = (*f.Options)[0]
		}
		if f.AppliesTo == podium.FormFieldAppliesToTEAM {
			tm.fields = append(tm.fields, podium.CustomFieldValue{FieldId: f.Id, Value: &value})
			continue
		}
		for i := range tm.athletes {
			tm.fields = append(tm.fields, podium.CustomFieldValue{FieldId: f.Id, Value: &value, AthleteIndex: ptr(i)})
		}
	}
	return tm
}

// purchase is a checkout session's body: the entry, the event's waivers accepted and signed,
// the purchaser and the website's return addresses.
func purchase(ev *podium.EventDetail, categoryID, name string) podium.CheckoutSessionRequest {
	tm := entry(ev, categoryID, name)
	accepted := podium.WaiverMap{}
	var versions []podium.WaiverVersion
	for _, w := range ev.Waivers {
		if !w.ForMinors {
			accepted[w.Id] = true
			versions = append(versions, podium.WaiverVersion{WaiverId: w.Id, Version: w.Version})
		}
	}
	return podium.CheckoutSessionRequest{
		EventId: ev.Id, CategoryId: categoryID, TeamName: tm.name, Athletes: tm.athletes, CustomFields: &tm.fields,
		IdempotencyKey:  ptr(fmt.Sprintf("go-%d", time.Now().UnixNano())),
		WaiversAccepted: &accepted,
		LegalSignature: &podium.LegalSignature{
			SignerName: "Ana Atleta", SignerIdNumber: "X1234560", AuthorityAccepted: true,
			Locale: ptr(podium.LegalSignatureLocaleEn), WaiverVersions: versions,
			Strokes: []podium.SignatureStroke{{{X: 0.1, Y: 0.2, T: 0}, {X: 0.4, Y: 0.5, T: 120}}},
		},
		TermsAccepted: true, PurchaserEmail: "ana@example.com", PurchaserName: "Ana Atleta",
		SuccessUrl: stack.DemoOrigin + "/thanks", CancelUrl: stack.DemoOrigin + "/cart",
	}
}

func ptr[T any](v T) *T { return &v }
