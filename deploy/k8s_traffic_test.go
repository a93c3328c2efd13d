package deploy_test

import (
	"maps"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
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

func TestNetworkPolicies(t *testing.T) {
	want := map[string][]string{
		"gateway":      {"ns:ingress-nginx", "ns:monitoring"},
		"auth":         {"pod:gateway", "ns:monitoring"},
		"catalog":      {"pod:gateway", "pod:registration", "pod:checkout", "ns:monitoring"},
		"registration": {"pod:gateway", "pod:catalog", "pod:checkout", "ns:monitoring"},
		"checkout":     {"pod:gateway", "pod:catalog", "pod:registration", "ns:monitoring"},
	}
	built := kustomizeBuild(t)
	policies := ofType[*networkingv1.NetworkPolicy](built)
	defaultDeny := false
	for _, p := range policies {
		if len(p.Spec.PodSelector.MatchLabels) == 0 && len(p.Spec.PodSelector.MatchExpressions) == 0 &&
			slices.Contains(p.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) && len(p.Spec.Ingress) == 0 {
			defaultDeny = true
		}
	}
	if !defaultDeny {
		t.Error("no default-deny ingress NetworkPolicy for the namespace")
	}
	for _, d := range ofType[*appsv1.Deployment](built) {
		got := allowedSources(t, d.Name, d.Spec.Template.Labels, policies)
		if w := want[d.Name]; !slices.Equal(got, sorted(w)) {
			t.Errorf("%s accepts traffic from %v, want %v", d.Name, got, sorted(w))
		}
	}
}

// allowedSources lists who may reach pods with podLabels: "pod:<name>" for pods of this
// namespace, "ns:<namespace>", "ip:<cidr>", or "anyone". Every rule must name its port.
func allowedSources(t *testing.T, workload string, podLabels map[string]string, policies []*networkingv1.NetworkPolicy) []string {
	t.Helper()
	set := map[string]bool{}
	for _, p := range policies {
		sel, err := metav1.LabelSelectorAsSelector(&p.Spec.PodSelector)
		if err != nil || !sel.Matches(labels.Set(podLabels)) {
			continue
		}
		for _, rule := range p.Spec.Ingress {
			if len(rule.Ports) == 0 {
				t.Errorf("NetworkPolicy %s opens every port of %s", p.Name, workload)
			}
			if len(rule.From) == 0 {
				set["anyone"] = true
			}
			for _, peer := range rule.From {
				switch {
				case peer.IPBlock != nil:
					set["ip:"+peer.IPBlock.CIDR] = true
				case peer.NamespaceSelector != nil:
					set["ns:"+orAny(peer.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"])] = true
				case peer.PodSelector != nil:
					set["pod:"+orAny(peer.PodSelector.MatchLabels[nameLabel])] = true
				}
			}
		}
	}
	return sorted(slices.Collect(maps.Keys(set)))
}

func orAny(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestGatewayAvailability(t *testing.T) {
	built := index(kustomizeBuild(t))
	d, ok := built["Deployment/gateway"].obj.(*appsv1.Deployment)
	if !ok {
		t.Fatal("no gateway Deployment")
	}
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 2 {
		t.Error("gateway: want at least 2 replicas")
	}
	hpa, ok := built["HorizontalPodAutoscaler/gateway"].obj.(*autoscalingv2.HorizontalPodAutoscaler)
	if !ok {
		t.Error("gateway: no HorizontalPodAutoscaler")
	} else if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != "gateway" ||
		hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas < *hpa.Spec.MinReplicas {
		t.Errorf("gateway: the HPA must scale Deployment/gateway from at least 2 replicas (target %s/%s, min %v, max %d)",
			ref.Kind, ref.Name, ptrValue(hpa.Spec.MinReplicas), hpa.Spec.MaxReplicas)
	}
	pdb, ok := built["PodDisruptionBudget/gateway"].obj.(*policyv1.PodDisruptionBudget)
	if !ok {
		t.Fatal("gateway: no PodDisruptionBudget")
	}
	sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
	if err != nil || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
		t.Error("gateway: the PodDisruptionBudget does not select the gateway's pods")
	}
	if pdb.Spec.MaxUnavailable == nil && pdb.Spec.MinAvailable == nil {
		t.Error("gateway: the PodDisruptionBudget sets no budget")
	}
}

func ptrValue[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestIngressReachesOnlyTheGateway(t *testing.T) {
	ingresses := ofType[*networkingv1.Ingress](kustomizeBuild(t))
	if len(ingresses) != 1 {
		t.Fatalf("want one Ingress, got %d", len(ingresses))
	}
	ing := ingresses[0]
	if ing.Spec.DefaultBackend != nil {
		t.Error("Ingress: no default backend: only the listed paths are public")
	}
	var paths []string
	for _, rule := range ing.Spec.Rules {
		if rule.HTTP == nil {
			continue
		}
		for _, p := range rule.HTTP.Paths {
			paths = append(paths, p.Path)
			svc := p.Backend.Service
			if svc == nil || svc.Name != "gateway" || (svc.Port.Name != "http" && svc.Port.Number != httpPort) {
				t.Errorf("Ingress: %s must route to the gateway's http port", p.Path)
			}
		}
	}
	if want := []string{"/external/v1", "/webhooks/stripe"}; !slices.Equal(sorted(paths), want) {
		t.Errorf("Ingress paths = %v, want %v", paths, want)
	}
}
