package deploy_test

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

const (
	healthy   = types.ServiceConditionHealthy
	completed = types.ServiceConditionCompletedSuccessfully
)

// infrastructure are the compose services that are not Podium's.
var infrastructure = []string{"postgres", "redis", "kafka", "kafka-init", "jaeger", "stripe-mock", "mailpit"}

// loadCompose loads docker-compose.yml as `docker compose` would, with an empty environment
// (so the local defaults are what is checked) and the given profiles ("*" for all).
func loadCompose(t *testing.T, profiles ...string) *types.Project {
	t.Helper()
	root := repoRoot(t)
	opts, err := cli.NewProjectOptions([]string{filepath.Join(root, "docker-compose.yml")},
		cli.WithWorkingDirectory(root), cli.WithEnv([]string{}), cli.WithProfiles(profiles))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("load docker-compose.yml: %v", err)
	}
	return p
}

func composeEnv(t *testing.T, s types.ServiceConfig) map[string]string {
	t.Helper()
	env := map[string]string{}
	for k, v := range s.Environment {
		if v == nil {
			t.Errorf("%s: %s has no value", s.Name, k)
			continue
		}
		env[k] = *v
	}
	return env
}

// oneShot reports whether s runs to completion (a migration, kafka-init) rather than serving.
func oneShot(s types.ServiceConfig) bool {
	return s.Restart == types.RestartPolicyNo
}

func TestComposeServices(t *testing.T) {
	p := loadCompose(t)
	for _, name := range slices.Concat(services, infrastructure) {
		if _, ok := p.Services[name]; !ok {
			t.Errorf("service %s is missing (or behind a profile)", name)
		}
	}
	for _, o := range owners {
		if _, ok := p.Services[o+"-migrate"]; !ok {
			t.Errorf("service %s-migrate is missing (or behind a profile): every owner has a migrate subcommand", o)
		}
	}
}

func TestComposeMigrations(t *testing.T) {
	p := loadCompose(t)
	for _, o := range owners {
		m, ok := p.Services[o+"-migrate"]
		if !ok {
			continue // reported by TestComposeServices
		}
		svc := p.Services[o]
		if !oneShot(m) || !slices.Equal(m.Command, types.ShellCommand{"migrate"}) {
			t.Errorf("%s-migrate: want command [migrate] and restart \"no\", got %v / %q", o, m.Command, m.Restart)
		}
		if m.Build == nil || svc.Build == nil || m.Build.Dockerfile != svc.Build.Dockerfile || !maps.EqualFunc(m.Build.Args, svc.Build.Args, sameArg) {
			t.Errorf("%s-migrate: must be built as %s's image", o, o)
		}
		if !maps.Equal(composeEnv(t, m), composeEnv(t, svc)) {
			t.Errorf("%s-migrate: environment differs from %s's", o, o)
		}
		if svc.DependsOn[o+"-migrate"].Condition != completed {
			t.Errorf("%s: must depend on %s-migrate with %s", o, o, completed)
		}
	}
}

func TestComposeDependsOn(t *testing.T) {
	want := map[string][]string{
		"gateway":      {"auth", "catalog", "registration", "checkout", "webhooks", "redis", "kafka", "kafka-init"},
		"auth":         {"auth-migrate", "postgres", "kafka", "kafka-init", "mailpit"},
		"catalog":      {"catalog-migrate", "postgres", "kafka", "kafka-init"},
		"registration": {"registration-migrate", "catalog", "postgres", "kafka", "kafka-init", "mailpit"},
		"checkout":     {"checkout-migrate", "catalog", "registration", "postgres", "kafka", "kafka-init", "stripe-mock"},
		"webhooks":     {"webhooks-migrate", "auth", "postgres", "kafka", "kafka-init", "mailpit"},
	}
	p := loadCompose(t, "*")
	for svc, deps := range want {
		for _, d := range deps {
			if _, ok := p.Services[svc].DependsOn[d]; !ok {
				t.Errorf("%s: must depend on %s", svc, d)
			}
		}
	}
	for name, s := range p.Services {
		for dep, cond := range s.DependsOn {
			target := p.Services[dep]
			switch cond.Condition {
			case healthy:
				if !hasHealthcheck(target) {
					t.Errorf("%s: waits for %s to be healthy, but %s has no healthcheck", name, dep, dep)
				}
			case completed:
				if !oneShot(target) {
					t.Errorf("%s: waits for %s to complete, but %s is not a one-shot service", name, dep, dep)
				}
			default:
				t.Errorf("%s: depends on %s with %q; want %s or %s", name, dep, cond.Condition, healthy, completed)
			}
		}
	}
}

func hasHealthcheck(s types.ServiceConfig) bool {
	hc := s.HealthCheck
	return hc != nil && !hc.Disable && len(hc.Test) > 0 && hc.Test[0] != "NONE"
}

func TestComposeHealthchecks(t *testing.T) {
	p := loadCompose(t, "*")
	for name, s := range p.Services {
		if oneShot(s) {
			continue
		}
		if !hasHealthcheck(s) {
			t.Errorf("%s: no healthcheck", name)
		}
	}
	for _, svc := range services {
		test := strings.Join(p.Services[svc].HealthCheck.Test, " ")
		if !strings.Contains(test, "/healthcheck") || !strings.Contains(test, ":8080/readyz") {
			t.Errorf("%s: healthcheck %q should run /healthcheck against :8080/readyz", svc, test)
		}
	}
}

func TestComposePorts(t *testing.T) {
	want := map[string]string{
		"gateway": "127.0.0.1:8080->8080",
		"auth":    "127.0.0.1:8090->8090", // the organizers' console, not the admin and internal APIs
		"jaeger":  "127.0.0.1:16686->16686",
		"mailpit": "127.0.0.1:8025->8025",
	}
	got := map[string]string{}
	for name, s := range loadCompose(t, "*").Services {
		var ports []string
		for _, port := range s.Ports {
			ports = append(ports, port.HostIP+":"+port.Published+"->"+strconv.FormatUint(uint64(port.Target), 10))
		}
		if len(ports) > 0 {
			got[name] = strings.Join(ports, ",")
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("published ports = %v, want only %v", got, want)
	}
}

func TestComposeImages(t *testing.T) {
	root := repoRoot(t)
	for name, s := range loadCompose(t, "*").Services {
		if s.Build == nil {
			if !pinned(s.Image) {
				t.Errorf("%s: image %q must be pinned to a tag other than latest and its digest", name, s.Image)
			}
			continue
		}
		svc := strings.TrimSuffix(name, "-migrate")
		if arg := s.Build.Args["SERVICE"]; !slices.Contains(services, svc) || s.Build.Dockerfile != "deploy/Dockerfile" || arg == nil || *arg != svc {
			t.Errorf("%s: builds %q with %v, want deploy/Dockerfile with SERVICE=%s", name, s.Build.Dockerfile, s.Build.Args, svc)
		}
		if filepath.Clean(s.Build.Context) != root {
			t.Errorf("%s: build context %q, want the repository root (go.work)", name, s.Build.Context)
		}
		if s.Image != "" && !pinned(s.Image) {
			t.Errorf("%s: image %q must be pinned to a tag other than latest and its digest", name, s.Image)
		}
	}
}

func TestComposeHardening(t *testing.T) {
	for name, s := range loadCompose(t, "*").Services {
		if s.Build == nil {
			continue // third-party images run as their authors ship them
		}
		if !s.ReadOnly || !slices.Contains(s.CapDrop, "ALL") || !slices.Contains(s.SecurityOpt, "no-new-privileges:true") || s.Privileged {
			t.Errorf("%s: want read_only, cap_drop [ALL], security_opt no-new-privileges:true, not privileged", name)
		}
		if oneShot(s) {
			continue
		}
		spec := loadEnvSpec(t, name)
		budget := spec.shutdownBudget(t, composeEnv(t, s))
		if s.StopGracePeriod == nil || time.Duration(*s.StopGracePeriod) <= budget {
			t.Errorf("%s: stop_grace_period must exceed SHUTDOWN_DRAIN_DELAY + SHUTDOWN_TIMEOUT (%s)", name, budget)
		}
	}
}

// sameArg reports whether two build arguments are the same value (or both unset).
func sameArg(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
