package main

import (
	"bytes"
	"testing"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/events"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

func TestDeadLettersCommandListsWebhooksOwn(t *testing.T) {
	brokertest.DeadLettersCommand(t, func(args []string, out *bytes.Buffer) error { return program.Run(t.Context(), args, out) },
		domain.OrdersTopic, events.Group, "checkout")
}
