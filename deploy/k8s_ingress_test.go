package deploy_test

import (
	"net/url"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// publicRoute is what one Ingress may expose: these paths of one host, all to one container
// port (named) of one service.
type publicRoute struct {
	host, service, port string
	paths               []string
}

// publicRoutes are the Ingresses, by name. The gateway serves the external API and Stripe's
// webhooks; auth serves the organizers' console, never its admin and internal APIs (port http).
var publicRoutes = map[string]publicRoute{
	"gateway": {host: "api.podium.example", service: "gateway", port: "http", paths: []string{"/external/v1", "/webhooks/stripe"}},
	"console": {host: "console.podium.example", service: "auth", port: "console", paths: []string{"/"}},
}

func TestIngressesReachOnlyTheirPorts(t *testing.T) {
	built := kustomizeBuild(t)
	objs := index(built)
	ingresses := ofType[*networkingv1.Ingress](built)
	if len(ingresses) != len(publicRoutes) {
		t.Errorf("want %d Ingresses, got %d", len(publicRoutes), len(ingresses))
	}
	for _, ing := range ingresses {
		want, ok := publicRoutes[ing.Name]
		if !ok {
			t.Errorf("Ingress %s: not a known public surface", ing.Name)
			continue
		}
		if ing.Spec.DefaultBackend != nil {
			t.Errorf("Ingress %s: no default backend: only the listed paths are public", ing.Name)
		}
		if len(ing.Spec.TLS) != 1 || !slices.Equal(ing.Spec.TLS[0].Hosts, []string{want.host}) || ing.Spec.TLS[0].SecretName == "" {
			t.Errorf("Ingress %s: want TLS for %s from a Secret", ing.Name, want.host)
		}
		var paths []string
		for _, rule := range ing.Spec.Rules {
			if rule.Host != want.host || rule.HTTP == nil {
				t.Errorf("Ingress %s: rule for host %q, want %s with paths", ing.Name, rule.Host, want.host)
				continue
			}
			for _, p := range rule.HTTP.Paths {
				paths = append(paths, p.Path)
				if got := backendPort(objs, p.Backend); got != want.service+"/"+want.port {
					t.Errorf("Ingress %s: %s reaches %q, want only %s's container port %s", ing.Name, p.Path, got, want.service, want.port)
				}
			}
		}
		if !slices.Equal(sorted(paths), want.paths) {
			t.Errorf("Ingress %s: paths %v, want %v", ing.Name, paths, want.paths)
		}
	}
}

// backendPort resolves an Ingress backend through its Service to the Deployment's container
// port it reaches, as "deployment/port name"; empty when it reaches none.
func backendPort(objs map[string]object, b networkingv1.IngressBackend) string {
	if b.Service == nil {
		return ""
	}
	svc, ok := objs["Service/"+b.Service.Name].obj.(*corev1.Service)
	dep, depOK := objs["Deployment/"+b.Service.Name].obj.(*appsv1.Deployment)
	if !ok || !depOK {
		return ""
	}
	i := slices.IndexFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool {
		return b.Service.Port.Name != "" && p.Name == b.Service.Port.Name || b.Service.Port.Number != 0 && p.Port == b.Service.Port.Number
	})
	if i < 0 {
		return ""
	}
	c := dep.Spec.Template.Spec.Containers[0]
	number := containerPort(c, svc.Spec.Ports[i].TargetPort)
	for _, p := range c.Ports {
		if p.ContainerPort == number && number != 0 {
			return dep.Name + "/" + p.Name
		}
	}
	return ""
}

// TestPublicOriginsNameTheirIngress: a service's public origin (CONSOLE_URL) is https on the
// host of the Ingress that reaches its listener, so the links it sends lead there.
func TestPublicOriginsNameTheirIngress(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	objs := index(built, templates(files))
	for _, w := range workloads(built) {
		if w.kind != "Deployment" {
			continue
		}
		env := resolveEnv(t, w, w.template.Spec.Containers[0], objs)
		for name, listener := range publicOrigins {
			v, ok := env.values[name]
			if !ok {
				if env.names[name] {
					t.Errorf("%s: %s must be a literal in the manifests", w, name)
				}
				continue
			}
			u, err := url.Parse(v)
			route, routed := publicRoutes[ingressTo(w.name, listeners[listener])]
			if err != nil || u.Scheme != "https" || !routed || u.Host != route.host || u.Path != "" {
				t.Errorf("%s: %s=%s, want https://<host of the Ingress to its %s port>", w, name, v, listeners[listener])
			}
		}
	}
}

// ingressTo names the Ingress of publicRoutes that reaches the service's container port.
func ingressTo(service, port string) string {
	for name, r := range publicRoutes {
		if r.service == service && r.port == port {
			return name
		}
	}
	return ""
}
