package events_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/events"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

const org = "org_7Ks2NdQ9bYw4RmTx8Ve1"

// observed is what the service had stored, and what the group had committed, when an event's
// handling returned to the consumer.
type observed struct {
	ingested   app.Ingested
	deliveries int
	committed  int64
}

// observer wraps the service: after each event is stored it reads the deliveries of its message
// and the group's committed offsets, before the consumer may commit.
type observer struct {
	inner events.Ingester
	e     *webhookstest.Env
	t     *testing.T
	seen  chan observed
}

func (o *observer) Ingest(ctx context.Context, evs []app.Received) (app.Ingested, error) {
	in, err := o.inner.Ingest(ctx, evs)
	if err != nil {
		return in, err
	}
	sources := make([]string, len(evs))
	for i, ev := range evs {
		sources[i] = ev.SourceID
	}
	var n int
	if err := o.e.Pool.QueryRow(ctx, `SELECT count(*) FROM deliveries d JOIN messages m ON m.id = d.message_id WHERE m.source_id = ANY($1)`, sources).Scan(&n); err != nil {
		o.t.Error(err)
	}
	o.seen <- observed{ingested: in, deliveries: n, committed: committed(ctx, o.t, o.e, domain.OrdersTopic)}
	return in, nil
}

// committed returns the sum of the group's committed offsets on topic's partitions.
func committed(ctx context.Context, t *testing.T, e *webhookstest.Env, topic string) int64 {
	c := &kafka.Client{Addr: kafka.TCP(e.Brokers...)}
	res, err := c.OffsetFetch(ctx, &kafka.OffsetFetchRequest{GroupID: events.Group, Topics: map[string][]int{topic: {0, 1, 2}}})
	if err != nil {
		t.Error(err)
		return -1
	}
	var sum int64
	for _, p := range res.Topics[topic] {
		if p.CommittedOffset > 0 {
			sum += p.CommittedOffset
		}
	}
	return sum
}

func completed(order string) []byte {
	return fmt.Appendf(nil, `{"orderId":%q,"eventId":"evt_1","organizerId":%q,"livemode":true,"completedAt":"2026-05-09T18:03:21.447Z","object":{"orderId":%q,"status":"COMPLETED"}}`, order, org, order)
}

// An order event becomes a message with a delivery per subscribed enabled endpoint, stored
// before the offset is committed; the same message delivered again adds nothing; the other
// organization's, the unsubscribed and the disabled endpoints get none; the object's next
// event gets the next sequence.
func TestEventsAreStoredBeforeTheirOffsetIsCommitted(t *testing.T) {
	var obs *observer
	e := webhookstest.Start(t, webhookstest.Options{Kafka: true, Ingester: func(in events.Ingester) events.Ingester {
		obs = &observer{inner: in, t: t, seen: make(chan observed, 10)}
		return obs
	}})
	obs.e = e
	owner := app.Owner{OrganizerID: org, Livemode: true}
	url := "https://hooks.example.com/"
	for _, c := range []struct {
		org     string
		types   []string
		disable bool
	}{{org, []string{domain.OrderCompleted}, false}, {org, []string{domain.OrderCompleted, domain.OrderFailed}, false},
		{org, []string{domain.OrderRefunded}, false}, {org, []string{domain.OrderCompleted}, true}, {"org_other", []string{domain.OrderCompleted}, false}} {
		created, err := e.Service.CreateEndpoint(t.Context(), app.Owner{OrganizerID: c.org, Livemode: true}, domain.EndpointChange{URL: &url, EventTypes: c.types})
		if err != nil {
			t.Fatal(err)
		}
		if c.disable {
			off := false
			if _, err := e.Service.UpdateEndpoint(t.Context(), owner, created.Endpoint.ID, domain.EndpointChange{Enabled: &off}); err != nil {
				t.Fatal(err)
			}
		}
	}
	e.Woken()

	e.Publish(t, domain.OrdersTopic, "ord_1", "src_1", domain.SourceOrderCompleted, completed("ord_1"))
	first := wait(t, obs.seen)
	if first.ingested.Fresh != 1 || first.ingested.Deliveries != 2 || first.deliveries != 2 || first.committed != 0 {
		t.Fatalf("when the event was stored: %+v; want 2 deliveries stored and no offset committed yet", first)
	}
	if !e.Woken() {
		t.Fatal("the dispatcher was not woken")
	}
	testkit.Eventually(t, 10*time.Second, func() string {
		if n := committed(t.Context(), t, e, domain.OrdersTopic); n != 1 {
			return fmt.Sprintf("committed %d, want 1", n)
		}
		return ""
	})

	e.Publish(t, domain.OrdersTopic, "ord_1", "src_1", domain.SourceOrderCompleted, completed("ord_1"))
	again := wait(t, obs.seen)
	if again.ingested.Fresh != 0 || again.deliveries != 2 {
		t.Fatalf("the redelivered message: %+v; want nothing stored", again)
	}
	e.Publish(t, domain.OrdersTopic, "ord_1", "src_2", domain.SourceOrderCompleted, completed("ord_1"))
	wait(t, obs.seen)
	rows, err := e.Pool.Query(t.Context(), `SELECT sequence FROM messages WHERE object_id = 'ord_1' ORDER BY sequence`)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, s)
	}
	if len(seqs) != 2 || seqs[0] != 1 || seqs[1] != 2 {
		t.Fatalf("sequences %v, want [1 2]", seqs)
	}
}

func wait(t *testing.T, seen <-chan observed) observed {
	t.Helper()
	select {
	case o := <-seen:
		return o
	case <-time.After(30 * time.Second):
		t.Fatal("the consumer stored nothing")
		return observed{}
	}
}
