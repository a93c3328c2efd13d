package deploy_test

import (
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
)

func TestComposeEnvironment(t *testing.T) {
	p := loadCompose(t)
	for _, svc := range services {
		spec := loadEnvSpec(t, svc)
		env := composeEnv(t, p.Services[svc])
		for _, name := range spec.required() {
			v, ok := env[name]
			switch {
			case !ok:
				t.Errorf("%s: %s is not set", svc, name)
			case v == "" && !mayBeEmpty[name]:
				t.Errorf("%s: %s is empty", svc, name)
			}
		}
		for name, v := range env {
			if !spec.known(name) {
				t.Errorf("%s: %s is set but %s does not read it (misspelt?)", svc, name, svc)
			}
			if listener, public := publicOrigins[name]; public {
				checkComposeOrigin(t, p.Services[svc], spec, name, v, listener)
				continue
			}
			checkComposeAddress(t, p, svc, name, v)
		}
	}
	for svc, name := range operatorTokens {
		if tok := composeEnv(t, p.Services[svc])[name]; len(tok) < 32 {
			t.Errorf("%s: %s default has %d characters, %s wants at least 32", svc, name, len(tok), svc)
		}
	}
}

// checkComposeAddress checks that a variable naming a peer points at a compose service.
func checkComposeAddress(t *testing.T, p *types.Project, svc, name, value string) {
	t.Helper()
	addressed := strings.HasSuffix(name, "_URL") || strings.HasSuffix(name, "_BROKERS") ||
		strings.HasSuffix(name, "_ENDPOINT") || strings.HasSuffix(name, "_API_BASE") || name == "SMTP_HOST"
	if !addressed || value == "" {
		return
	}
	for _, addr := range strings.Split(value, ",") {
		host, port := splitAddress(addr)
		if strings.HasSuffix(name, "_ADMIN_URL") && host == "127.0.0.1" {
			continue // operator commands run inside the service's own container
		}
		if _, ok := p.Services[host]; !ok {
			t.Errorf("%s: %s=%s: host %q is not a compose service", svc, name, value, host)
		}
		if peer := strings.ToLower(strings.TrimSuffix(name, "_URL")); slices.Contains(services, peer) && (host != peer || port != "8080") {
			t.Errorf("%s: %s=%s, want http://%s:8080", svc, name, value, peer)
		}
	}
}

// checkComposeOrigin checks that a public origin is where the host reaches the service's
// listener: http://localhost on the port published for it.
func checkComposeOrigin(t *testing.T, s types.ServiceConfig, spec envSpec, name, value, listener string) {
	t.Helper()
	_, port := splitAddress(spec.value(t, composeEnv(t, s), listener))
	want := ""
	for _, p := range s.Ports {
		if strconv.FormatUint(uint64(p.Target), 10) == port {
			want = "http://localhost:" + p.Published
		}
	}
	if want == "" || value != want {
		t.Errorf("%s: %s=%s, want http://localhost:<the port published for %s (%s)>", s.Name, name, value, listener, port)
	}
}

func splitAddress(addr string) (host, port string) {
	if strings.Contains(addr, "://") {
		u, err := url.Parse(addr)
		if err != nil {
			return addr, ""
		}
		return u.Hostname(), u.Port()
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, ""
	}
	return host, port
}

// TestComposeIdentityKeys checks that every signer has a key of its own and that each service
// trusts exactly the public keys of its callers.
func TestComposeIdentityKeys(t *testing.T) {
	p := loadCompose(t)
	public := map[string]string{}
	for _, s := range signers {
		public[s] = publicKeyOf(t, s, composeEnv(t, p.Services[s])["IDENTITY_PRIVATE_KEY"])
	}
	if len(slices.Compact(slices.Sorted(maps.Values(public)))) != len(signers) {
		t.Errorf("signers share a key pair: %v", public)
	}
	for svc, callers := range trusts {
		got := trustedKeys(t, svc, composeEnv(t, p.Services[svc])["IDENTITY_TRUSTED_KEYS"])
		want := map[string][]string{}
		for _, c := range callers {
			want[c] = []string{public[c]}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: IDENTITY_TRUSTED_KEYS holds %v, want exactly its callers' keys %v", svc, got, want)
		}
	}
}

func TestComposeDatabases(t *testing.T) {
	p := loadCompose(t)
	root := repoRoot(t)
	pg := p.Services["postgres"]
	var initSQL string
	for _, v := range pg.Volumes {
		if strings.HasPrefix(v.Target, "/docker-entrypoint-initdb.d/") {
			initSQL = v.Source
		}
	}
	if initSQL == "" {
		t.Fatal("postgres: no init script mounted under /docker-entrypoint-initdb.d/")
	}
	if !filepath.IsAbs(initSQL) {
		initSQL = filepath.Join(root, initSQL)
	}
	sql, err := os.ReadFile(initSQL)
	if err != nil {
		t.Fatal(err)
	}
	created := map[string]string{}
	for _, m := range regexp.MustCompile(`(?i)CREATE DATABASE\s+(\w+)\s+OWNER\s+(\w+)`).FindAllStringSubmatch(string(sql), -1) {
		created[m[1]] = m[2]
	}
	for _, o := range owners {
		u, err := url.Parse(composeEnv(t, p.Services[o])["DATABASE_URL"])
		if err != nil {
			t.Errorf("%s: DATABASE_URL: %v", o, err)
			continue
		}
		db := strings.TrimPrefix(u.Path, "/")
		if u.Hostname() != "postgres" || db != o || u.User.Username() != o {
			t.Errorf("%s: DATABASE_URL should be %s's own database and role on postgres, got %s", o, o, u.Redacted())
		}
		if created[db] != o {
			t.Errorf("%s: the init script does not create database %s owned by %s", o, db, o)
		}
	}
}
