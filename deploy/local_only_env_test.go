package deploy_test

import (
	"slices"
	"testing"
)

// localOnlyEnv are settings that only `make run` and the tests set (system/stack): webhooks'
// ALLOW_LOOPBACK_RECEIVERS lets endpoints on plain http and the loopback receive webhooks,
// CLOCK_SHIFT_FILE moves their clock forward, and registration's WAITLIST_CLOCK_SHIFT_FILE
// moves the waitlist's offers and lapses forward.
var localOnlyEnv = []string{"ALLOW_LOOPBACK_RECEIVERS", "CLOCK_SHIFT_FILE", "WAITLIST_CLOCK_SHIFT_FILE"}

// TestDeploymentsLeaveLocalOnlySettingsUnset: neither the Compose stack nor any manifest (a
// ConfigMap, a Secret's template or a container's env) sets them, for any service.
func TestDeploymentsLeaveLocalOnlySettingsUnset(t *testing.T) {
	for name, s := range loadCompose(t, "*").Services {
		for k := range s.Environment {
			if slices.Contains(localOnlyEnv, k) {
				t.Errorf("compose %s: sets %s, which only make run and the tests may set", name, k)
			}
		}
	}
	files := loadManifestFiles(t)
	objs := index(kustomizeBuild(t), templates(files))
	for _, w := range workloads(files) {
		for _, c := range w.template.Spec.Containers {
			for name := range resolveEnv(t, w, c, objs).names {
				if slices.Contains(localOnlyEnv, name) {
					t.Errorf("%s/%s: gets %s, which only make run and the tests may set", w, c.Name, name)
				}
			}
		}
	}
}
