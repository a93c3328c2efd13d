package service

import (
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
)

// Version is the binary's release, set at build:
// -ldflags "-X github.com/podiumhq/podium/libs/service.Version=v1.2.3".
var Version = "dev"

// Commit and Modified ("true" or "false": the checkout had uncommitted changes) are set at
// build with -X where Go stamps no VCS information (a linked git worktree, a Docker build
// context without .git); otherwise the build info's vcs.revision and vcs.modified give them.
var Commit, Modified string

// Build is what a binary knows of how it was built.
type Build struct {
	Version string
	// Commit is the revision and Modified "true" when the checkout had uncommitted changes
	// ("unknown" when neither -X nor the build info gives them); Time is the commit's time,
	// from the build info only.
	Commit   string
	Modified string
	Time     string
	Go       string
}

// BuildInfo returns the binary's Build: Version and Commit, else the build info's VCS stamp.
func BuildInfo() Build {
	b := Build{Version: Version, Commit: Commit, Modified: Modified, Go: runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		b = b.withSettings(info.Settings)
	}
	for _, f := range []*string{&b.Commit, &b.Modified, &b.Time} {
		if *f == "" {
			*f = "unknown"
		}
	}
	return b
}

func (b Build) withSettings(settings []debug.BuildSetting) Build {
	vcs := map[string]string{}
	for _, s := range settings {
		vcs[s.Key] = s.Value
	}
	rev := vcs["vcs.revision"]
	if rev == "" || b.Commit != "" && b.Commit != rev {
		return b // no stamp, or another checkout's (a worktree inside one): keep what -X gave
	}
	b.Commit, b.Modified, b.Time = rev, vcs["vcs.modified"], vcs["vcs.time"]
	return b
}

// Attrs are the fields of the start log line.
func (b Build) Attrs() []any {
	return []any{
		slog.String("version", b.Version), slog.String("commit", b.Commit),
		slog.String("modified", b.Modified), slog.String("go", b.Go),
	}
}

// Write prints b for an operator, one "name value" line each.
func (b Build) Write(w io.Writer) error {
	_, err := fmt.Fprintf(w, "version %s\ncommit %s\nmodified %s\ncommit-time %s\ngo %s\n",
		b.Version, b.Commit, b.Modified, b.Time, b.Go)
	return err
}
