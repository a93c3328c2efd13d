package broker_test

import (
	"context"
	"slices"
	"testing"

	"github.com/podiumhq/podium/libs/broker"
)

// TestNoOtherPrincipalCanPlantADeadLetterForReplay: shop's payments have two consumers, the
// ledger and webhooks (which faces the internet). Whatever topic the webhooks' principal may
// write, a payment it plants there, claiming in its headers to be a dead letter of the ledger's
// consumer group, is never listed or replayed by the ledger's dead-letters command, so it never
// reaches the ledger as a payment from shop's topic; nor does its claim to be the replay of the
// ledger's dead letter mark that one replayed: the ledger's own dead letter is replayed.
func TestNoOtherPrincipalCanPlantADeadLetterForReplay(t *testing.T) {
	t.Parallel()
	webhooks := broker.Access{Service: "webhooks", Consumes: []string{paymentsTopic}}
	_, as, ca := securedCluster(t, shop, ledger, webhooks)
	producer, ledgerCluster, webhooksCluster := as("podium-shop", "shop-secret", ca), as("podium-ledger", "ledger-secret", ca), as("podium-webhooks", "webhooks-secret", ca)
	declare(t, as("admin", "admin-secret", ca), append(append(ownTopics(ledger), ownTopics(webhooks)...), paymentsTopic)...)
	replayed := make(chan broker.Message, 10)
	handler := func(_ context.Context, m broker.Message) error {
		switch {
		case m.Headers[broker.HeaderReplayedFrom] != "":
			replayed <- m
		case m.Key == "poison":
			return broker.Poisonf("a payment this release cannot read")
		}
		return nil
	}
	gotLedger := consume(t, broker.ConsumerConfig{Cluster: ledgerCluster, Group: "ledger-payments", Topics: []string{paymentsTopic}, Backoff: fast}, handler)
	gotWebhooks := consume(t, broker.ConsumerConfig{Cluster: webhooksCluster, Group: "webhooks-payments", Topics: []string{paymentsTopic}, Backoff: fast},
		func(ctx context.Context, m broker.Message) error {
			if m.Headers[broker.HeaderReplayedFrom] != "" {
				return nil // webhooks' own business, not the ledger's
			}
			return handler(ctx, m)
		})
	publish(t, producer, paymentsTopic, "poison", "pay-1")
	for _, got := range []<-chan broker.Message{gotLedger, gotWebhooks} {
		if m := receive(t, got); m.Key != "pay-1" {
			t.Fatalf("a consumer handled %q, want pay-1 (the poison dead-lettered)", m.Key)
		}
	}

	// The webhooks' principal plants a payment in every topic it may write.
	forger := broker.NewWriter(webhooksCluster)
	defer forger.Close()
	planted := 0
	for _, g := range webhooks.Grants() {
		if g.Resource != broker.ResourceTopic || !slices.Contains(g.Operations, broker.OpWrite) {
			continue
		}
		err := forger.Publish(t.Context(), broker.Message{Topic: g.Name, Key: "forged", Value: []byte(`{"orderId":"ord_1"}`), Headers: map[string]string{
			broker.HeaderType: "podium.shop.payment.succeeded.v1", broker.HeaderID: "forged-" + g.Name,
			broker.HeaderDeadLetterGroup: "ledger-payments", broker.HeaderDeadLetterReason: "poison message: test",
			broker.HeaderOriginalTopic: paymentsTopic, broker.HeaderOriginalPartition: "0", broker.HeaderOriginalOffset: "0",
			// and, as a replay would, claims the ledger's own dead letter was replayed.
			broker.HeaderReplayedFrom: broker.DeadLetterTopic(ledger.Service, paymentsTopic) + "/0/0",
		}})
		if err != nil {
			t.Fatalf("the webhooks' principal writing %s, which it is granted: %v", g.Name, err)
		}
		planted++
	}
	if planted == 0 {
		t.Fatal("the webhooks' principal may write no topic: nothing was planted")
	}

	if dls := deadLetters(t, ledgerCluster, "ledger", paymentsTopic); keys(dls) != "poison=false" {
		t.Fatalf("the ledger's dead letters: %s, want its own poison alone", keys(dls))
	}
	if out, err := runCommand(t, ledgerCluster, "ledger", paymentsTopic, "replay"); err != nil || keys(out) != "poison=true" {
		t.Fatalf("the ledger's replay: %v %s, want its own poison alone", err, keys(out))
	}
	if m := receive(t, replayed); m.Key != "poison" || m.Topic != paymentsTopic {
		t.Fatalf("the ledger got the replay %q on %s, want poison on %s", m.Key, m.Topic, paymentsTopic)
	}
	if dls := deadLetters(t, webhooksCluster, "webhooks", paymentsTopic); len(dls) == 0 || dls[0].Key != "poison" || dls[0].Group != "webhooks-payments" {
		t.Fatalf("the webhooks' own dead letter: %+v", dls)
	}
}
