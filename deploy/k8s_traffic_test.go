package deploy_test

import (
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

func TestServicesSelectServers(t *testing.T) {
	built := kustomizeBuild(t)
	svcs := ofType[*corev1.Service](built)
	for _, w := range workloads(built) {
		podLabels := labels.Set(w.template.Labels)
		for _, s := range svcs {
			if len(s.Spec.Selector) == 0 {
				t.Errorf("Service %s: no selector", s.Name)
				continue
			}
			selects := labels.SelectorFromSet(s.Spec.Selector).Matches(podLabels)
			if w.kind == "Job" && selects {
				t.Errorf("Service %s selects the pods of %s, which serve nothing", s.Name, w)
			}
			if w.kind != "Deployment" || s.Name != w.name {
				continue
			}
			if !selects {
				t.Errorf("Service %s does not select the pods of %s", s.Name, w)
			}
			c := w.template.Spec.Containers[0]
			if len(s.Spec.Ports) == 0 || containerPort(c, s.Spec.Ports[0].TargetPort) != httpPort {
				t.Errorf("Service %s: must target the container's port %d", s.Name, httpPort)
			}
		}
	}
}

// wantFlows are the connections the NetworkPolicies must allow, as "source -> destination:port"
// (TCP unless a protocol is named); every other connection between the endpoints modeled below
// must be refused. The flows every server, owner or pod has are added by expectedFlows.
var wantFlows = []string{
	"ingress-nginx -> gateway:8080",
	"ingress-nginx -> auth:8090", // the organizers' console, not the admin and internal APIs
	"gateway -> auth:8080",
	"gateway -> catalog:8080",
	"gateway -> registration:8080",
	"gateway -> checkout:8080",
	"gateway -> webhooks:8080",
	"gateway -> redis:6379",
	"registration -> catalog:8080",  // GET /internal/events/{id}
	"registration -> checkout:8080", // the test-data wipe
	"registration -> webhooks:8080", // the test-data wipe
	"registration -> smtp-relay:587",
	"auth -> smtp-relay:587",        // the console's sign-in e-mails
	"checkout -> catalog:8080",      // prices
	"checkout -> registration:8080", // holds
	"checkout -> stripe:443",
	"checkout -> receiver:443",   // Stripe has no fixed range: any public address is open
	"auth -> webhooks:8080",      // the console's Webhooks tab
	"auth -> registration:8080",  // the console's test-mode tools
	"webhooks -> auth:8080",      // the contacts of an organization whose endpoint is disabled
	"webhooks -> smtp-relay:587", // that mail
	"webhooks -> receiver:443",   // an organizer's endpoint
	"webhooks -> stripe:443",     // any public address is a possible endpoint
}

// endpoint is a pod (namespace and labels) or an address outside the cluster (ip), with the
// ports it listens on ("8080", "53/UDP").
type endpoint struct {
	name, namespace, ip string
	labels              map[string]string
	ports               []string
}

// outsiders are the endpoints outside the namespace that the model knows: where the base's
// configuration points (Kafka, collector, DNS), stand-ins for the per-environment addresses
// (Postgres, Redis, SMTP relay, Stripe, an organizer's webhook receiver) and some that nothing
// may reach or come from: an HTTPS server in each private, carrier-grade NAT and link-local range.
var outsiders = []endpoint{
	{name: "dns", namespace: "kube-system", labels: map[string]string{"k8s-app": "kube-dns"}, ports: []string{"53/UDP", "53/TCP"}},
	{name: "kafka", namespace: "kafka", labels: map[string]string{"strimzi.io/kind": "Kafka"}, ports: []string{"9092"}},
	{name: "otel-collector", namespace: "monitoring", labels: map[string]string{nameLabel: "otel-collector"}, ports: []string{"4318"}},
	{name: "prometheus", namespace: "monitoring", labels: map[string]string{nameLabel: "prometheus"}},
	{name: "ingress-nginx", namespace: "ingress-nginx", labels: map[string]string{nameLabel: "ingress-nginx"}},
	{name: "other-namespace", namespace: "default", labels: map[string]string{nameLabel: "gateway"}, ports: []string{"8080", "443"}},
	{name: "postgres", ip: "10.30.0.5", ports: []string{"5432"}},
	{name: "redis", ip: "10.30.0.6", ports: []string{"6379"}},
	{name: "private-https", ip: "10.30.0.7", ports: []string{"443"}},
	{name: "private-https-172", ip: "172.20.0.7", ports: []string{"443"}},
	{name: "private-https-192", ip: "192.168.1.7", ports: []string{"443"}},
	{name: "cgnat-https", ip: "100.64.0.7", ports: []string{"443"}},
	{name: "cloud-metadata", ip: "169.254.169.254", ports: []string{"80", "443"}},
	{name: "smtp-relay", ip: "198.51.100.25", ports: []string{"587", "25"}},
	{name: "stripe", ip: "203.0.113.10", ports: []string{"443"}},
	{name: "receiver", ip: "198.51.100.80", ports: []string{"443", "80"}},
}

// expectedFlows is wantFlows plus what is common: Prometheus scrapes every server; every pod
// resolves names; every server uses Kafka and exports traces; every owner's pods and migration
// Job reach Postgres.
func expectedFlows(servers, jobs []string) []string {
	out := slices.Clone(wantFlows)
	for _, svc := range servers {
		out = append(out, "prometheus -> "+svc+":8080", svc+" -> kafka:9092", svc+" -> otel-collector:4318")
	}
	for _, w := range slices.Concat(servers, jobs) {
		out = append(out, w+" -> dns:53/UDP", w+" -> dns:53/TCP")
		if slices.Contains(owners, strings.TrimSuffix(w, "-migrate")) {
			out = append(out, w+" -> postgres:5432")
		}
	}
	return sorted(out)
}

func TestNetworkPolicies(t *testing.T) {
	built := kustomizeBuild(t)
	policies := ofType[*networkingv1.NetworkPolicy](built)
	for _, typ := range []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress} {
		if !slices.ContainsFunc(policies, func(p *networkingv1.NetworkPolicy) bool {
			return p.Spec.PodSelector.Size() == 0 && slices.Equal(p.Spec.PolicyTypes, []networkingv1.PolicyType{typ}) &&
				len(p.Spec.Ingress) == 0 && len(p.Spec.Egress) == 0
		}) {
			t.Errorf("no default-deny %s NetworkPolicy for the namespace", typ)
		}
	}
	for _, p := range policies {
		for _, ports := range slices.Concat(ingressPorts(p), egressPorts(p)) {
			if len(ports) == 0 {
				t.Errorf("NetworkPolicy %s: a rule opens every port", p.Name)
			}
		}
	}
	var inside, servers, jobs []string
	endpoints := slices.Clone(outsiders)
	for _, w := range workloads(built) {
		if w.kind == "Deployment" {
			servers = append(servers, w.name)
		} else {
			jobs = append(jobs, w.name)
		}
		inside = append(inside, w.name)
		endpoints = append(endpoints, modeled(w))
	}
	var got []string
	for _, src := range endpoints {
		for _, dst := range endpoints {
			if src.name == dst.name || (src.namespace != namespace && dst.namespace != namespace) {
				continue // only connections from or to the namespace are its policies' business
			}
			for _, port := range dst.ports {
				if allows(policies, src, dst, port) {
					got = append(got, src.name+" -> "+dst.name+":"+port)
				}
			}
		}
	}
	got = sorted(got)
	want := expectedFlows(servers, jobs)
	for _, f := range want {
		if !slices.Contains(got, f) {
			t.Errorf("refused, but must be allowed: %s", f)
		}
	}
	for _, f := range got {
		if !slices.Contains(want, f) {
			t.Errorf("allowed, but not an expected flow: %s", f)
		}
	}
	if len(inside) != len(services)+len(owners) {
		t.Errorf("modeled %v, want the %d Deployments and %d migration Jobs", inside, len(services), len(owners))
	}
}

// modeled is the endpoint of a workload's pods. A Deployment's listen on the HTTP port, the
// ports its container declares, and one nothing may reach (pprof); a Job's on none.
func modeled(w workload) endpoint {
	e := endpoint{name: w.name, namespace: namespace, labels: w.template.Labels}
	if w.kind != "Deployment" {
		return e
	}
	e.ports = []string{strconv.Itoa(httpPort), "6060"}
	for _, c := range w.template.Spec.Containers {
		for _, p := range c.Ports {
			e.ports = append(e.ports, strconv.Itoa(int(p.ContainerPort)))
		}
	}
	slices.Sort(e.ports)
	e.ports = slices.Compact(e.ports)
	return e
}

// TestSMTPPortIsOpen: a service that sends mail may reach the relay on the SMTP_PORT its
// ConfigMap sets, so the port and the egress policy change together.
func TestSMTPPortIsOpen(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	objs := index(built, templates(files))
	policies := ofType[*networkingv1.NetworkPolicy](built)
	relay := outsiders[slices.IndexFunc(outsiders, func(e endpoint) bool { return e.name == "smtp-relay" })]
	senders := 0
	for _, w := range workloads(built) {
		if w.kind != "Deployment" {
			continue
		}
		port, ok := resolveEnv(t, w, w.template.Spec.Containers[0], objs).values["SMTP_PORT"]
		if !ok {
			continue
		}
		senders++
		if !allows(policies, modeled(w), relay, port) {
			t.Errorf("%s: SMTP_PORT=%s, but its NetworkPolicies do not open it to the relay", w, port)
		}
	}
	if senders == 0 {
		t.Error("no Deployment sets SMTP_PORT")
	}
}

func ingressPorts(p *networkingv1.NetworkPolicy) [][]networkingv1.NetworkPolicyPort {
	var out [][]networkingv1.NetworkPolicyPort
	for _, r := range p.Spec.Ingress {
		out = append(out, r.Ports)
	}
	return out
}

func egressPorts(p *networkingv1.NetworkPolicy) [][]networkingv1.NetworkPolicyPort {
	var out [][]networkingv1.NetworkPolicyPort
	for _, r := range p.Spec.Egress {
		out = append(out, r.Ports)
	}
	return out
}

// allows reports whether the namespace's policies let src open a connection to dst on port
// ("8080" or "53/UDP"), as Kubernetes specifies: a pod selected by no policy of a direction is
// open in that direction; one selected by some is open only where a rule of theirs matches.
// Pods outside the namespace are not governed here, and ipBlocks match only outside addresses.
func allows(policies []*networkingv1.NetworkPolicy, src, dst endpoint, port string) bool {
	num, proto, _ := strings.Cut(port, "/")
	if proto == "" {
		proto = string(corev1.ProtocolTCP)
	}
	egress, ingress := src.namespace != namespace, dst.namespace != namespace
	egressGoverned, ingressGoverned := false, false
	for _, p := range policies {
		sel, err := metav1.LabelSelectorAsSelector(&p.Spec.PodSelector)
		if err != nil {
			continue
		}
		if !egress && slices.Contains(p.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) && sel.Matches(labels.Set(src.labels)) {
			egressGoverned = true
			for _, r := range p.Spec.Egress {
				egress = egress || portsMatch(r.Ports, num, proto) && peersMatch(r.To, dst)
			}
		}
		if !ingress && slices.Contains(p.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) && sel.Matches(labels.Set(dst.labels)) {
			ingressGoverned = true
			for _, r := range p.Spec.Ingress {
				ingress = ingress || portsMatch(r.Ports, num, proto) && peersMatch(r.From, src)
			}
		}
	}
	return (egress || !egressGoverned) && (ingress || !ingressGoverned)
}

func portsMatch(ports []networkingv1.NetworkPolicyPort, num, proto string) bool {
	if len(ports) == 0 {
		return true
	}
	for _, p := range ports {
		pp := string(corev1.ProtocolTCP)
		if p.Protocol != nil {
			pp = string(*p.Protocol)
		}
		if pp == proto && (p.Port == nil || p.Port.String() == num) {
			return true
		}
	}
	return false
}

func peersMatch(peers []networkingv1.NetworkPolicyPeer, e endpoint) bool {
	if len(peers) == 0 {
		return true
	}
	for _, peer := range peers {
		if peer.IPBlock != nil {
			if e.ip != "" && inCIDR(e.ip, peer.IPBlock.CIDR) && !slices.ContainsFunc(peer.IPBlock.Except, func(c string) bool { return inCIDR(e.ip, c) }) {
				return true
			}
			continue
		}
		if e.namespace == "" {
			continue
		}
		nsOK := e.namespace == namespace
		if peer.NamespaceSelector != nil {
			sel, err := metav1.LabelSelectorAsSelector(peer.NamespaceSelector)
			nsOK = err == nil && sel.Matches(labels.Set{"kubernetes.io/metadata.name": e.namespace})
		}
		podOK := true
		if peer.PodSelector != nil {
			sel, err := metav1.LabelSelectorAsSelector(peer.PodSelector)
			podOK = err == nil && sel.Matches(labels.Set(e.labels))
		}
		if nsOK && podOK {
			return true
		}
	}
	return false
}

func inCIDR(ip, cidr string) bool {
	_, n, err := net.ParseCIDR(cidr)
	return err == nil && n.Contains(net.ParseIP(ip))
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestGatewayAvailability(t *testing.T) {
	built := index(kustomizeBuild(t))
	if _, ok := built["Deployment/gateway"].obj.(*appsv1.Deployment); !ok {
		t.Fatal("no gateway Deployment")
	}
	hpa, ok := built["HorizontalPodAutoscaler/gateway"].obj.(*autoscalingv2.HorizontalPodAutoscaler)
	if !ok {
		t.Error("gateway: no HorizontalPodAutoscaler")
	} else if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != "gateway" ||
		hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas < *hpa.Spec.MinReplicas {
		t.Errorf("gateway: the HPA must scale Deployment/gateway from at least 2 replicas (target %s/%s, min %v, max %d)",
			ref.Kind, ref.Name, ptrValue(hpa.Spec.MinReplicas), hpa.Spec.MaxReplicas)
	}
}

func ptrValue[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
