package main

import (
	"log/slog"

	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// dispatchers are the workers that deliver the pending deliveries: the dispatcher, woken by
// p.wake after each stored event, test, retry and recover, and scanning every second.
func dispatchers(cfg Config, r *service.Resources, p parts, log *slog.Logger) []service.Worker {
	d := &delivery.Dispatcher{
		Store:  store.NewDeliveries(r.Pool, p.sealer.Open),
		Client: delivery.NewClient(delivery.ClientOptions{AllowLoopbackReceivers: cfg.AllowLoopbackReceivers}),
		Clock:  p.clock, Workers: cfg.DeliveryWorkers, PerEndpoint: cfg.DeliveryPerEndpoint,
		PerOrganization: cfg.DeliveryPerOrganization, Wake: p.wake, Log: log,
	}
	return []service.Worker{{Name: "dispatcher", Run: d.Run}}
}
