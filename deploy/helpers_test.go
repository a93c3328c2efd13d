// Package deploy_test checks the deployment files (docker-compose.yml, deploy/Dockerfile,
// deploy/k8s) against each other and against the services' configuration code.
package deploy_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/deploy/internal/envspec"
)

// services are the deployable services; owners are those with their own database.
var (
	services = []string{"gateway", "auth", "catalog", "registration", "checkout", "webhooks"}
	owners   = []string{"auth", "catalog", "registration", "checkout", "webhooks"}
)

// commonEnv is set for every service by both deployments.
var commonEnv = []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "SHUTDOWN_DRAIN_DELAY", "SHUTDOWN_TIMEOUT", "KAFKA_BROKERS"}

// deployEnv is what a deployment must set beyond the variables the code marks notEmpty: the
// settings whose defaults fit only a developer's machine (peers and SMTP on 127.0.0.1).
var deployEnv = map[string][]string{
	"gateway":      {"AUTH_URL", "CATALOG_URL", "REGISTRATION_URL", "CHECKOUT_URL", "WEBHOOKS_URL", "REDIS_URL", "IDENTITY_PRIVATE_KEY", "TRUSTED_PROXIES"},
	"auth":         {"DATABASE_URL", "AUTH_OPERATOR_TOKEN", "IDENTITY_TRUSTED_KEYS", "IDENTITY_PRIVATE_KEY", "WEBHOOKS_URL", "CONSOLE_URL", "CONSOLE_TRUSTED_PROXIES", "SMTP_HOST", "SMTP_PORT", "SMTP_FROM"},
	"catalog":      {"DATABASE_URL", "CATALOG_OPERATOR_TOKEN", "IDENTITY_TRUSTED_KEYS"},
	"registration": {"DATABASE_URL", "IDENTITY_TRUSTED_KEYS", "IDENTITY_PRIVATE_KEY", "CATALOG_URL", "SMTP_HOST", "SMTP_PORT", "SMTP_FROM"},
	"checkout":     {"DATABASE_URL", "IDENTITY_TRUSTED_KEYS", "IDENTITY_PRIVATE_KEY", "CATALOG_URL", "REGISTRATION_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"},
	"webhooks":     {"DATABASE_URL", "IDENTITY_TRUSTED_KEYS", "IDENTITY_PRIVATE_KEY", "AUTH_URL", "SECRETS_KEY", "SMTP_HOST", "SMTP_PORT", "SMTP_FROM"},
}

// runtimeEnv is read by the Go runtime of every service, not by its configuration.
var runtimeEnv = []string{"GOMEMLIMIT"}

// signers sign the identity tokens of their calls with their own IDENTITY_PRIVATE_KEY.
var signers = []string{"gateway", "checkout", "registration", "auth", "webhooks"}

// trusts names, per service, the callers whose public keys its IDENTITY_TRUSTED_KEYS must hold,
// and no others: who calls whom (the NetworkPolicies allow the same flows).
var trusts = map[string][]string{
	"auth":         {"gateway", "webhooks"},
	"catalog":      {"gateway", "checkout", "registration"},
	"registration": {"gateway", "checkout", "auth"},
	"checkout":     {"gateway", "registration"},
	"webhooks":     {"gateway", "auth", "registration"},
}

// publicKeyOf returns the base64 public half of a base64 Ed25519 seed.
func publicKeyOf(t testing.TB, who, seed string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(seed)
	if err != nil || len(b) != ed25519.SeedSize {
		t.Fatalf("%s: IDENTITY_PRIVATE_KEY must be the base64 of a 32-byte seed (err %v)", who, err)
	}
	return base64.StdEncoding.EncodeToString(ed25519.NewKeyFromSeed(b).Public().(ed25519.PublicKey))
}

// trustedKeys reads an IDENTITY_TRUSTED_KEYS value: the keys listed per issuer.
func trustedKeys(t testing.TB, who, value string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, entry := range strings.Split(value, ",") {
		issuer, key, ok := strings.Cut(strings.TrimSpace(entry), ":")
		if !ok {
			t.Fatalf("%s: IDENTITY_TRUSTED_KEYS entry %q is not issuer:key", who, entry)
		}
		out[issuer] = append(out[issuer], key)
	}
	return out
}

// operatorTokens are the admin API tokens, which their services want at least 32 characters long.
var operatorTokens = map[string]string{"auth": "AUTH_OPERATOR_TOKEN", "catalog": "CATALOG_OPERATOR_TOKEN"}

// mayBeEmpty are variables a deployment sets on purpose to the empty string.
var mayBeEmpty = map[string]bool{"TRUSTED_PROXIES": true, "CONSOLE_TRUSTED_PROXIES": true}

// listeners are the listen-address variables and the name of the container port each must
// match: the probes, Services and Ingresses name the ports.
var listeners = map[string]string{"HTTP_ADDR": "http", "CONSOLE_ADDR": "console"}

// publicOrigins maps the variables holding a service's own public address (the links it sends
// name it), not a peer's, to the listener that address reaches.
var publicOrigins = map[string]string{"CONSOLE_URL": "CONSOLE_ADDR"}

// repoRoot is the directory holding go.work above the test's working directory.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.work not found above the test directory")
		}
		dir = parent
	}
}

// envSpec is what service svc reads from its environment, parsed from its source and libs/config.
type envSpec struct {
	svc     string
	structs envspec.Structs
	// operator is what its operator commands read (operatorEnv).
	operator []string
}

func loadEnvSpec(t testing.TB, svc string) envSpec {
	t.Helper()
	root := repoRoot(t)
	structs, err := envspec.Load(filepath.Join(root, "services", svc), filepath.Join(root, "libs", "config"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := structs["Config"]; !ok {
		t.Fatalf("%s: no Config struct with env tags under services/%s: update the deploy tests", svc, svc)
	}
	return envSpec{svc: svc, structs: structs, operator: operatorEnv(t, root, svc)}
}

// required lists the variables a deployment of the service must set.
func (s envSpec) required() []string {
	out := append(s.structs.Required("Config"), commonEnv...)
	out = append(out, deployEnv[s.svc]...)
	slices.Sort(out)
	return slices.Compact(out)
}

// known reports whether the service reads name (in any of its configuration structs, or the Go
// runtime does), which catches misspelt names.
func (s envSpec) known(name string) bool {
	return slices.Contains(runtimeEnv, name) || s.structs.Known(name) || slices.Contains(s.operator, name)
}

// operatorEnv lists what a service's operator commands read through libs/admin (admin.FromEnv:
// <SVC>_ADMIN_URL and <SVC>_OPERATOR_TOKEN), for a service whose binary wires
// admin.Operator("<svc>", …); none for another.
func operatorEnv(t testing.TB, root, svc string) []string {
	t.Helper()
	main, err := os.ReadFile(filepath.Join(root, "services", svc, "cmd", svc, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(main), `admin.Operator("`+svc+`"`) {
		return nil
	}
	prefix := strings.ToUpper(svc) + "_"
	return []string{prefix + "ADMIN_URL", prefix + "OPERATOR_TOKEN"}
}

// value is the value of a variable: set in env, or else its envDefault in the code.
func (s envSpec) value(t testing.TB, env map[string]string, name string) string {
	t.Helper()
	if v, ok := env[name]; ok {
		return v
	}
	def, found := s.structs.Lookup("Config", name)
	if !found {
		t.Fatalf("%s: Config does not read %s", s.svc, name)
	}
	return def.Default
}

// duration is the value of a duration variable: set, or else its envDefault in the code.
func (s envSpec) duration(t testing.TB, env map[string]string, name string) time.Duration {
	t.Helper()
	v := s.value(t, env, name)
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil {
		t.Fatalf("%s: %s=%q: %v", s.svc, name, v, err)
	}
	return d
}

// shutdownBudget is SHUTDOWN_DRAIN_DELAY + SHUTDOWN_TIMEOUT for the environment env.
func (s envSpec) shutdownBudget(t testing.TB, env map[string]string) time.Duration {
	return s.duration(t, env, "SHUTDOWN_DRAIN_DELAY") + s.duration(t, env, "SHUTDOWN_TIMEOUT")
}

// pinned reports whether image names a tag other than latest, for the reader, and the digest
// of what was pulled under it, for the pull: name:tag@sha256:<64 hex>.
func pinned(image string) bool {
	return pinnedImage.MatchString(image)
}

// released reports whether image is one of ours at a release's tag, with or without the digest
// a release sets (kustomize edit set image): our images are built by the release, so the base
// cannot know their digests.
func released(image string) bool {
	return releasedImage.MatchString(image)
}

var releasedImage = regexp.MustCompile(`^ghcr\.io/podiumhq/podium/[a-z]+:[0-9]+\.[0-9]+\.[0-9]+(@sha256:[0-9a-f]{64})?$`)

var pinnedImage = regexp.MustCompile(`^[a-z0-9./_-]+:[A-Za-z0-9_][A-Za-z0-9._-]*@sha256:[0-9a-f]{64}$`)
