package service_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestRunDispatchesServeByDefaultAndAnswersUsage(t *testing.T) {
	var ran []string
	p := service.Program{Name: "demo", Usage: "Usage: demo [serve]\n", Commands: map[string]service.Command{
		"serve": func(_ context.Context, args []string, _ io.Writer) error { ran = append(ran, "serve"); return nil },
		"echo": func(_ context.Context, args []string, out io.Writer) error {
			ran = append(ran, "echo")
			_, err := io.WriteString(out, args[0])
			return err
		},
	}}
	var out bytes.Buffer
	if err := p.Run(t.Context(), nil, &out); err != nil {
		t.Fatal(err)
	}
	if err := p.Run(t.Context(), []string{"echo", "hi"}, &out); err != nil || out.String() != "hi" {
		t.Fatalf("echo: %v, wrote %q", err, out.String())
	}
	out.Reset()
	if err := p.Run(t.Context(), []string{"--help"}, &out); err != nil || out.String() != p.Usage+"  demo version   print the version, commit and Go release\n" {
		t.Fatalf("help: %v, wrote %q", err, out.String())
	}
	if err := p.Run(t.Context(), []string{"nope"}, &out); !errors.Is(err, service.ErrUsage) {
		t.Fatalf("an unknown command: %v, want a usage error", err)
	}
	if len(ran) != 2 || ran[0] != "serve" || ran[1] != "echo" {
		t.Fatalf("ran %v", ran)
	}
}

type demoConfig struct {
	config.Base
}

func TestServeLoadsTheConfiguration(t *testing.T) {
	t.Setenv("LOG_LEVEL", "nonsense")
	serve := service.Serve("demo", func(context.Context, demoConfig, *slog.Logger) error { return nil })
	if err := serve(t.Context(), nil, io.Discard); err == nil {
		t.Fatal("a configuration Validate refuses was served")
	}
	t.Setenv("LOG_LEVEL", "warn")
	var level string
	serve = service.Serve("demo", func(_ context.Context, c demoConfig, _ *slog.Logger) error { level = c.Level(); return nil })
	if err := serve(t.Context(), nil, io.Discard); err != nil || level != "warn" {
		t.Fatalf("serve: %v with level %q", err, level)
	}
}

func TestObserveServesProfilesUnderPprofAddr(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tel, err := service.Observe(ctx, "demo", config.Base{PprofAddr: addr, TraceSampleRatio: 1}, testkit.Logger(t))
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Close(testkit.Logger(t))
	testkit.Eventually(t, 5*time.Second, func() string {
		res, err := http.Get("http://" + addr + "/debug/pprof/")
		if err != nil {
			return err.Error()
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return res.Status
		}
		return ""
	})
}
