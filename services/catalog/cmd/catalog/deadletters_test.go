package main

import (
	"bytes"
	"testing"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

func TestDeadLettersCommandListsTheCatalogsOwn(t *testing.T) {
	brokertest.DeadLettersCommand(t, func(args []string, out *bytes.Buffer) error { return program.Run(t.Context(), args, out) },
		domain.EventsTopic, events.CacheGroup("pod-1"), "gateway")
}
