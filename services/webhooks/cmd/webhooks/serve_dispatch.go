package main

import (
	"log/slog"

	"github.com/podiumhq/podium/libs/service"
)

// dispatchers are the workers that deliver the pending deliveries: the dispatcher, woken by
// p.wake after each stored event, test, retry and recover, and scanning every second.
func dispatchers(_ Config, _ *service.Resources, _ parts, _ *slog.Logger) []service.Worker {
	return nil
}
