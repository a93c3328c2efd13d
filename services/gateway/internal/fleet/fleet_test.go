package fleet_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/gateway/internal/fleet"
)

const topic = "podium.test.fleet.v1"

// instance reports whether a group is an instance's own ("gateway-<id>", not "gateway-edge-<id>").
func instance(g string) bool {
	return strings.HasPrefix(g, "gateway-") && !strings.HasPrefix(g, "gateway-edge-")
}

// join starts a consumer in group, as an instance's listener does, and returns once it joined;
// the returned function stops it (it leaves the group).
func join(t *testing.T, cluster broker.Cluster, group string) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	joined, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		_ = broker.Consume(ctx, broker.ConsumerConfig{
			Cluster: cluster, Group: group, Topics: []string{topic}, Log: testkit.Logger(t), Joined: func() { close(joined) },
		}, func(context.Context, broker.Message) error { return nil })
	}()
	stop := sync.OnceFunc(func() { cancel(); <-done })
	t.Cleanup(stop)
	select {
	case <-joined:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not join", group)
	}
	return stop
}

// TestTheShareFollowsTheLiveInstances: the share is one over the configured maximum until this
// instance is counted, then one over the instances counted (catalog listeners' groups are not
// instances); an instance that left is forgotten once the hold has passed, and while Kafka
// cannot be reached the last count holds for as long, then the maximum is used again.
func TestTheShareFollowsTheLiveInstances(t *testing.T) {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(1))
	if err != nil {
		t.Fatal(err)
	}
	closed := sync.OnceFunc(cluster.Close)
	t.Cleanup(closed)
	brokers := broker.Cluster{Brokers: cluster.ListenAddrs()}
	if err := broker.EnsureTopics(t.Context(), brokers, 1, 1, topic); err != nil {
		t.Fatal(err)
	}
	clock := &testkit.Clock{}
	clock.Set(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	const hold = 30 * time.Second
	var mu sync.Mutex
	var shares []float64
	c := fleet.New(fleet.Options{
		Members:  func(ctx context.Context) (map[string]int, error) { return broker.GroupMembers(ctx, brokers, instance) },
		Self:     "gateway-a",
		Max:      10,
		Interval: time.Second, Hold: hold, Timeout: 10 * time.Second,
		Now: clock.Now,
		Share: func(s float64) {
			mu.Lock()
			defer mu.Unlock()
			shares = append(shares, s)
		},
		Log: testkit.Logger(t),
	})
	want := func(step string, instances int, counted bool) {
		t.Helper()
		c.Count(t.Context())
		mu.Lock()
		last := shares[len(shares)-1]
		mu.Unlock()
		if n, ok := c.Instances(); n != instances || ok != counted || c.Share() != 1/float64(instances) || last != c.Share() {
			t.Fatalf("%s: %d instances (counted %v), share %v (last passed on %v); want %d (counted %v), share 1/%d",
				step, n, ok, c.Share(), last, instances, counted, instances)
		}
	}
	wantListed := func(groups ...string) {
		t.Helper()
		testkit.Eventually(t, 20*time.Second, func() string {
			members, err := broker.GroupMembers(t.Context(), brokers, instance)
			live := slices.Sorted(maps.Keys(members))
			if err != nil || !slices.Equal(live, groups) {
				return fmt.Sprintf("instance groups with members %v (%v), want %v", live, err, groups)
			}
			return ""
		})
	}

	want("before counting", 10, false)
	stopOther := join(t, brokers, "gateway-b")
	wantListed("gateway-b")
	want("another instance listed, this one not yet", 10, false)
	join(t, brokers, "gateway-a")
	join(t, brokers, "gateway-edge-a")
	wantListed("gateway-a", "gateway-b")
	want("two instances", 2, true)
	join(t, brokers, "gateway-c")
	wantListed("gateway-a", "gateway-b", "gateway-c")
	want("a third one", 3, true)

	stopOther()
	wantListed("gateway-a", "gateway-c")
	clock.Advance(hold - time.Second)
	want("one left, within the hold", 3, true)
	clock.Advance(time.Second)
	want("one left, past the hold", 2, true)

	closed()
	clock.Advance(hold - time.Second)
	want("Kafka down, within the hold", 2, true)
	clock.Advance(time.Second)
	want("Kafka down, past the hold", 10, false)
}
