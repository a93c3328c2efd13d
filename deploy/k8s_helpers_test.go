package deploy_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// templateSuffix marks files created per environment, outside the kustomization.
const templateSuffix = ".template.yaml"

// scheme knows every kind the manifests may use; any other kind fails the tests.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme,
		networkingv1.AddToScheme, policyv1.AddToScheme, autoscalingv2.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// object is one decoded manifest and where it came from.
type object struct {
	file string // relative to deploy/k8s; empty for kustomize output
	obj  runtime.Object
}

func (o object) key() string {
	m := o.obj.(metav1.Object)
	return o.obj.GetObjectKind().GroupVersionKind().Kind + "/" + m.GetName()
}

// decodeAll strictly decodes every YAML document of data: unknown or duplicate fields, unknown
// kinds and wrong types are errors.
func decodeAll(data []byte) ([]runtime.Object, error) {
	var out []runtime.Object
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if js, err := yaml.YAMLToJSON(doc); err != nil || string(js) == "null" {
			if err != nil {
				return nil, err
			}
			continue // comments only
		}
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, err
		}
		obj, err := scheme.New(tm.GroupVersionKind())
		if err != nil {
			return nil, err
		}
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			return nil, err
		}
		obj.GetObjectKind().SetGroupVersionKind(tm.GroupVersionKind())
		out = append(out, obj)
	}
}

// loadManifestFiles decodes every manifest file under deploy/k8s (kustomization.yaml aside).
func loadManifestFiles(t *testing.T) []object {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "deploy", "k8s")
	var out []object
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "kustomization.yaml" {
			return err
		}
		if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		objs, err := decodeAll(data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if len(objs) == 0 {
			t.Errorf("%s: no manifest", rel)
		}
		for _, o := range objs {
			out = append(out, object{file: rel, obj: o})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kustomizeBuild is `kustomize build deploy/k8s`, strictly decoded.
func kustomizeBuild(t *testing.T) []object {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).
		Run(filesys.MakeFsOnDisk(), filepath.Join(repoRoot(t), "deploy", "k8s"))
	if err != nil {
		t.Fatalf("kustomize build deploy/k8s: %v", err)
	}
	var out []object
	for _, r := range m.Resources() {
		y, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		objs, err := decodeAll(y)
		if err != nil {
			t.Fatalf("kustomize output %s: %v", r.CurId(), err)
		}
		for _, o := range objs {
			out = append(out, object{obj: o})
		}
	}
	return out
}

// templates are the per-environment files (Secrets and the identity ConfigMap).
func templates(files []object) []object {
	var out []object
	for _, o := range files {
		if strings.HasSuffix(o.file, templateSuffix) {
			out = append(out, o)
		}
	}
	return out
}

// index maps Kind/name to the object, for the kustomize output plus the templates.
func index(objs ...[]object) map[string]object {
	out := map[string]object{}
	for _, list := range objs {
		for _, o := range list {
			out[o.key()] = o
		}
	}
	return out
}

func ofType[T runtime.Object](objs []object) []T {
	var out []T
	for _, o := range objs {
		if v, ok := o.obj.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// workload is a Deployment or a Job: its pod template and where it is declared.
type workload struct {
	file, kind, name, service string
	template                  corev1.PodTemplateSpec
}

func workloads(objs []object) []workload {
	var out []workload
	for _, o := range objs {
		switch v := o.obj.(type) {
		case *appsv1.Deployment:
			out = append(out, workload{o.file, "Deployment", v.Name, v.Labels[nameLabel], v.Spec.Template})
		case *batchv1.Job:
			out = append(out, workload{o.file, "Job", v.Name, v.Labels[nameLabel], v.Spec.Template})
		}
	}
	return out
}

func (w workload) String() string { return w.kind + "/" + w.name }

// containerEnv is what a container's environment holds: every name, and the literal values of
// those whose value is in the manifests (env values and kustomized ConfigMaps).
type containerEnv struct {
	names  map[string]bool
	values map[string]string
}

func resolveEnv(t *testing.T, w workload, c corev1.Container, objs map[string]object) containerEnv {
	t.Helper()
	env := containerEnv{names: map[string]bool{}, values: map[string]string{}}
	for _, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil:
			o, ok := objs["ConfigMap/"+from.ConfigMapRef.Name]
			if !ok {
				t.Errorf("%s: ConfigMap %s is neither in the kustomization nor a template", w, from.ConfigMapRef.Name)
				continue
			}
			for k, v := range o.obj.(*corev1.ConfigMap).Data {
				env.names[from.Prefix+k] = true
				if o.file == "" {
					env.values[from.Prefix+k] = v
				}
			}
		case from.SecretRef != nil:
			o, ok := objs["Secret/"+from.SecretRef.Name]
			if !ok {
				t.Errorf("%s: Secret %s has no template", w, from.SecretRef.Name)
				continue
			}
			s := o.obj.(*corev1.Secret)
			for k := range s.StringData {
				env.names[from.Prefix+k] = true
			}
			for k := range s.Data {
				env.names[from.Prefix+k] = true
			}
		}
	}
	for _, e := range c.Env {
		env.names[e.Name] = true
		if e.ValueFrom == nil {
			env.values[e.Name] = e.Value
		} else {
			delete(env.values, e.Name)
		}
	}
	return env
}
