package service_test

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/testkit"
)

const testTopic = "demo.things"

// journal records what the parts of a service did, in order.
type journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *journal) add(entry string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, entry)
}

func (j *journal) read() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.entries)
}

// rig is a service with every part, recording in its journal when each part stops.
type rig struct {
	journal
	svc     service.Service
	pool    *pgxpool.Pool
	workers map[string]context.Context
	// gate holds the consumer back until closed; joined is told when it joined its group;
	// received gets the values of the messages it handles.
	gate, joined chan struct{}
	received     chan string
	// inFlight is told when /slow is being served; release lets it answer.
	inFlight, release chan struct{}
}

func newRig(t *testing.T, consoleAddr string) *rig {
	r := &rig{
		workers: map[string]context.Context{}, gate: make(chan struct{}), joined: make(chan struct{}),
		received: make(chan string, 10), inFlight: make(chan struct{}), release: make(chan struct{}),
	}
	brokers := testkit.Kafka(t)
	pg := config.Postgres{DatabaseURL: testkit.DatabaseURL(t, outbox.Migrations())}
	kafka := config.Kafka{KafkaBrokers: brokers, KafkaTopicPartitions: 1, KafkaReplicationFactor: 1}
	base := config.Base{HTTPAddr: testkit.FreeAddr(t), ShutdownTimeout: 10 * time.Second, BodyLimit: 1 << 10, TraceSampleRatio: 1}
	r.svc = service.Service{
		Name: "demo", Base: base, Log: testkit.Logger(t),
		Postgres: &pg, DBMaxConns: 4, Kafka: &kafka, Topics: []string{testTopic}, Relay: true,
		Build: func(_ context.Context, res *service.Resources) (service.Parts, error) {
			r.pool = res.Pool
			res.OnClose(func() { r.add("closer closed") })
			console := httpserver.New(httpserver.Options{Log: res.Log, NoProbes: true})
			console.App.Get("/hello", func(c *fiber.Ctx) error { return c.SendString("hello") })
			return service.Parts{
				Workers:   []service.Worker{r.worker("worker a"), r.worker("worker b")},
				Consumers: []service.Consumer{{Name: "things consumer", Consumer: r.consumer(res)}},
				Listeners: []service.Listener{{Name: "console", Addr: consoleAddr, Server: console}},
				Routes:    r.routes,
			}, nil
		},
	}
	return r
}

// worker runs until its context ends and then records its stop, and whether the pool still
// answered then.
func (r *rig) worker(name string) service.Worker {
	return service.Worker{Name: name, Run: func(ctx context.Context) error {
		r.mu.Lock()
		r.workers[name] = ctx
		r.mu.Unlock()
		<-ctx.Done()
		if err := r.pool.Ping(context.WithoutCancel(ctx)); err != nil {
			r.add(name + " stopped without its pool")
			return nil
		}
		r.add(name + " stopped")
		return nil
	}}
}

// gatedConsumer runs its consumer once the gate opens and records its stop.
type gatedConsumer struct {
	*broker.Consumer
	r *rig
}

func (g gatedConsumer) Run(ctx context.Context) error {
	select {
	case <-g.r.gate:
	case <-ctx.Done():
		return nil
	}
	err := g.Consumer.Run(ctx)
	g.r.add("consumer stopped")
	return err
}

func (r *rig) consumer(res *service.Resources) gatedConsumer {
	var once sync.Once
	c := &broker.Consumer{
		Config: broker.ConsumerConfig{
			Cluster: res.Cluster, Group: "demo-things", Topics: []string{testTopic}, Log: res.Log,
			Joined: func() { once.Do(func() { close(r.joined) }) },
		},
		Handler: func(_ context.Context, m broker.Message) error { r.received <- string(m.Value); return nil },
		Topics:  res.EnsureTopics, Log: res.Log,
	}
	return gatedConsumer{Consumer: c, r: r}
}

// routes serves /slow, which answers once released and records whether the workers were
// still running then.
func (r *rig) routes(app *fiber.App) error {
	app.Get("/slow", func(c *fiber.Ctx) error {
		close(r.inFlight)
		<-r.release
		r.mu.Lock()
		stopped := r.workers["worker a"].Err() != nil || r.workers["worker b"].Err() != nil
		r.mu.Unlock()
		if stopped {
			r.add("request finished after a worker stopped")
		} else {
			r.add("request finished")
		}
		return c.SendString("done")
	})
	return nil
}

// TestRunStartsInOrderAndStopsInReverse serves a service with a pool, a topic, the relay, two
// workers, a consumer, a second listener and routes: readiness names the consumer until it
// joined; the relay publishes the outbox to the consumer; at cancellation a request in flight
// finishes while the workers still run, and then the consumer, the workers (last started
// first, with the pool still open) and what Build opened stop, and the pool closes.
func TestRunStartsInOrderAndStopsInReverse(t *testing.T) {
	consoleAddr := testkit.FreeAddr(t)
	r := newRig(t, consoleAddr)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- service.Run(ctx, r.svc) }()

	base := "http://" + r.svc.Base.HTTPAddr
	if body := testkit.WaitStatus(t, base+"/readyz", http.StatusServiceUnavailable); body["message"] != "things consumer is not ready" {
		t.Fatalf("/readyz before the consumer joined: %v", body)
	}
	close(r.gate)
	<-r.joined
	testkit.WaitStatus(t, base+"/readyz", http.StatusOK)
	if res := testkit.Do(t, http.MethodGet, "http://"+consoleAddr+"/hello", nil, nil); res.Status != http.StatusOK || string(res.Raw) != "hello" {
		t.Fatalf("the console listener answered %d %s", res.Status, res.Raw)
	}

	err := postgres.InTx(t.Context(), r.pool, func(tx pgx.Tx) error {
		_, err := outbox.Enqueue(t.Context(), tx, outbox.Event{Topic: testTopic, Key: "k", Type: "demo.thing.v1", Source: "demo", Data: "relayed"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := <-r.received; got != `"relayed"` {
		t.Fatalf("the consumer received %s, want the relayed message", got)
	}

	answered := make(chan testkit.Response, 1)
	go func() { answered <- testkit.Do(t, http.MethodGet, base+"/slow", nil, nil) }()
	<-r.inFlight
	cancel()
	close(r.release)
	if res := <-answered; res.Status != http.StatusOK {
		t.Fatalf("the request in flight at cancellation answered %d %s", res.Status, res.Raw)
	}
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := []string{"request finished", "consumer stopped", "worker b stopped", "worker a stopped", "closer closed"}
	if got := r.read(); !slices.Equal(got, want) {
		t.Fatalf("stopped in the order %q, want %q", got, want)
	}
	if err := r.pool.Ping(t.Context()); err == nil {
		t.Fatal("the pool is still open after Run returned")
	}
	if conn, err := (&net.Dialer{}).DialContext(t.Context(), "tcp", consoleAddr); err == nil {
		conn.Close()
		t.Fatal("the console listener still accepts after Run returned")
	}
}

// TestRunStopsWhatStartedWhenAListenerCannotStart: a listener whose address is taken fails
// the run, naming the listener, after stopping the parts that had started.
func TestRunStopsWhatStartedWhenAListenerCannotStart(t *testing.T) {
	taken, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	r := newRig(t, taken.Addr().String())
	err = service.Run(t.Context(), r.svc)
	if err == nil || !strings.HasPrefix(err.Error(), "console: ") {
		t.Fatalf("Run with the console's address taken: %v, want the console's listen error", err)
	}
	want := []string{"worker b stopped", "worker a stopped", "closer closed"}
	if got := r.read(); !slices.Equal(got, want) {
		t.Fatalf("stopped %q, want %q", got, want)
	}
	if err := r.pool.Ping(t.Context()); err == nil {
		t.Fatal("the pool is still open after Run failed")
	}
}

// TestRunRefusesARelayWithoutItsParts: a relay needs both Kafka and a database.
func TestRunRefusesARelayWithoutItsParts(t *testing.T) {
	build := func(context.Context, *service.Resources) (service.Parts, error) {
		t.Fatal("Build ran for a service that cannot start")
		return service.Parts{}, nil
	}
	base := config.Base{HTTPAddr: "127.0.0.1:0", ShutdownTimeout: time.Second, BodyLimit: 1, TraceSampleRatio: 1}
	kafka := config.Kafka{KafkaBrokers: testkit.Kafka(t)}
	for name, s := range map[string]service.Service{
		"no kafka":    {Relay: true, Postgres: &config.Postgres{DatabaseURL: testkit.DatabaseURL(t)}},
		"no database": {Relay: true, Kafka: &kafka},
	} {
		s.Name, s.Base, s.Log, s.Build = "demo", base, testkit.Logger(t), build
		if err := service.Run(t.Context(), s); err == nil || !strings.Contains(err.Error(), "relay") {
			t.Errorf("%s: Run answered %v, want a refusal of the relay", name, err)
		}
	}
}
