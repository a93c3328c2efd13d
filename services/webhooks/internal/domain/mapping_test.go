package domain

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"time"

	catalogevents "github.com/podiumhq/podium/services/catalog/events"
	checkoutevents "github.com/podiumhq/podium/services/checkout/events"
	registrationevents "github.com/podiumhq/podium/services/registration/events"
)

const org = "org_7Ks2NdQ9bYw4RmTx8Ve1"

func TestMapTable(t *testing.T) {
	at := time.Date(2026, 5, 9, 18, 3, 21, 447e6, time.UTC)
	obj := `"object":{"orderId":"ord_1","status":"X"}`
	for name, c := range map[string]struct {
		typ, data string
		want      Event
		ok        bool
		err       error
	}{
		"completed": {SourceOrderCompleted, `{"orderId":"ord_1","organizerId":"` + org + `","completedAt":"2026-05-09T18:03:21.447Z",` + obj + `}`,
			Event{Type: OrderCompleted, OrganizerID: org, Livemode: true, ObjectID: "ord_1", OccurredAt: at}, true, nil},
		"test mode": {SourceOrderCompleted, `{"orderId":"ord_1","organizerId":"` + org + `","livemode":false,"occurredAt":"2026-05-09T20:03:21.447+02:00",` + obj + `}`,
			Event{Type: OrderCompleted, OrganizerID: org, Livemode: false, ObjectID: "ord_1", OccurredAt: at}, true, nil},
		"released failed": {SourceOrderReleased, `{"orderId":"ord_1","reason":"FAILED","organizerId":"` + org + `","releasedAt":"2026-05-09T18:03:21.447Z",` + obj + `}`,
			Event{Type: OrderFailed, OrganizerID: org, Livemode: true, ObjectID: "ord_1", OccurredAt: at}, true, nil},
		"released expired": {SourceOrderReleased, `{"orderId":"ord_1","reason":"EXPIRED"}`, Event{}, false, nil},
		"payment expired": {SourcePaymentFailed, `{"orderId":"ord_1","sessionId":"cs_1","reason":"EXPIRED","organizerId":"` + org + `","occurredAt":"2026-05-09T18:03:21.447Z","object":{"sessionId":"cs_1"}}`,
			Event{Type: CheckoutSessionExpired, OrganizerID: org, Livemode: true, ObjectID: "cs_1", OccurredAt: at}, true, nil},
		"payment declined":     {SourcePaymentFailed, `{"orderId":"ord_1","reason":"DECLINED"}`, Event{}, false, nil},
		"event without object": {SourceEventChanged, `{"eventId":"evt_1","organizerId":"` + org + `","version":3}`, Event{}, false, ErrNoWebhookFields},
		"id from the object": {SourceRegistrationUpdated, `{"organizerId":"` + org + `","occurredAt":"2026-05-09T18:03:21.447Z","object":{"registrationId":"reg_1"}}`,
			Event{Type: RegistrationUpdated, OrganizerID: org, Livemode: true, ObjectID: "reg_1", OccurredAt: at}, true, nil},
		"a pricing card is its category": {SourcePricingChanged, `{"eventId":"evt_1","organizerId":"` + org + `","occurredAt":"2026-05-09T18:03:21.447Z","object":{"eventId":"evt_1","categoryId":"cat_1"}}`,
			Event{Type: PricingChanged, OrganizerID: org, Livemode: true, ObjectID: "cat_1", OccurredAt: at}, true, nil},
		"other type":        {"podium.registration.order.unfulfillable.v1", `{"orderId":"ord_1"}`, Event{}, false, nil},
		"no organizer":      {SourceOrderCompleted, `{"orderId":"ord_1","completedAt":"2026-05-09T18:03:21.447Z",` + obj + `}`, Event{}, false, ErrNoWebhookFields},
		"no object":         {SourceOrderCompleted, `{"orderId":"ord_1","organizerId":"` + org + `","completedAt":"2026-05-09T18:03:21.447Z"}`, Event{}, false, ErrNoWebhookFields},
		"null object":       {SourceOrderCompleted, `{"orderId":"ord_1","organizerId":"` + org + `","completedAt":"2026-05-09T18:03:21.447Z","object":null}`, Event{}, false, ErrNoWebhookFields},
		"no time":           {SourceOrderRefunded, `{"orderId":"ord_1","organizerId":"` + org + `",` + obj + `}`, Event{}, false, ErrIncomplete},
		"object not object": {SourceOrderRefunded, `{"orderId":"ord_1","organizerId":"` + org + `","occurredAt":"2026-05-09T18:03:21.447Z","object":"x"}`, Event{}, false, ErrIncomplete},
		"not json":          {SourceOrderRefunded, `[`, Event{}, false, nil},
	} {
		t.Run(name, func(t *testing.T) {
			got, ok, err := Map(c.typ, []byte(c.data))
			if name == "not json" {
				if err == nil {
					t.Fatal("undecodable data mapped")
				}
				return
			}
			if !errors.Is(err, c.err) || (err == nil) != (c.err == nil) || ok != c.ok {
				t.Fatalf("ok %v err %v, want %v %v", ok, err, c.ok, c.err)
			}
			got.Object = nil
			if !got.OccurredAt.Equal(c.want.OccurredAt) || got.OccurredAt.Location() != time.UTC && ok {
				t.Fatalf("occurredAt %v, want %v in UTC", got.OccurredAt, c.want.OccurredAt)
			}
			got.OccurredAt, c.want.OccurredAt = time.Time{}, time.Time{}
			if got.Type != c.want.Type || got.OrganizerID != c.want.OrganizerID || got.Livemode != c.want.Livemode || got.ObjectID != c.want.ObjectID {
				t.Fatalf("mapped %+v, want %+v", got, c.want)
			}
		})
	}
}

// Every webhook type has exactly one producer type, and every producer type names a consumed
// topic.
func TestSourcesCoverEveryType(t *testing.T) {
	seen := map[string]bool{}
	for typ, s := range sources {
		if seen[s.webhook] {
			t.Errorf("%s is produced twice", s.webhook)
		}
		seen[s.webhook] = true
		if !strings.Contains(strings.Join(Topics, " "), s.topic) || !strings.HasSuffix(typ, ".v1") {
			t.Errorf("%s on %s", typ, s.topic)
		}
	}
	for _, typ := range EventTypes {
		if !seen[typ] {
			t.Errorf("no producer type maps to %s", typ)
		}
	}
}

// The producers' examples of the mapped types decode: an example with the webhook fields
// (organizerId, object) maps to its webhook unless its condition is not met, one without them
// is told apart as predating them (ErrNoWebhookFields). The planned examples (testdata/planned) hold the fields every
// mapped producer type carries.
func TestProducersExamplesMap(t *testing.T) {
	examples := map[string][]byte{}
	for _, fsys := range []fs.FS{registrationevents.Files, checkoutevents.Files, catalogevents.Files, os.DirFS("testdata/planned")} {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".schema.json") {
				return err
			}
			typ := strings.TrimSuffix(path.Base(p), ".json")
			if _, mapped := sources[typ]; !mapped {
				return nil
			}
			b, err := fs.ReadFile(fsys, p)
			examples[p+"@"+typ] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	planned := 0
	for name, data := range examples {
		typ := name[strings.LastIndex(name, "@")+1:]
		t.Run(name, func(t *testing.T) {
			var members map[string]json.RawMessage
			if err := json.Unmarshal(data, &members); err != nil {
				t.Fatal(err)
			}
			e, ok, err := Map(typ, data)
			_, hasObject := members["object"]
			_, hasOrg := members["organizerId"]
			switch {
			case err != nil && (!errors.Is(err, ErrNoWebhookFields) || hasObject && hasOrg):
				t.Fatalf("example refused: %v", err)
			case err != nil:
				return
			case !ok:
				if hasObject && typ != SourceOrderReleased && typ != SourcePaymentFailed {
					t.Fatalf("example with its object not mapped")
				}
				return
			}
			planned++
			if e.Type != sources[typ].webhook || e.OrganizerID == "" || e.ObjectID == "" || e.OccurredAt.IsZero() || !present(e.Object) {
				t.Fatalf("mapped %+v", e)
			}
			if _, err := NewMessage(e, 1, "msg_x", time.Now()); err != nil {
				t.Fatal(err)
			}
		})
	}
	if planned < len(EventTypes) {
		t.Fatalf("%d examples mapped to webhooks, want at least one per type (%d)", planned, len(EventTypes))
	}
}
