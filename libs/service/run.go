package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"github.com/podiumhq/podium/libs/background"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/telemetry"
)

// Service is what a service has. Run starts it in one order: telemetry, the database pool,
// the topics, the broker writer and the outbox relay, then what Build returns (the workers,
// the consumers, the listeners and the HTTP server). When ctx ends it stops them in the
// reverse order: the servers drain with readiness failing, then the consumers, the workers,
// what Build opened, the relay and the writer stop, and the pool and the telemetry close.
type Service struct {
	// Name names the service in its telemetry and logs ("auth").
	Name string
	// Config is the whole configuration, logged at start with its secrets masked.
	Config any
	// Base is the shared settings: telemetry, the HTTP address, body limit, drain delay and
	// shutdown timeout.
	Base config.Base
	Log  *slog.Logger
	// Postgres, when set, opens the service's pool of DBMaxConns connections (unless
	// DB_MAX_CONNS sets its size); readiness pings it.
	Postgres   *config.Postgres
	DBMaxConns int32
	// Kafka, when set, is the cluster the service reaches; Topics are declared on it at start.
	Kafka  *config.Kafka
	Topics []string
	// Relay publishes the pool's outbox to Kafka through a writer.
	Relay bool
	// HTTP configures the HTTP server. Run sets its Log, Ready and Metrics, and its BodyLimit
	// and DrainDelay from Base when they are zero.
	HTTP httpserver.Options
	// Build makes the service on what Run opened and returns its parts.
	Build func(context.Context, *Resources) (Parts, error)
}

// Resources is what Run opened for Build.
type Resources struct {
	Log       *slog.Logger
	Telemetry *telemetry.Telemetry
	// Pool is the service's database; nil without Service.Postgres.
	Pool *pgxpool.Pool
	// Cluster is the service's Kafka cluster; zero without Service.Kafka.
	Cluster broker.Cluster
	kafka   *config.Kafka
	topics  []string
	closers []func()
}

// EnsureTopics declares the service's topics again: a consumer's Topics, so that a topic
// deleted while the service runs comes back before the consumer rejoins.
func (r *Resources) EnsureTopics(ctx context.Context) error {
	if r.kafka == nil {
		return errors.New("service: topics need Kafka")
	}
	return broker.EnsureTopics(ctx, r.Cluster, r.kafka.KafkaTopicPartitions, r.kafka.KafkaReplicationFactor, r.topics...)
}

// OnClose closes something Build opened once the parts have stopped (in the reverse order of
// the calls), before the relay stops.
func (r *Resources) OnClose(fn func()) { r.closers = append(r.closers, fn) }

// Parts are what a service runs on its resources.
type Parts struct {
	// Workers run beside the servers and stop after they drained, the last started first.
	Workers []Worker
	// Consumers are workers readiness waits for.
	Consumers []Consumer
	// Listeners are HTTP servers beside the service's own, draining with it.
	Listeners []Listener
	// Routes adds the service's routes to its HTTP server.
	Routes func(*fiber.App) error
}

// Worker is a named loop that runs until its context ends.
type Worker struct {
	Name string
	Run  func(context.Context) error
}

// Runner is a consumer: it runs until its context ends and is ready once it joined its
// group. *broker.Consumer is one.
type Runner interface {
	Run(ctx context.Context) error
	Ready(ctx context.Context) error
}

// Consumer is a named consumer; its name names it in a failing readiness answer.
type Consumer struct {
	Name     string
	Consumer Runner
}

// Listener is a second HTTP server of the service, on an address of its own.
type Listener struct {
	Name   string
	Addr   string
	Server *httpserver.Server
}

// Run runs s until ctx ends and everything has stopped, or until a part fails to start or a
// server fails.
func Run(ctx context.Context, s Service) error {
	s.Log.Info("starting "+s.Name, append(BuildInfo().Attrs(), "config", config.LogValue(s.Config))...)
	var stops stack
	defer func() { stops.unwind() }()
	tel, err := Observe(ctx, s.Name, s.Base, s.Log)
	if err != nil {
		return err
	}
	stops.push(func() { tel.Close(s.Log) }) //nolint:contextcheck // the run context has ended by then
	r := &Resources{Log: s.Log, Telemetry: tel, kafka: s.Kafka, topics: s.Topics}
	var ready []httpserver.Check
	if s.Postgres != nil {
		if r.Pool, err = postgres.Open(ctx, *s.Postgres, s.DBMaxConns); err != nil {
			return err
		}
		stops.push(r.Pool.Close)
		ready = append(ready, httpserver.Check{Name: "postgres", Fn: r.Pool.Ping})
	}
	if err := startKafka(ctx, s, r, &stops); err != nil {
		return err
	}
	stops.push(func() { stack(r.closers).unwind() })
	parts, err := s.Build(ctx, r)
	if err != nil {
		return err
	}
	for _, w := range parts.Workers {
		stops.push(background.Start(ctx, s.Log, w.Name, w.Run))
	}
	for _, c := range parts.Consumers {
		stops.push(background.Start(ctx, s.Log, c.Name, c.Consumer.Run))
		ready = append(ready, httpserver.Check{Name: c.Name, Fn: c.Consumer.Ready})
	}
	srv, err := newServer(s, tel, ready, parts.Routes) //nolint:contextcheck // Fiber gives each request its own context
	if err != nil {
		return err
	}
	main := Listener{Name: s.Name, Addr: s.Base.HTTPAddr, Server: srv}
	return serve(ctx, s.Log, s.Base.ShutdownTimeout, append([]Listener{main}, parts.Listeners...))
}

// startKafka reaches the cluster, declares the topics and starts the relay with its writer.
func startKafka(ctx context.Context, s Service, r *Resources, stops *stack) error {
	if s.Kafka == nil {
		if s.Relay || len(s.Topics) > 0 {
			return errors.New("service: topics and a relay need Kafka")
		}
		return nil
	}
	var err error
	if r.Cluster, err = broker.NewCluster(*s.Kafka); err != nil {
		return err
	}
	if len(s.Topics) > 0 {
		if err := r.EnsureTopics(ctx); err != nil {
			return err
		}
	}
	if !s.Relay {
		return nil
	}
	if r.Pool == nil {
		return errors.New("service: a relay needs Postgres")
	}
	writer := broker.NewWriter(r.Cluster)
	stops.push(func() {
		if err := writer.Close(); err != nil {
			s.Log.Error("broker writer close failed", "err", err)
		}
	})
	relay := &outbox.Relay{Pool: r.Pool, Publisher: writer, Log: s.Log}
	stops.push(background.Start(ctx, s.Log, "outbox relay", relay.Run))
	return nil
}

// newServer builds the service's HTTP server with its readiness checks and routes.
func newServer(s Service, tel *telemetry.Telemetry, ready []httpserver.Check, routes func(*fiber.App) error) (*httpserver.Server, error) {
	o := s.HTTP
	o.Log, o.Ready, o.Metrics = s.Log, ready, tel.MetricsHandler()
	if o.BodyLimit == 0 {
		o.BodyLimit = s.Base.BodyLimit
	}
	if o.DrainDelay == 0 {
		o.DrainDelay = s.Base.DrainDelay
	}
	srv := httpserver.New(o)
	if routes != nil {
		if err := routes(srv.App); err != nil {
			return nil, err
		}
	}
	return srv, nil
}

// serve listens on every server's address, so that a taken one fails the start before any
// serves, then serves them until ctx ends or one fails, which stops the others; each drains
// its in-flight requests for up to timeout.
func serve(ctx context.Context, log *slog.Logger, timeout time.Duration, servers []Listener) error {
	lns := make([]net.Listener, 0, len(servers))
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for _, s := range servers {
		ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", s.Addr)
		if err != nil {
			return fmt.Errorf("%s: listen %s: %w", s.Name, s.Addr, err)
		}
		log.Info("listening", "server", s.Name, "addr", ln.Addr().String())
		lns = append(lns, ln)
	}
	g, gctx := errgroup.WithContext(ctx)
	for i, s := range servers {
		g.Go(func() error {
			if err := s.Server.Serve(gctx, lns[i], timeout); err != nil {
				return fmt.Errorf("%s: %w", s.Name, err)
			}
			return nil
		})
	}
	return g.Wait()
}

// stack holds the stops of what has started; unwind calls them, the last pushed first.
type stack []func()

func (s *stack) push(stop func()) { *s = append(*s, stop) }

func (s stack) unwind() {
	for i := len(s) - 1; i >= 0; i-- {
		s[i]()
	}
}
