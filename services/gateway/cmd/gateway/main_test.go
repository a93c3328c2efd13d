package main

import (
	"bytes"
	"testing"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
)

func TestDeadLettersCommandListsTheGatewaysOwn(t *testing.T) {
	brokertest.DeadLettersCommand(t, func(args []string, out *bytes.Buffer) error { return program.Run(t.Context(), args, out) },
		edgecache.CatalogTopic, "gateway-edge-pod-1", "catalog")
}

func TestHelpAndUnknownCommand(t *testing.T) {
	var out bytes.Buffer
	if err := program.Run(t.Context(), []string{"help"}, &out); err != nil || !bytes.Contains(out.Bytes(), []byte("gateway dead-letters replay")) {
		t.Fatalf("help: %v\n%s", err, out.String())
	}
	if err := program.Run(t.Context(), []string{"frobnicate"}, &out); err == nil {
		t.Fatal("an unknown command was accepted")
	}
}
