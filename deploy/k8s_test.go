package deploy_test

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const (
	nameLabel       = "app.kubernetes.io/name"
	applyFirstLabel = "podium/apply-first" // applied, and its Jobs awaited, before the rest
	namespace       = "podium"
	httpPort        = 8080
)

func TestManifestsMatchKustomization(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	inBuild := index(built)
	for _, o := range files {
		_, ok := inBuild[o.key()]
		switch {
		case strings.HasSuffix(o.file, templateSuffix) && ok:
			t.Errorf("%s: %s is a template and must not be in the kustomization", o.file, o.key())
		case strings.HasSuffix(o.file, templateSuffix):
		case !ok:
			t.Errorf("%s: %s is not in the kustomization", o.file, o.key())
		}
	}
	for _, o := range built {
		m := o.obj.(metav1.Object)
		if _, isNS := o.obj.(*corev1.Namespace); !isNS && m.GetNamespace() != namespace {
			t.Errorf("%s: namespace %q, want %q", o.key(), m.GetNamespace(), namespace)
		}
		if _, isSecret := o.obj.(*corev1.Secret); isSecret {
			t.Errorf("%s: Secrets are created per environment, never kustomized", o.key())
		}
	}
	for _, svc := range services {
		for _, kind := range []string{"Deployment", "Service", "NetworkPolicy", "ServiceAccount", "PodDisruptionBudget"} {
			if _, ok := inBuild[kind+"/"+svc]; !ok {
				t.Errorf("%s: no %s in the kustomization", svc, kind)
			}
		}
		if _, ok := inBuild["ConfigMap/"+svc+"-config"]; !ok {
			t.Errorf("%s: no ConfigMap %s-config in the kustomization", svc, svc)
		}
	}
}

func TestTemplatesHoldNoValues(t *testing.T) {
	for _, o := range templates(loadManifestFiles(t)) {
		var values map[string]string
		switch v := o.obj.(type) {
		case *corev1.Secret:
			values = v.StringData
			if len(v.Data) > 0 {
				t.Errorf("%s: use stringData with empty values", o.file)
			}
		case *corev1.ConfigMap:
			values = v.Data
		default:
			t.Errorf("%s: a template must be a Secret or a ConfigMap", o.file)
		}
		for k, v := range values {
			if v != "" {
				t.Errorf("%s: %s must be empty in the template", o.file, k)
			}
		}
	}
}

func TestPodHardening(t *testing.T) {
	for _, w := range workloads(loadManifestFiles(t)) {
		pod := w.template.Spec
		psc := pod.SecurityContext
		if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
			t.Errorf("%s: pod securityContext.runAsNonRoot must be true", w)
		}
		if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
			t.Errorf("%s: pod seccompProfile must be RuntimeDefault", w)
		}
		if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
			t.Errorf("%s: automountServiceAccountToken must be false", w)
		}
		if pod.ServiceAccountName != w.service {
			t.Errorf("%s: serviceAccountName %q, want its own %q", w, pod.ServiceAccountName, w.service)
		}
		if pod.HostNetwork || pod.HostPID || pod.HostIPC {
			t.Errorf("%s: must not share the host's namespaces", w)
		}
		for _, c := range slices.Concat(pod.InitContainers, pod.Containers) {
			checkContainer(t, w, c)
		}
	}
}

func checkContainer(t *testing.T, w workload, c corev1.Container) {
	t.Helper()
	if !released(c.Image) {
		t.Errorf("%s/%s: image %q must be ours, pinned to a release's tag", w, c.Name, c.Image)
	}
	sc := c.SecurityContext
	switch {
	case sc == nil:
		t.Errorf("%s/%s: no securityContext", w, c.Name)
		return
	case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
		t.Errorf("%s/%s: allowPrivilegeEscalation must be false", w, c.Name)
	case sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
		t.Errorf("%s/%s: readOnlyRootFilesystem must be true", w, c.Name)
	case sc.Privileged != nil && *sc.Privileged:
		t.Errorf("%s/%s: must not be privileged", w, c.Name)
	case sc.RunAsUser != nil && *sc.RunAsUser == 0:
		t.Errorf("%s/%s: must not run as root", w, c.Name)
	case sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0:
		t.Errorf("%s/%s: capabilities must drop ALL and add none", w, c.Name)
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := c.Resources.Requests[r]; !ok {
			t.Errorf("%s/%s: no %s request", w, c.Name, r)
		}
		if _, ok := c.Resources.Limits[r]; !ok {
			t.Errorf("%s/%s: no %s limit", w, c.Name, r)
		}
	}
}

func TestDeploymentProbesAndScraping(t *testing.T) {
	for _, d := range ofType[*appsv1.Deployment](loadManifestFiles(t)) {
		if len(d.Spec.Template.Spec.Containers) != 1 {
			t.Errorf("%s: want one container", d.Name)
			continue
		}
		c := d.Spec.Template.Spec.Containers[0]
		checkProbe(t, d.Name+" readiness", c, c.ReadinessProbe, "/readyz")
		checkProbe(t, d.Name+" liveness", c, c.LivenessProbe, "/healthz")
		want := map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "8080", "prometheus.io/path": "/metrics"}
		for k, v := range want {
			if got := d.Spec.Template.Annotations[k]; got != v {
				t.Errorf("%s: pod annotation %s=%q, want %q", d.Name, k, got, v)
			}
		}
		if got := d.Spec.Selector.MatchLabels[nameLabel]; got != d.Name || d.Spec.Template.Labels[nameLabel] != d.Name {
			t.Errorf("%s: selector and pod labels must carry %s=%s", d.Name, nameLabel, d.Name)
		}
	}
}

func checkProbe(t *testing.T, what string, c corev1.Container, p *corev1.Probe, path string) {
	t.Helper()
	if p == nil || p.HTTPGet == nil {
		t.Errorf("%s: want an HTTP probe on %s", what, path)
		return
	}
	if p.HTTPGet.Path != path || containerPort(c, p.HTTPGet.Port) != httpPort {
		t.Errorf("%s: probes %s on port %s, want %s on %d", what, p.HTTPGet.Path, p.HTTPGet.Port.String(), path, httpPort)
	}
}

// containerPort resolves a numeric or named port of c.
func containerPort(c corev1.Container, port intstr.IntOrString) int32 {
	if port.Type == intstr.Int {
		return port.IntVal
	}
	for _, p := range c.Ports {
		if p.Name == port.StrVal {
			return p.ContainerPort
		}
	}
	return 0
}

func TestDeploymentEnvironment(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	objs := index(built, templates(files))
	for _, d := range ofType[*appsv1.Deployment](built) {
		w := workloads([]object{{obj: d}})[0]
		spec := loadEnvSpec(t, w.service)
		env := resolveEnv(t, w, d.Spec.Template.Spec.Containers[0], objs)
		for _, name := range spec.required() {
			v, known := env.values[name]
			switch {
			case !env.names[name]:
				t.Errorf("%s: %s is not provided by env, its ConfigMaps or Secrets", d.Name, name)
			case known && v == "" && !mayBeEmpty[name]:
				t.Errorf("%s: %s is empty", d.Name, name)
			}
		}
		for name := range env.names {
			if !spec.known(name) {
				t.Errorf("%s: %s is provided but %s does not read it (misspelt?)", d.Name, name, w.service)
			}
		}
		checkPeerURLs(t, d.Name, env.values)
		budget := spec.shutdownBudget(t, env.values)
		grace := d.Spec.Template.Spec.TerminationGracePeriodSeconds
		if grace == nil || time.Duration(*grace)*time.Second <= budget {
			t.Errorf("%s: terminationGracePeriodSeconds must exceed SHUTDOWN_DRAIN_DELAY + SHUTDOWN_TIMEOUT (%s)", d.Name, budget)
		}
		checkListeners(t, d.Name, spec, d.Spec.Template.Spec.Containers[0], env)
	}
}

// checkListeners checks that each listen address the service reads is on the container port
// of its name, which the probes, Services and Ingresses use.
func checkListeners(t *testing.T, deployment string, spec envSpec, c corev1.Container, env containerEnv) {
	t.Helper()
	for name, portName := range listeners {
		if !spec.known(name) {
			continue
		}
		if _, literal := env.values[name]; env.names[name] && !literal {
			t.Errorf("%s: %s must be a literal in the manifests", deployment, name)
			continue
		}
		addr := spec.value(t, env.values, name)
		_, port := splitAddress(addr)
		if want := containerPort(c, intstr.FromString(portName)); want == 0 || port != strconv.Itoa(int(want)) {
			t.Errorf("%s: %s=%s, but its container port %q is %d", deployment, name, addr, portName, want)
		}
	}
}

// checkPeerURLs checks that <PEER>_URL names the peer's Service on its port 8080.
func checkPeerURLs(t *testing.T, deployment string, values map[string]string) {
	t.Helper()
	for _, peer := range services {
		v, ok := values[strings.ToUpper(peer)+"_URL"]
		if !ok {
			continue
		}
		host, port := splitAddress(v)
		if host != peer && host != peer+"."+namespace+".svc.cluster.local" || port != "8080" {
			t.Errorf("%s: %s_URL=%s, want http://%s:8080 (its Service)", deployment, strings.ToUpper(peer), v, peer)
		}
	}
}

func TestServiceAccounts(t *testing.T) {
	built := index(kustomizeBuild(t))
	for _, svc := range services {
		sa, ok := built["ServiceAccount/"+svc].obj.(*corev1.ServiceAccount)
		if !ok {
			continue // reported by TestManifestsMatchKustomization
		}
		if sa.AutomountServiceAccountToken == nil || *sa.AutomountServiceAccountToken {
			t.Errorf("ServiceAccount %s: automountServiceAccountToken must be false", svc)
		}
	}
}

func TestMigrationJobs(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	fromFiles, inBuild := index(files), index(built)
	for _, o := range owners {
		job, ok := fromFiles["Job/"+o+"-migrate"].obj.(*batchv1.Job)
		dep, depOK := fromFiles["Deployment/"+o].obj.(*appsv1.Deployment)
		if !ok || !depOK {
			t.Errorf("%s: want a Deployment and a Job %s-migrate", o, o)
			continue
		}
		jc, dc := job.Spec.Template.Spec.Containers[0], dep.Spec.Template.Spec.Containers[0]
		if !slices.Equal(slices.Concat(jc.Command, jc.Args), []string{"migrate"}) {
			t.Errorf("Job %s-migrate: runs %v, want [migrate]", o, slices.Concat(jc.Command, jc.Args))
		}
		if jc.Image != dc.Image || !reflect.DeepEqual(jc.EnvFrom, dc.EnvFrom) {
			t.Errorf("Job %s-migrate: must use the Deployment's image and configuration", o)
		}
		if job.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever || job.Spec.BackoffLimit == nil {
			t.Errorf("Job %s-migrate: want restartPolicy Never and a backoffLimit", o)
		}
		if job.Labels[applyFirstLabel] != "true" {
			t.Errorf("Job %s-migrate: missing label %s", o, applyFirstLabel)
		}
	}
	for _, o := range owners {
		if _, ok := inBuild["Job/"+o+"-migrate"]; !ok {
			t.Errorf("Job %s-migrate must be in the kustomization: %s has a migrate subcommand", o, o)
		}
	}
	checkApplyFirst(t, built, inBuild)
}

// checkApplyFirst checks that what a migration Job needs is applied with it, in the first step.
func checkApplyFirst(t *testing.T, built []object, inBuild map[string]object) {
	t.Helper()
	for _, job := range ofType[*batchv1.Job](built) {
		pod := job.Spec.Template.Spec
		needs := []string{"Namespace/" + namespace, "ServiceAccount/" + pod.ServiceAccountName}
		for _, from := range pod.Containers[0].EnvFrom {
			if from.ConfigMapRef != nil {
				needs = append(needs, "ConfigMap/"+from.ConfigMapRef.Name)
			}
		}
		for _, key := range needs {
			o, ok := inBuild[key]
			if !ok {
				continue // a template, created before anything is applied
			}
			if o.obj.(metav1.Object).GetLabels()[applyFirstLabel] != "true" {
				t.Errorf("Job %s needs %s, which lacks the label %s", job.Name, key, applyFirstLabel)
			}
		}
	}
}
