package deploy_test

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// TestIdentityKeysPerService checks where each service's identity settings come from: a signer's
// IDENTITY_PRIVATE_KEY from its own Secret, every service's IDENTITY_TRUSTED_KEYS from its own
// identity ConfigMap, and no pod reads another service's Secret or identity ConfigMap, so no
// service can sign as another or be made to trust a caller through someone else's settings.
func TestIdentityKeysPerService(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	objs := index(built, templates(files))
	for _, d := range ofType[*appsv1.Deployment](built) {
		svc := d.Labels[nameLabel]
		sources := envSources(t, d.Name, d.Spec.Template.Spec.Containers[0], objs)
		if _, owner := trusts[svc]; owner {
			if got := sources["IDENTITY_TRUSTED_KEYS"]; got != "ConfigMap/"+svc+"-identity" {
				t.Errorf("%s: IDENTITY_TRUSTED_KEYS comes from %q, want its own ConfigMap %s-identity (a template)", d.Name, got, svc)
			}
		}
		if slices.Contains(signers, svc) {
			if got := sources["IDENTITY_PRIVATE_KEY"]; got != "Secret/"+svc+"-secrets" {
				t.Errorf("%s: IDENTITY_PRIVATE_KEY comes from %q, want its own Secret %s-secrets", d.Name, got, svc)
			}
		}
		for _, from := range d.Spec.Template.Spec.Containers[0].EnvFrom {
			switch {
			case from.SecretRef != nil && from.SecretRef.Name != svc+"-secrets":
				t.Errorf("%s: reads another service's Secret %s", d.Name, from.SecretRef.Name)
			case from.ConfigMapRef != nil && from.ConfigMapRef.Name != svc+"-config" && from.ConfigMapRef.Name != svc+"-identity":
				t.Errorf("%s: reads another service's ConfigMap %s", d.Name, from.ConfigMapRef.Name)
			}
		}
	}
	for svc := range trusts {
		if o, ok := objs["ConfigMap/"+svc+"-identity"]; !ok || o.file == "" {
			t.Errorf("%s: no identity.template.yaml with ConfigMap %s-identity", svc, svc)
		}
	}
}

// envSources maps each variable a container gets through envFrom to the object it comes from.
func envSources(t *testing.T, who string, c corev1.Container, objs map[string]object) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, from := range c.EnvFrom {
		var key string
		var names []string
		switch {
		case from.ConfigMapRef != nil:
			key = "ConfigMap/" + from.ConfigMapRef.Name
			if cm, ok := objs[key].obj.(*corev1.ConfigMap); ok {
				for k := range cm.Data {
					names = append(names, k)
				}
			}
		case from.SecretRef != nil:
			key = "Secret/" + from.SecretRef.Name
			if s, ok := objs[key].obj.(*corev1.Secret); ok {
				for k := range s.StringData {
					names = append(names, k)
				}
			}
		}
		for _, n := range names {
			if prev, dup := out[from.Prefix+n]; dup {
				t.Errorf("%s: %s comes from both %s and %s", who, n, prev, key)
			}
			out[from.Prefix+n] = key
		}
	}
	return out
}
