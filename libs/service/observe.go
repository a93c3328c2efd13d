package service

import (
	"context"
	"log/slog"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/telemetry"
)

// Observe sets up the service's telemetry from its configuration and, when PPROF_ADDR is set,
// serves its Go runtime profiles there until ctx ends. The caller closes the telemetry last.
func Observe(ctx context.Context, name string, cfg config.Base, log *slog.Logger) (*telemetry.Telemetry, error) {
	tel, err := telemetry.Setup(ctx, telemetry.Options{Service: name, Endpoint: cfg.OTLPEndpoint, SampleRatio: cfg.TraceSampleRatio})
	if err != nil {
		return nil, err
	}
	go func() {
		if err := telemetry.ServeProfiles(ctx, cfg.PprofAddr); err != nil {
			log.Error("profiles server failed", "addr", cfg.PprofAddr, "err", err)
		}
	}()
	return tel, nil
}
