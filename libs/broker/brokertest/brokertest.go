// Package brokertest checks a service's wiring of the broker's operator command against an
// in-process Kafka-protocol broker.
package brokertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
)

// DeadLettersCommand checks a service's `dead-letters` command. run runs the service's command
// line (args after the program name) with the brokers in KAFKA_BROKERS. A dead letter of group
// (one of the service's consumer groups, "<service>-...") on the service's dead-letter topic of
// topic (one it consumes) must be listed and replayed; one on peer's dead-letter topic of the
// same topic (another consumer of it) must be neither, though its header names group; and a
// command line it does not understand must be a usage error. The test sets KAFKA_BROKERS, so it
// cannot run in parallel.
func DeadLettersCommand(t *testing.T, run func(args []string, stdout *bytes.Buffer) error, topic, group, peer string) {
	t.Helper()
	brokers := testkit.Kafka(t)
	t.Setenv("KAFKA_BROKERS", strings.Join(brokers, ","))
	w := broker.NewWriter(broker.Cluster{Brokers: brokers})
	defer w.Close()
	service, _, _ := strings.Cut(group, "-")
	letter := func(service, id string) broker.Message {
		return broker.Message{Topic: broker.DeadLetterTopic(service, topic), Key: "k", Value: []byte(`{}`), Headers: map[string]string{
			broker.HeaderDeadLetterGroup: group, broker.HeaderOriginalTopic: topic, broker.HeaderID: id, broker.HeaderDeadLetterReason: "poison message: test",
		}}
	}
	if err := w.Publish(context.Background(), letter(peer, "theirs"), letter(service, "ours")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"list", "replay"} {
		var out bytes.Buffer
		if err := run([]string{"dead-letters", name, "--topic", topic}, &out); err != nil {
			t.Fatalf("dead-letters %s: %v", name, err)
		}
		var dl broker.DeadLetter
		if err := json.Unmarshal(out.Bytes(), &dl); err != nil || dl.MessageID != "ours" || dl.Group != group || dl.OriginalTopic != topic {
			t.Fatalf("dead-letters %s printed %q (%v), want the dead letter of %s alone", name, out.String(), err, service)
		}
	}
	if err := run([]string{"dead-letters", "purge"}, &bytes.Buffer{}); !errors.Is(err, command.ErrUsage) {
		t.Fatalf("dead-letters purge: %v, want a usage error", err)
	}
}
