package deploy_test

import (
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// TestEveryDeploymentHasADisruptionBudget: exactly one PodDisruptionBudget selects each
// Deployment's pods and no other workload's, allows one of them down at a time
// (maxUnavailable 1, right at any replica count), and the Deployment (or its HPA) keeps at
// least 2 replicas, so a drain never takes the last pod.
func TestEveryDeploymentHasADisruptionBudget(t *testing.T) {
	built := kustomizeBuild(t)
	pdbs := ofType[*policyv1.PodDisruptionBudget](built)
	hpas := ofType[*autoscalingv2.HorizontalPodAutoscaler](built)
	for _, w := range workloads(built) {
		var selecting []string
		for _, pdb := range pdbs {
			sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
			if err != nil || sel.Empty() {
				t.Errorf("PodDisruptionBudget/%s: selector %v: %v", pdb.Name, pdb.Spec.Selector, err)
				continue
			}
			if sel.Matches(labels.Set(w.template.Labels)) {
				selecting = append(selecting, pdb.Name)
				checkBudget(t, w, pdb)
			}
		}
		switch want := w.kind == "Deployment"; {
		case want && len(selecting) != 1:
			t.Errorf("%s: selected by PodDisruptionBudgets %v, want exactly one", w, selecting)
		case !want && len(selecting) > 0:
			t.Errorf("%s: its pods are selected by PodDisruptionBudgets %v, meant for servers", w, selecting)
		}
	}
	for _, d := range ofType[*appsv1.Deployment](built) {
		replicas := int32(1)
		if d.Spec.Replicas != nil {
			replicas = *d.Spec.Replicas
		}
		for _, h := range hpas {
			if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.ScaleTargetRef.Name == d.Name && h.Spec.MinReplicas != nil {
				replicas = *h.Spec.MinReplicas
			}
		}
		if replicas < 2 {
			t.Errorf("Deployment/%s: %d replica(s): a disruption of one would take the service down", d.Name, replicas)
		}
	}
}

func checkBudget(t *testing.T, w workload, pdb *policyv1.PodDisruptionBudget) {
	t.Helper()
	if pdb.Spec.MinAvailable != nil || pdb.Spec.MaxUnavailable == nil || pdb.Spec.MaxUnavailable.String() != "1" {
		t.Errorf("PodDisruptionBudget/%s (%s): minAvailable %v, maxUnavailable %v; want maxUnavailable 1 only",
			pdb.Name, w, pdb.Spec.MinAvailable, pdb.Spec.MaxUnavailable)
	}
}

// TestGoMemoryLimitFollowsTheContainerLimit: every container sets GOMEMLIMIT to 90% of its
// memory limit, rounded down to a whole MiB, so the collector works harder before the kernel
// kills the pod (the rest is for goroutine stacks and what the runtime keeps beside the heap).
func TestGoMemoryLimitFollowsTheContainerLimit(t *testing.T) {
	for _, w := range workloads(kustomizeBuild(t)) {
		if w.kind != "Deployment" {
			continue // one-shot migrations run far below their limit
		}
		for _, c := range w.template.Spec.Containers {
			limit, ok := c.Resources.Limits[corev1.ResourceMemory]
			if !ok {
				t.Errorf("%s/%s: no memory limit", w, c.Name)
				continue
			}
			checkGoMemLimit(t, w.String()+"/"+c.Name, limit.Value(), envValue(c, "GOMEMLIMIT"))
		}
	}
}

// TestComposeGoMemoryLimit: a Compose service with a memory limit sets GOMEMLIMIT as the
// Kubernetes manifests do; one without sets none (it would have no limit to follow).
func TestComposeGoMemoryLimit(t *testing.T) {
	p := loadCompose(t)
	for _, svc := range services {
		s, ok := p.Services[svc]
		if !ok {
			t.Fatalf("no Compose service %s", svc)
		}
		limit := int64(s.MemLimit)
		if s.Deploy != nil && s.Deploy.Resources.Limits != nil && s.Deploy.Resources.Limits.MemoryBytes > 0 {
			limit = int64(s.Deploy.Resources.Limits.MemoryBytes)
		}
		value, set := composeEnv(t, s)["GOMEMLIMIT"]
		switch {
		case limit > 0:
			checkGoMemLimit(t, svc, limit, value)
		case set:
			t.Errorf("%s: GOMEMLIMIT=%s without a memory limit", svc, value)
		}
	}
}

// checkGoMemLimit checks that value is 90% of a memory limit, rounded down to a whole MiB.
func checkGoMemLimit(t *testing.T, what string, limit int64, value string) {
	t.Helper()
	const mib = 1 << 20
	want := limit * 9 / 10 / mib * mib
	if got, err := goMemLimit(value); err != nil || got != want {
		t.Errorf("%s: GOMEMLIMIT=%q (%v), want %dMiB: 90%% of the memory limit, %d bytes", what, value, err, want/mib, limit)
	}
}

// envValue is the literal value of the container's variable name ("" when it has none).
func envValue(c corev1.Container, name string) string {
	for _, e := range c.Env {
		if e.Name == name && e.ValueFrom == nil {
			return e.Value
		}
	}
	return ""
}

// goMemLimit parses a GOMEMLIMIT value as the Go runtime does: bytes, or a number with one of
// the suffixes B, KiB, MiB, GiB, TiB.
func goMemLimit(v string) (int64, error) {
	unit := int64(1)
	for i, suffix := range []string{"KiB", "MiB", "GiB", "TiB"} {
		if n, ok := strings.CutSuffix(v, suffix); ok {
			v, unit = n, int64(1)<<(10*(i+1))
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(v, "B"), 10, 64)
	return n * unit, err
}
