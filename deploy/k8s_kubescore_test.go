package deploy_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
)

// TestContainersPullAndBoundTheirStorage: every container pulls with Always (each start
// checks the tag and the pull secret) and requests and limits its ephemeral storage (its logs:
// the root filesystems are read-only), as kube-score requires.
func TestContainersPullAndBoundTheirStorage(t *testing.T) {
	for _, w := range workloads(kustomizeBuild(t)) {
		for _, c := range append(w.template.Spec.InitContainers, w.template.Spec.Containers...) {
			if c.ImagePullPolicy != corev1.PullAlways {
				t.Errorf("%s/%s: imagePullPolicy %q, want Always", w, c.Name, c.ImagePullPolicy)
			}
			req, lim := c.Resources.Requests[corev1.ResourceEphemeralStorage], c.Resources.Limits[corev1.ResourceEphemeralStorage]
			if req.IsZero() || lim.IsZero() || req.Cmp(lim) > 0 {
				t.Errorf("%s/%s: ephemeral-storage request %s and limit %s, want both, the request at most the limit",
					w, c.Name, req.String(), lim.String())
			}
		}
	}
}

// TestAutoscaledDeploymentsHaveNoStaticReplicas: a Deployment an HPA scales leaves replicas
// unset, or every apply would reset the count the HPA chose.
func TestAutoscaledDeploymentsHaveNoStaticReplicas(t *testing.T) {
	built := kustomizeBuild(t)
	deployments := map[string]*appsv1.Deployment{}
	for _, d := range ofType[*appsv1.Deployment](built) {
		deployments[d.Name] = d
	}
	for _, h := range ofType[*autoscalingv2.HorizontalPodAutoscaler](built) {
		ref := h.Spec.ScaleTargetRef
		if d := deployments[ref.Name]; ref.Kind == "Deployment" && d != nil && d.Spec.Replicas != nil {
			t.Errorf("Deployment/%s: replicas %d, which HorizontalPodAutoscaler/%s owns", d.Name, *d.Spec.Replicas, h.Name)
		}
	}
}
