// Package deploycheck has kubeconform and a real Kubernetes API server read the manifests: it
// renders a kustomization, validates it with kubeconform against the schemas of the tools'
// Kubernetes version (conform.go, schemas.go), starts etcd and kube-apiserver on the loopback (built by `make deploy-check`
// into bin/tools), creates the Strimzi CRDs and the namespace with the restricted Pod Security
// level enforced, applies every rendered object with `kubectl apply --dry-run=server
// --validate=strict` in the documented order (the `podium/apply-first` objects, the migrate Jobs
// among them, first), and creates each pod template as a Pod with --dry-run=server, so the
// PodSecurity admission plugin judges it as it would judge the pods of a rollout. It stops what it
// started, also when ctx is cancelled.
package deploycheck

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	_ "embed"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// ApplyFirstLabel marks the objects a release applies before the rest (deploy/README.md).
const ApplyFirstLabel = "podium/apply-first"

//go:embed crds.yaml
var crds []byte

// Config says what to check and with which binaries.
type Config struct {
	Tools     string    // directory holding kube-apiserver, kubectl, etcd and kubeconform
	Manifests string    // the kustomization directory (deploy/k8s)
	Out       io.Writer // progress and summary
}

// Result is what the check found.
type Result struct {
	Version  string   // the Kubernetes version of the tools (kube-apiserver.version)
	Objects  int      // rendered objects
	Conform  Conform  // kubeconform's verdict
	Accepted int      // accepted by the server dry-run
	Refused  []string // "<Kind>/<name>: <server's answer>"
	Pods     []Pod    // one per pod template
	Timings  []Timing // each step in order
}

// Pod is the Pod Security verdict on one pod template.
type Pod struct {
	Owner  string // <Kind>/<name>
	Passed bool
	Answer string // the server's answer when refused
}

// Timing is how long a step took.
type Timing struct {
	Step string
	Took time.Duration
}

// OK reports whether every object was accepted and every pod template passed.
func (r *Result) OK() bool {
	if r.Objects == 0 || r.Accepted != r.Objects || r.Conform.Valid != r.Objects {
		return false
	}
	for _, p := range r.Pods {
		if !p.Passed {
			return false
		}
	}
	return true
}

// Summary is the report printed at the end.
func (r *Result) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "objects conforming: %d/%d (kubeconform -strict, %d schemas of Kubernetes %s and the CRDs)\n",
		r.Conform.Valid, r.Objects, r.Conform.Schemas, r.Version)
	for _, s := range r.Conform.Refused {
		fmt.Fprintf(&b, "  REFUSED %s\n", s)
	}
	fmt.Fprintf(&b, "objects accepted: %d/%d (kubectl apply --dry-run=server --validate=strict)\n", r.Accepted, r.Objects)
	for _, s := range r.Refused {
		fmt.Fprintf(&b, "  REFUSED %s\n", s)
	}
	passed := 0
	for _, p := range r.Pods {
		if p.Passed {
			passed++
		}
	}
	fmt.Fprintf(&b, "pod templates passing restricted Pod Security: %d/%d\n", passed, len(r.Pods))
	for _, p := range r.Pods {
		if p.Passed {
			fmt.Fprintf(&b, "  restricted OK      %s\n", p.Owner)
		} else {
			fmt.Fprintf(&b, "  restricted REFUSED %s: %s\n", p.Owner, p.Answer)
		}
	}
	b.WriteString("durations:")
	var total time.Duration
	for _, t := range r.Timings {
		total += t.Took
		fmt.Fprintf(&b, " %s %s,", t.Step, t.Took.Round(10*time.Millisecond))
	}
	fmt.Fprintf(&b, " total %s\n", total.Round(10*time.Millisecond))
	if r.OK() {
		b.WriteString("deploy-check: OK\n")
	} else {
		b.WriteString("deploy-check: FAILED\n")
	}
	return b.String()
}

// object is one rendered object.
type object struct {
	kind, name, namespace string
	applyFirst            bool
	yaml                  []byte
	fields                map[string]any
}

func (o object) String() string { return o.kind + "/" + o.name }

// Run runs the check. The error is for a check that could not run (a binary missing, the server
// not starting); refused objects and pods are in the Result.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	for _, b := range []string{"kube-apiserver", "kubectl", "etcd", "kubeconform"} {
		if _, err := os.Stat(filepath.Join(cfg.Tools, b)); err != nil {
			return nil, fmt.Errorf("%s missing (make deploy-check builds it): %w", b, err)
		}
	}
	version, err := os.ReadFile(filepath.Join(cfg.Tools, "kube-apiserver.version"))
	if err != nil {
		return nil, fmt.Errorf("the version kube-apiserver was built at (make deploy-check records it): %w", err)
	}
	res := &Result{Version: strings.TrimSpace(string(version))}
	step := func(name string, f func() error) error {
		start := time.Now()
		fmt.Fprintf(cfg.Out, "== %s\n", name)
		err := f()
		res.Timings = append(res.Timings, Timing{name, time.Since(start)})
		return err
	}

	var objs []object
	if err := step("render", func() (err error) {
		objs, err = render(cfg.Manifests)
		if err == nil {
			fmt.Fprintf(cfg.Out, "%d objects from kustomize build %s\n", len(objs), cfg.Manifests)
		}
		return err
	}); err != nil {
		return res, err
	}
	res.Objects = len(objs)
	ns := ""
	for _, o := range objs {
		if o.kind == "Namespace" {
			ns = o.name
		}
	}
	if ns == "" {
		return res, errors.New("the manifests create no Namespace")
	}

	var dir string
	dir, err = os.MkdirTemp("", "deploycheck-")
	if err != nil {
		return res, err
	}
	defer func() { _ = os.RemoveAll(dir) }()

	if err := step("kubeconform against the schemas of "+res.Version, func() (err error) {
		res.Conform, err = conform(ctx, cfg.Tools, res.Version, dir, objs)
		return err
	}); err != nil {
		return res, err
	}

	var c *cluster
	defer func() {
		if c != nil {
			c.stop()
		}
	}()
	if err := step("start etcd and kube-apiserver", func() (err error) {
		c, err = start(ctx, cfg.Tools, dir)
		return err
	}); err != nil {
		return res, err
	}

	if err := step("create CRDs and namespace", func() error {
		if _, err := c.kubectl(ctx, crds, "apply", "-f", "-"); err != nil {
			return err
		}
		if _, err := c.kubectl(ctx, nil, "wait", "--for=condition=Established", "--timeout=60s",
			"crd/kafkatopics.kafka.strimzi.io", "crd/kafkausers.kafka.strimzi.io"); err != nil {
			return err
		}
		// kubectl's discovery cache predates the CRDs.
		if err := os.RemoveAll(filepath.Join(dir, "kubectl-cache")); err != nil {
			return err
		}
		if _, err := c.kubectl(ctx, nil, "create", "namespace", ns, "--save-config"); err != nil {
			return err
		}
		// The enforced level is the check's, whatever the manifests' Namespace says.
		_, err := c.kubectl(ctx, nil, "label", "namespace", ns, "--overwrite",
			"pod-security.kubernetes.io/enforce=restricted", "pod-security.kubernetes.io/enforce-version=latest")
		return err
	}); err != nil {
		return res, err
	}

	// The documented order: the apply-first objects (namespace, ServiceAccounts, ConfigMaps,
	// KafkaTopics and the migrate Jobs), then the rest, each group in kustomize's order.
	var ordered []object
	for _, first := range []bool{true, false} {
		for _, o := range objs {
			if o.applyFirst == first {
				ordered = append(ordered, o)
			}
		}
	}
	if err := step("server dry-run of every object", func() error {
		for _, o := range ordered {
			if err := ctx.Err(); err != nil {
				return err
			}
			out, err := c.kubectl(ctx, o.yaml, "apply", "--dry-run=server", "--validate=strict", "-f", "-")
			phase := "rest"
			if o.applyFirst {
				phase = "apply-first"
			}
			if err != nil {
				res.Refused = append(res.Refused, fmt.Sprintf("%s: %s", o, oneLine(err.Error())))
				fmt.Fprintf(cfg.Out, "  %-11s REFUSED %s\n", phase, o)
				continue
			}
			res.Accepted++
			fmt.Fprintf(cfg.Out, "  %-11s %s\n", phase, oneLine(out))
		}
		return nil
	}); err != nil {
		return res, err
	}

	if err := step("restricted Pod Security of every pod template", func() error {
		// Pods name their ServiceAccount, which the ServiceAccount admission plugin looks up: these
		// are created for real (the dry-run above created nothing).
		for _, o := range objs {
			if o.kind == "ServiceAccount" {
				if _, err := c.kubectl(ctx, o.yaml, "apply", "-f", "-"); err != nil {
					return err
				}
			}
		}
		for _, o := range objs {
			pod, ok := podOf(o, ns)
			if !ok {
				continue
			}
			_, err := c.kubectl(ctx, pod, "create", "--dry-run=server", "--validate=strict", "-f", "-")
			p := Pod{Owner: o.String(), Passed: err == nil}
			if err != nil {
				p.Answer = oneLine(err.Error())
			}
			res.Pods = append(res.Pods, p)
		}
		return nil
	}); err != nil {
		return res, err
	}

	_ = step("stop", func() error {
		c.stop()
		c = nil
		return nil
	})
	return res, nil
}

// render is `kustomize build dir`, one object per rendered resource.
func render(dir string) ([]object, error) {
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	var out []object
	for _, r := range m.Resources() {
		o, err := objectOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func objectOf(r *resource.Resource) (object, error) {
	y, err := r.AsYAML()
	if err != nil {
		return object{}, err
	}
	f, err := r.Map()
	if err != nil {
		return object{}, err
	}
	return object{
		kind: r.GetKind(), name: r.GetName(), namespace: r.GetNamespace(),
		applyFirst: r.GetLabels()[ApplyFirstLabel] == "true",
		yaml:       y, fields: f,
	}, nil
}

// podOf is the Pod a workload's pod template makes, in namespace ns.
func podOf(o object, ns string) ([]byte, bool) {
	path := []string{"spec", "template"}
	switch o.kind {
	case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job":
	case "CronJob":
		path = []string{"spec", "jobTemplate", "spec", "template"}
	default:
		return nil, false
	}
	var t any = o.fields
	for _, k := range path {
		m, ok := t.(map[string]any)
		if !ok {
			return nil, false
		}
		t = m[k]
	}
	tmpl, ok := t.(map[string]any)
	if !ok {
		return nil, false
	}
	meta := map[string]any{"name": strings.ToLower(o.kind) + "-" + o.name, "namespace": ns}
	if m, ok := tmpl["metadata"].(map[string]any); ok {
		for _, k := range []string{"labels", "annotations"} {
			if v, ok := m[k]; ok {
				meta[k] = v
			}
		}
	}
	y, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": tmpl["spec"]})
	if err != nil {
		return nil, false
	}
	return y, true
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cluster is a started etcd and kube-apiserver.
type cluster struct {
	dir        string
	kubectlBin string
	kubeconfig string
	procs      []proc // in start order
}

type proc struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when it has exited
}

const token = "deploycheck-admin"

func start(ctx context.Context, tools, dir string) (*cluster, error) {
	c := &cluster{dir: dir, kubectlBin: filepath.Join(tools, "kubectl"), kubeconfig: filepath.Join(dir, "kubeconfig")}
	ports, err := freePorts(ctx, 3)
	if err != nil {
		return nil, err
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	if err := c.spawn(filepath.Join(tools, "etcd"), "etcd.log",
		"--name=deploycheck", "--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=deploycheck="+peerURL, "--log-level=warn", "--unsafe-no-fsync"); err != nil {
		return c, err
	}
	if err := c.waitFor(ctx, "etcd", "etcd.log", etcdURL+"/health", http.DefaultClient, 30*time.Second); err != nil {
		return c, err
	}

	certPEM, keyPEM, err := servingCert()
	if err != nil {
		return c, err
	}
	saKey, err := ecKeyPEM()
	if err != nil {
		return c, err
	}
	files := map[string][]byte{
		"serving.crt": certPEM, "serving.key": keyPEM, "sa.key": saKey,
		"tokens.csv": []byte(token + ",deploycheck,deploycheck,system:masters\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return c, err
		}
	}
	server := fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	if err := c.spawn(filepath.Join(tools, "kube-apiserver"), "kube-apiserver.log",
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", ports[2]),
		"--cert-dir="+filepath.Join(dir, "certs"),
		"--tls-cert-file="+filepath.Join(dir, "serving.crt"), "--tls-private-key-file="+filepath.Join(dir, "serving.key"),
		"--token-auth-file="+filepath.Join(dir, "tokens.csv"), "--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+filepath.Join(dir, "sa.key"),
		"--service-account-signing-key-file="+filepath.Join(dir, "sa.key"),
		"--service-cluster-ip-range=10.96.0.0/16",
		"--enable-admission-plugins=PodSecurity",
		// As a cluster's API server runs (kubeadm's too): PodSecurity, not this flag, decides.
		"--allow-privileged=true"); err != nil {
		return c, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	client := &http.Client{Transport: &bearer{&http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}}
	if err := c.waitFor(ctx, "kube-apiserver", "kube-apiserver.log", server+"/readyz", client, 120*time.Second); err != nil {
		return c, err
	}
	kubeconfig := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: deploycheck, cluster: {server: %q, certificate-authority-data: %s}}]
users: [{name: deploycheck, user: {token: %s}}]
contexts: [{name: deploycheck, context: {cluster: deploycheck, user: deploycheck}}]
current-context: deploycheck
`, server, base64.StdEncoding.EncodeToString(certPEM), token)
	return c, os.WriteFile(c.kubeconfig, []byte(kubeconfig), 0o600)
}

type bearer struct{ rt http.RoundTripper }

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	return b.rt.RoundTrip(r)
}

// spawn starts a server (serverAttr), its output in dir/log.
func (c *cluster) spawn(bin, log string, args ...string) error {
	f, err := os.Create(filepath.Join(c.dir, log)) //nolint:gosec // a file of its own temporary directory
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...) //nolint:gosec,noctx // bin/tools' etcd or kube-apiserver, with the check's arguments; stop ends it, in order, not a context
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = serverAttr()
	if err := cmd.Start(); err != nil {
		_ = f.Close()
		return err
	}
	_ = f.Close()
	p := proc{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	c.procs = append(c.procs, p)
	return nil
}

// waitFor polls url until it answers 200, the process dies or the time is up.
func (c *cluster) waitFor(ctx context.Context, name, log, url string, client *http.Client, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	p := c.procs[len(c.procs)-1]
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := client.Do(req); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready at %s after %s: %s", name, url, limit, c.tail(log))
		}
		select {
		case <-p.done:
			return fmt.Errorf("%s exited: %s", name, c.tail(log))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (c *cluster) tail(log string) string {
	b, _ := os.ReadFile(filepath.Join(c.dir, log)) //nolint:gosec // a file of its own temporary directory
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// stop ends the servers in reverse start order: SIGTERM, then SIGKILL after 10 s.
func (c *cluster) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		pid := p.cmd.Process.Pid
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-p.done
		}
	}
	c.procs = nil
}

// kubectl runs kubectl against the cluster with stdin; the error carries its stderr.
func (c *cluster) kubectl(ctx context.Context, stdin []byte, args ...string) (string, error) {
	args = append([]string{"--kubeconfig=" + c.kubeconfig, "--cache-dir=" + filepath.Join(c.dir, "kubectl-cache")}, args...)
	cmd := exec.CommandContext(ctx, c.kubectlBin, args...) //nolint:gosec // bin/tools' kubectl, with arguments the check makes
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), errors.New(msg)
	}
	return strings.TrimSpace(out.String() + "\n" + errb.String()), nil
}

func freePorts(ctx context.Context, n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// servingCert is a self-signed certificate for 127.0.0.1, valid for a day.
func servingCert() (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "deploycheck kube-apiserver"},
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), nil
}

// ecKeyPEM is the service-account signing key (its public half verifies the tokens).
func ecKeyPEM() ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}
