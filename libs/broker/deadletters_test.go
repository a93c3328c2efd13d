package broker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/safetext"
)

// runCommand runs `dead-letters args...` for service and returns the JSON lines it printed.
func runCommand(t *testing.T, cluster broker.Cluster, service, topic string, args ...string) ([]broker.DeadLetter, error) {
	t.Helper()
	var out bytes.Buffer
	err := broker.RunDeadLetters(t.Context(), broker.DeadLetters{Cluster: cluster, Service: service, Topics: []string{topic}}, args, &out)
	var dls []broker.DeadLetter
	dec := json.NewDecoder(&out)
	for dec.More() {
		var dl broker.DeadLetter
		if err := dec.Decode(&dl); err != nil {
			t.Fatalf("output is not JSON lines: %v\n%s", err, out.String())
		}
		dls = append(dls, dl)
	}
	return dls, err
}

func keys(dls []broker.DeadLetter) string {
	var ks []string
	for _, dl := range dls {
		ks = append(ks, dl.Key+"="+strconv.FormatBool(dl.Replayed))
	}
	return strings.Join(ks, ",")
}

func TestDeadLettersAreListedAndEachReplayedOnce(t *testing.T) {
	t.Parallel()
	const topic = "replay.orders.v1"
	cluster := setup(t, topic)
	// One partition keeps the list in publication order.
	if err := broker.EnsureTopics(t.Context(), cluster, 1, 1, broker.DeadLetterTopic("shop", topic)); err != nil {
		t.Fatal(err)
	}
	var fixed atomic.Bool
	got := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: "shop-orders", Topics: []string{topic}, Backoff: fast},
		func(_ context.Context, m broker.Message) error {
			if !fixed.Load() && m.Key != "end" {
				return broker.Poisonf("unsupported event version")
			}
			return nil
		})
	// Another consumer's dead letter of the same topic, though it claims the shop's group, is
	// neither listed nor replayed: it is on the other service's dead-letter topic.
	w := broker.NewWriter(cluster)
	defer w.Close()
	if err := w.Publish(t.Context(), broker.Message{Topic: broker.DeadLetterTopic("audit", topic), Key: "theirs", Value: []byte(`{}`),
		Headers: map[string]string{broker.HeaderDeadLetterGroup: "shop-orders", broker.HeaderOriginalTopic: topic}}); err != nil {
		t.Fatal(err)
	}
	publish(t, cluster, topic, "o1", "o2", "end")
	if m := receive(t, got); m.Key != "end" {
		t.Fatalf("handled %q, want end", m.Key)
	}

	listed, err := runCommand(t, cluster, "shop", topic, "list")
	if err != nil || keys(listed) != "o1=false,o2=false" {
		t.Fatalf("list: %v, %s", err, keys(listed))
	}
	o1, o2 := listed[0], listed[1]
	if o1.Topic != "shop."+topic+".dead-letter" || o1.Offset != 0 || o1.OriginalTopic != topic || o1.OriginalOffset != 0 || o1.MessageID != "id-o1" ||
		o1.Group != "shop-orders" || !strings.Contains(o1.Reason, "unsupported event version") || o1.Time.IsZero() {
		t.Fatalf("listed %+v", o1)
	}

	// The consumer is fixed; the operator replays o2 alone, then everything left.
	fixed.Store(true)
	one := []string{"replay", "--topic", topic, "--partition", strconv.Itoa(o2.Partition), "--offset", strconv.FormatInt(o2.Offset, 10)}
	if replayed, err := runCommand(t, cluster, "shop", topic, one...); err != nil || keys(replayed) != "o2=true" {
		t.Fatalf("replay one: %v, %s", err, keys(replayed))
	}
	if m := receive(t, got); m.Key != "o2" || m.Topic != topic || m.Headers[broker.HeaderReplayedFrom] != "shop."+topic+".dead-letter/0/1" || m.Headers[broker.HeaderID] != "id-o2" ||
		m.Headers[broker.HeaderDeadLetterReason] != "" {
		t.Fatalf("replayed %+v", m)
	}
	if replayed, err := runCommand(t, cluster, "shop", topic, "replay"); err != nil || keys(replayed) != "o1=true" {
		t.Fatalf("replay: %v, %s", err, keys(replayed))
	}
	if m := receive(t, got); m.Key != "o1" {
		t.Fatalf("replayed %q, want o1", m.Key)
	}

	if replayed, err := runCommand(t, cluster, "shop", topic, "replay"); err != nil || len(replayed) != 0 {
		t.Fatalf("a second replay: %v, %s", err, keys(replayed))
	}
	if _, err := runCommand(t, cluster, "shop", topic, one...); !errors.Is(err, broker.ErrAlreadyReplayed) {
		t.Fatalf("replaying o2 again: %v, want ErrAlreadyReplayed", err)
	}
	if listed, err := runCommand(t, cluster, "shop", topic, "list", "--topic", "shop."+topic+".dead-letter"); err != nil || keys(listed) != "o1=true,o2=true" {
		t.Fatalf("list after replay: %v, %s", err, keys(listed))
	}
	if theirs, err := runCommand(t, cluster, "audit", topic, "list"); err != nil || keys(theirs) != "theirs=false" {
		t.Fatalf("the other service's dead letters: %v, %s", err, keys(theirs))
	}
	if n, r := endOffset(t, cluster, topic), endOffset(t, cluster, broker.ReplayTopic("shop")); n != 3 || r != 2 {
		t.Fatalf("%s has %d messages and the replay topic %d, want the 3 published and the 2 replayed", topic, n, r)
	}
}

// endOffset returns how many messages topic holds, over all its partitions.
func endOffset(t *testing.T, cluster broker.Cluster, topic string) int64 {
	t.Helper()
	c := &kafka.Client{Addr: kafka.TCP(cluster.Brokers...), Timeout: 10 * time.Second}
	md, err := c.Metadata(t.Context(), &kafka.MetadataRequest{Topics: []string{topic}})
	if err != nil || len(md.Topics) != 1 || md.Topics[0].Error != nil {
		t.Fatalf("metadata of %s: %v %+v", topic, err, md)
	}
	var offsets []kafka.OffsetRequest
	for _, p := range md.Topics[0].Partitions {
		offsets = append(offsets, kafka.LastOffsetOf(p.ID))
	}
	res, err := c.ListOffsets(t.Context(), &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{topic: offsets}})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, p := range res.Topics[topic] {
		n += p.LastOffset
	}
	return n
}

func TestDeadLettersCommandLine(t *testing.T) {
	t.Parallel()
	cluster := broker.Cluster{Brokers: []string{"127.0.0.1:1"}} // never dialled: each line is refused first
	for _, args := range [][]string{
		{},
		{"purge"},
		{"list", "extra"},
		{"list", "--nope"},
		{"replay", "--offset", "3", "--topic", "t"},
		{"replay", "--partition", "0", "--offset", "3"},
	} {
		if _, err := runCommand(t, cluster, "shop", "t", args...); !errors.Is(err, command.ErrUsage) {
			t.Errorf("dead-letters %v: %v, want a usage error", args, err)
		}
	}
	for _, topic := range []string{"other.v1", "t.dead-letter", "audit.t.dead-letter"} {
		if _, err := runCommand(t, cluster, "shop", "t", "list", "--topic", topic); err == nil || !strings.Contains(err.Error(), "does not consume "+topic) {
			t.Errorf("a topic the service neither consumes nor dead-letters to, %s: %v", topic, err)
		}
	}
}

// TestDeadLettersPrintNoControlCharacters: a dead letter's key, type and reason come from
// whoever produced the message; the listing escapes whatever in them could move the cursor,
// clear a line or reorder the text, and still reads back as the same values.
func TestDeadLettersPrintNoControlCharacters(t *testing.T) {
	t.Parallel()
	const topic = "escape.orders.v1"
	cluster := setup(t, topic)
	if err := broker.EnsureTopics(t.Context(), cluster, 1, 1, broker.DeadLetterTopic("shop", topic)); err != nil {
		t.Fatal(err)
	}
	key, typ, reason := "o1\u202e\x7f", "podium.x.v1\u009b2K", "bad\x1b[2K\u2028version"
	w := broker.NewWriter(cluster)
	defer w.Close()
	if err := w.Publish(t.Context(), broker.Message{Topic: broker.DeadLetterTopic("shop", topic), Key: key, Value: []byte(`{}`),
		Headers: map[string]string{broker.HeaderDeadLetterGroup: "shop-orders", broker.HeaderOriginalTopic: topic,
			broker.HeaderType: typ, broker.HeaderDeadLetterReason: reason}}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := broker.RunDeadLetters(t.Context(), broker.DeadLetters{Cluster: cluster, Service: "shop", Topics: []string{topic}}, []string{"list"}, &out); err != nil {
		t.Fatal(err)
	}
	if !safetext.Valid(strings.TrimSuffix(out.String(), "\n")) {
		t.Fatalf("the listing holds control characters: %q", out.String())
	}
	var dl broker.DeadLetter
	if err := json.Unmarshal(out.Bytes(), &dl); err != nil || dl.Key != key || dl.Type != typ || dl.Reason != reason {
		t.Fatalf("listed %+v (%v), want key %q, type %q, reason %q", dl, err, key, typ, reason)
	}
}

// TestAReplayGoesBackOnlyToItsTopicsConsumers: a replay is read by the service's consumers of
// the topic its dead-letter topic is named after, whatever the dead letter's headers claim, and
// by no other consumer of the service.
func TestAReplayGoesBackOnlyToItsTopicsConsumers(t *testing.T) {
	t.Parallel()
	const orders, payments = "shop.orders.v1", "shop.payments.v1"
	cluster := setup(t, orders)
	if err := broker.EnsureTopics(t.Context(), cluster, 1, 1, payments); err != nil {
		t.Fatal(err)
	}
	all := func(context.Context, broker.Message) error { return nil }
	gotOrders := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: "shop-orders", Topics: []string{orders}, Backoff: fast}, all)
	gotPayments := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: "shop-payments", Topics: []string{payments}, Backoff: fast}, all)
	w := broker.NewWriter(cluster)
	defer w.Close()
	if err := w.Publish(t.Context(), broker.Message{Topic: broker.DeadLetterTopic("shop", orders), Key: "claims-payments", Value: []byte(`{}`),
		Headers: map[string]string{broker.HeaderDeadLetterGroup: "shop-orders", broker.HeaderOriginalTopic: payments, broker.HeaderID: "id-1"}}); err != nil {
		t.Fatal(err)
	}

	if replayed, err := runCommand(t, cluster, "shop", orders, "replay"); err != nil || keys(replayed) != "claims-payments=true" || replayed[0].OriginalTopic != orders {
		t.Fatalf("replay: %v, %+v", err, replayed)
	}
	if m := receive(t, gotOrders); m.Key != "claims-payments" || m.Topic != orders {
		t.Fatalf("the orders consumer got %q on %s", m.Key, m.Topic)
	}
	publish(t, cluster, payments, "after")
	if m := receive(t, gotPayments); m.Key != "after" {
		t.Fatalf("the payments consumer got %q on %s, want only what was published to %s", m.Key, m.Topic, payments)
	}
}

// TestReplaysAreRememberedAfterGroupOffsetsExpire: what was replayed is read from the service's
// replay topic, kept forever, not from a consumer group's committed offsets, which Kafka deletes
// once the group has had no member for offsets.retention.minutes (7 days by default): with every
// group's offsets deleted, as expiry would, the dead letter is still listed as replayed and a
// replay does not publish it again.
func TestReplaysAreRememberedAfterGroupOffsetsExpire(t *testing.T) {
	t.Parallel()
	const topic = "expiry.orders.v1"
	cluster := setup(t, topic)
	dead := broker.DeadLetterTopic("shop", topic)
	if err := broker.EnsureTopics(t.Context(), cluster, 1, 1, dead); err != nil {
		t.Fatal(err)
	}
	w := broker.NewWriter(cluster)
	defer w.Close()
	if err := w.Publish(t.Context(), broker.Message{Topic: dead, Key: "o1", Value: []byte(`{}`),
		Headers: map[string]string{broker.HeaderID: "id-o1", broker.HeaderDeadLetterGroup: "shop-orders", broker.HeaderOriginalTopic: topic}}); err != nil {
		t.Fatal(err)
	}
	if replayed, err := runCommand(t, cluster, "shop", topic, "replay"); err != nil || keys(replayed) != "o1=true" {
		t.Fatalf("replay: %v, %s", err, keys(replayed))
	}

	deleteEveryGroup(t, cluster)

	if listed, err := runCommand(t, cluster, "shop", topic, "list"); err != nil || keys(listed) != "o1=true" {
		t.Fatalf("list once the groups' offsets are gone: %v, %s, want o1 replayed", err, keys(listed))
	}
	if replayed, err := runCommand(t, cluster, "shop", topic, "replay"); err != nil || len(replayed) != 0 {
		t.Fatalf("replay once the groups' offsets are gone: %v, %s, want nothing replayed again", err, keys(replayed))
	}
	if _, err := runCommand(t, cluster, "shop", topic, "replay", "--topic", topic, "--partition", "0", "--offset", "0"); !errors.Is(err, broker.ErrAlreadyReplayed) {
		t.Fatalf("replaying o1 again by its offset: %v, want ErrAlreadyReplayed", err)
	}
	if n := endOffset(t, cluster, broker.ReplayTopic("shop")); n != 1 {
		t.Fatalf("the replay topic holds %d messages, want the one replay", n)
	}
}

// deleteEveryGroup deletes every consumer group of the cluster and its committed offsets, as
// Kafka does with a group that had no member for offsets.retention.minutes.
func deleteEveryGroup(t *testing.T, cluster broker.Cluster) {
	t.Helper()
	c := &kafka.Client{Addr: kafka.TCP(cluster.Brokers...), Timeout: 10 * time.Second}
	groups, err := c.ListGroups(t.Context(), &kafka.ListGroupsRequest{})
	if err != nil || groups.Error != nil {
		t.Fatalf("list groups: %v %v", err, groups)
	}
	var ids []string
	for _, g := range groups.Groups {
		ids = append(ids, g.GroupID)
	}
	if len(ids) == 0 {
		return
	}
	res, err := c.DeleteGroups(t.Context(), &kafka.DeleteGroupsRequest{GroupIDs: ids})
	if err != nil {
		t.Fatalf("delete groups %v: %v", ids, err)
	}
	for id, err := range res.Errors {
		if err != nil {
			t.Fatalf("delete group %s: %v", id, err)
		}
	}
	if left, err := c.ListGroups(t.Context(), &kafka.ListGroupsRequest{}); err != nil || len(left.Groups) != 0 {
		t.Fatalf("groups left after deleting them all: %v %+v", err, left)
	}
}

// TestTheLibraryKeepsDeadLettersAndReplaysForever: the dead-letter and replay topics the library
// makes itself (the embedded broker of make run, the tests) keep their messages forever, as the
// platform's declarations of them do: a dead letter waits however long its replay takes, and the
// replay topic is the record of what was replayed.
func TestTheLibraryKeepsDeadLettersAndReplaysForever(t *testing.T) {
	t.Parallel()
	const topic = "forever.orders.v1"
	cluster := setup(t, topic)
	got := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: "shop-orders", Topics: []string{topic}, Backoff: fast},
		func(context.Context, broker.Message) error { return nil })
	publish(t, cluster, topic, "o1")
	receive(t, got) // the consumer made its topics before it read
	// A service whose dead-letters command replays before any of its consumers ran makes its
	// replay topic itself.
	if err := (broker.DeadLetters{Cluster: cluster, Service: "audit", Topics: []string{topic}}).Replay(t.Context(), broker.Selection{},
		func(broker.DeadLetter) error { return nil }); err != nil {
		t.Fatal(err)
	}
	topics := []string{broker.DeadLetterTopic("shop", topic), broker.ReplayTopic("shop"), broker.ReplayTopic("audit")}
	c := &kafka.Client{Addr: kafka.TCP(cluster.Brokers...), Timeout: 10 * time.Second}
	req := &kafka.DescribeConfigsRequest{}
	for _, name := range topics {
		req.Resources = append(req.Resources, kafka.DescribeConfigRequestResource{ResourceType: kafka.ResourceTypeTopic, ResourceName: name,
			ConfigNames: []string{"retention.ms", "retention.bytes", "cleanup.policy"}})
	}
	res, err := c.DescribeConfigs(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	described := map[string]string{}
	for _, r := range res.Resources {
		if r.Error != nil {
			t.Fatalf("configs of %s: %v", r.ResourceName, r.Error)
		}
		for _, e := range r.ConfigEntries {
			described[r.ResourceName+" "+e.ConfigName] = e.ConfigValue
		}
	}
	for _, name := range topics {
		for config, want := range map[string]string{"retention.ms": "-1", "retention.bytes": "-1", "cleanup.policy": "delete"} {
			if got := described[name+" "+config]; got != want {
				t.Errorf("%s: %s=%q, want %q", name, config, got, want)
			}
		}
	}
}

// TestADeadLetterTopicMadeAgainHoldsNothingReplayed: a dead-letter topic deleted and made again
// starts its offsets over while the replay topic keeps the replays of the old one; a new dead
// letter at an offset replayed before is not taken for that one (a replay names its dead
// letter's message id too), so it is listed as not replayed and replayed.
func TestADeadLetterTopicMadeAgainHoldsNothingReplayed(t *testing.T) {
	t.Parallel()
	const topic = "again.orders.v1"
	cluster := setup(t, topic)
	dead := broker.DeadLetterTopic("shop", topic)
	deadLetter := func(key string) {
		t.Helper()
		if err := broker.EnsureTopics(t.Context(), cluster, 1, 1, dead); err != nil {
			t.Fatal(err)
		}
		w := broker.NewWriter(cluster)
		defer w.Close()
		if err := w.Publish(t.Context(), broker.Message{Topic: dead, Key: key, Value: []byte(`{}`),
			Headers: map[string]string{broker.HeaderID: "id-" + key, broker.HeaderDeadLetterGroup: "shop-orders", broker.HeaderOriginalTopic: topic}}); err != nil {
			t.Fatal(err)
		}
	}
	deadLetter("o1")
	if replayed, err := runCommand(t, cluster, "shop", topic, "replay"); err != nil || keys(replayed) != "o1=true" || replayed[0].Offset != 0 {
		t.Fatalf("replay: %v, %+v", err, replayed)
	}
	c := &kafka.Client{Addr: kafka.TCP(cluster.Brokers...), Timeout: 10 * time.Second}
	res, err := c.DeleteTopics(t.Context(), &kafka.DeleteTopicsRequest{Topics: []string{dead}})
	if err != nil || res.Errors[dead] != nil {
		t.Fatalf("delete %s: %v %v", dead, err, res)
	}
	deadLetter("o2")

	if listed, err := runCommand(t, cluster, "shop", topic, "list"); err != nil || keys(listed) != "o2=false" || listed[0].Offset != 0 {
		t.Fatalf("list: %v, %+v, want o2 at offset 0, not replayed", err, listed)
	}
	if replayed, err := runCommand(t, cluster, "shop", topic, "replay"); err != nil || keys(replayed) != "o2=true" {
		t.Fatalf("replay: %v, %s, want o2", err, keys(replayed))
	}
}
