package deploy_test

import (
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestGatewayMaxInstancesCoversTheAutoscaler: GATEWAY_MAX_INSTANCES, the number of gateways each
// assumes while Redis is down and they cannot count each other, is the most that can run at once:
// the HPA's maxReplicas plus the pods a rolling update adds (maxSurge). Fewer would let the fleet
// allow more than a limit; compose runs one gateway.
func TestGatewayMaxInstancesCoversTheAutoscaler(t *testing.T) {
	built := kustomizeBuild(t)
	objs := index(built, templates(loadManifestFiles(t)))
	var hpa *autoscalingv2.HorizontalPodAutoscaler
	for _, h := range ofType[*autoscalingv2.HorizontalPodAutoscaler](built) {
		if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.ScaleTargetRef.Name == "gateway" {
			hpa = h
		}
	}
	d, ok := objs["Deployment/gateway"].obj.(*appsv1.Deployment)
	if hpa == nil || !ok {
		t.Fatal("no gateway Deployment scaled by an HPA")
	}
	surge := intstr.FromString("25%") // the default
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil {
		surge = *ru.MaxSurge
	}
	extra, err := intstr.GetScaledValueFromIntOrPercent(&surge, int(hpa.Spec.MaxReplicas), true)
	if err != nil {
		t.Fatal(err)
	}
	want := strconv.Itoa(int(hpa.Spec.MaxReplicas) + extra)
	for _, w := range workloads(built) {
		if w.String() != "Deployment/gateway" {
			continue
		}
		for _, c := range w.template.Spec.Containers {
			if got := resolveEnv(t, w, c, objs).values["GATEWAY_MAX_INSTANCES"]; got != want {
				t.Errorf("%s/%s: GATEWAY_MAX_INSTANCES %q, want %s (maxReplicas %d + maxSurge %s)", w, c.Name, got, want, hpa.Spec.MaxReplicas, surge.String())
			}
		}
	}

	s := loadCompose(t).Services["gateway"]
	replicas := 1
	if s.Deploy != nil && s.Deploy.Replicas != nil {
		replicas = *s.Deploy.Replicas
	}
	if got := composeEnv(t, s)["GATEWAY_MAX_INSTANCES"]; got != strconv.Itoa(replicas) {
		t.Errorf("compose gateway: GATEWAY_MAX_INSTANCES %q, want its %d replica(s)", got, replicas)
	}
}
