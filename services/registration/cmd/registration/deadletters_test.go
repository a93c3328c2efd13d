package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// deadLetters runs `registration dead-letters args...` and returns the JSON lines it printed.
func deadLetters(t *testing.T, args ...string) []broker.DeadLetter {
	t.Helper()
	var out bytes.Buffer
	if err := program.Run(t.Context(), append([]string{"dead-letters"}, args...), &out); err != nil {
		t.Fatalf("registration dead-letters %s: %v", strings.Join(args, " "), err)
	}
	var dls []broker.DeadLetter
	for dec := json.NewDecoder(&out); dec.More(); {
		var dl broker.DeadLetter
		if err := dec.Decode(&dl); err != nil {
			t.Fatalf("output is not JSON lines: %v", err)
		}
		dls = append(dls, dl)
	}
	return dls
}

// TestDeadLetteredPaymentIsListedAndReplayedByTheOperatorCommand: a payment that a release of
// the consumer could not handle is dead-lettered; `registration dead-letters list` shows it,
// and once a release that handles it runs, `registration dead-letters replay` republishes it
// once and the order is confirmed.
func TestDeadLetteredPaymentIsListedAndReplayedByTheOperatorCommand(t *testing.T) {
	env := regtest.Start(t, regtest.Options{Kafka: true})
	env.Catalog.Put(regtest.Event("evt_dl", "org_dl"))
	t.Setenv("KAFKA_BROKERS", strings.Join(env.Brokers, ","))
	hold := env.Do(t, "POST", "/internal/holds", map[string]any{
		"holdId": "h-dl", "eventId": "evt_dl", "expiresAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "currency": "EUR", "amount": 6500,
		"purchaserEmail": "buyer@example.com", "purchaserName": "Buyer", "registrations": []any{map[string]any{
			"categoryId": "cat_rx", "teamName": "Team Ana", "customFields": []any{map[string]any{"fieldId": "fld_size", "value": "S"}},
			"athletes": []any{map[string]any{"fullname": "Ana", "idNumber": "ID-1", "email": "ana@example.com", "phone": "+34600111222", "gender": "FEMALE", "birthDate": "1990-01-01"}},
		}},
	}, env.Browser(t, "org_dl"))
	order, _ := hold.Body["orderId"].(string)
	if hold.Status != 201 || order == "" {
		t.Fatalf("hold: %d %s", hold.Status, hold.Raw)
	}

	// A release of the consumer that does not know the message dead-letters it.
	old, stop := context.WithCancel(t.Context())
	stopped := make(chan error, 1)
	go func() {
		stopped <- broker.Consume(old, broker.ConsumerConfig{Cluster: broker.Cluster{Brokers: env.Brokers}, Group: domain.PaymentsConsumerGroup, Topics: []string{domain.PaymentsTopic}, Log: testkit.Logger(t)},
			func(context.Context, broker.Message) error {
				return broker.Poisonf("a payment event this release does not know")
			})
	}()
	w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
	defer w.Close()
	if err := w.Publish(t.Context(), broker.Message{Topic: domain.PaymentsTopic, Key: order,
		Value:   []byte(`{"orderId":"` + order + `","sessionId":"cs_dl","paymentRef":"pi_dl","amount":6500,"currency":"EUR"}`),
		Headers: map[string]string{broker.HeaderID: "pay-dl", broker.HeaderType: domain.EventPaymentSucceeded}}); err != nil {
		t.Fatal(err)
	}
	var listed []broker.DeadLetter
	testkit.Eventually(t, 30*time.Second, func() string {
		if listed = deadLetters(t, "list"); len(listed) == 0 {
			return "the payment was not dead-lettered within 30s"
		}
		return ""
	})
	stop()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	dl := listed[0]
	if len(listed) != 1 || dl.OriginalTopic != domain.PaymentsTopic || dl.Key != order || dl.MessageID != "pay-dl" || dl.Group != domain.PaymentsConsumerGroup ||
		!strings.Contains(dl.Reason, "does not know") || dl.Replayed {
		t.Fatalf("listed %+v", listed)
	}

	// The release that handles it runs; the operator replays.
	env.StartPayments(t)
	if replayed := deadLetters(t, "replay"); len(replayed) != 1 || replayed[0].MessageID != "pay-dl" || !replayed[0].Replayed {
		t.Fatalf("replayed %+v", replayed)
	}
	testkit.Eventually(t, 30*time.Second, func() string {
		var status string
		_ = env.Pool.QueryRow(t.Context(), `SELECT status FROM orders WHERE id = $1`, order).Scan(&status)
		if status != "COMPLETED" {
			return "the replayed payment did not confirm the order within 30s: " + status
		}
		return ""
	})
	if again := deadLetters(t, "replay"); len(again) != 0 {
		t.Fatalf("a second replay republished %+v", again)
	}
	if after := deadLetters(t, "list", "--topic", domain.PaymentsTopic); len(after) != 1 || !after[0].Replayed {
		t.Fatalf("listed after the replay %+v", after)
	}
	var applied int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM inbox WHERE consumer = $1`, domain.PaymentsConsumerGroup).Scan(&applied); err != nil || applied != 1 {
		t.Fatalf("payments applied: %d, %v", applied, err)
	}
}
