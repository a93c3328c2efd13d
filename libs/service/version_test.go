package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/service"
)

func TestVersionPrintsWhatTheBuildStamped(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "demo")
	pkg := "github.com/podiumhq/podium/libs/service"
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin,
		"-ldflags", "-X "+pkg+".Version=v1.2.3 -X "+pkg+".Commit=abc123 -X "+pkg+".Modified=true", "./testdata/versioned")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(t.Context(), bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"version v1.2.3", "commit abc123", "modified true", "go " + runtime.Version()} {
		if !strings.Contains(string(out), line+"\n") {
			t.Errorf("version printed %q, want the line %q", out, line)
		}
	}
}

func TestBuildInfoReadsTheVCSStampUnlessACommitWasGiven(t *testing.T) {
	stamp := []debug.BuildSetting{
		{Key: "vcs.revision", Value: "f00d"}, {Key: "vcs.time", Value: "2026-11-28T20:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}
	for _, given := range []service.Build{{}, {Commit: "f00d", Modified: "false"}} {
		got := given.WithSettings(stamp)
		if got.Commit != "f00d" || got.Time != "2026-11-28T20:00:00Z" || got.Modified != "true" {
			t.Errorf("given %+v, the stamp gives %+v", given, got)
		}
	}
	got := service.Build{Commit: "beef", Modified: "false"}.WithSettings(stamp)
	if got.Commit != "beef" || got.Time != "" || got.Modified != "false" {
		t.Errorf("another checkout's stamp is ignored: %+v", got)
	}
}

func TestRunLogsTheBuildAtStart(t *testing.T) {
	var logs bytes.Buffer
	failed := errors.New("build failed")
	err := service.Run(t.Context(), service.Service{
		Name: "demo", Base: config.Base{TraceSampleRatio: 1}, Log: slog.New(slog.NewJSONHandler(&logs, nil)),
		Build: func(context.Context, *service.Resources) (service.Parts, error) { return service.Parts{}, failed },
	})
	if !errors.Is(err, failed) {
		t.Fatalf("run: %v", err)
	}
	var start map[string]any
	if err := json.NewDecoder(&logs).Decode(&start); err != nil {
		t.Fatal(err)
	}
	b := service.BuildInfo()
	if start["msg"] != "starting demo" || start["version"] != b.Version || start["commit"] != b.Commit ||
		start["modified"] != b.Modified || start["go"] != runtime.Version() {
		t.Errorf("start line %v, want the build %+v", start, b)
	}
}
