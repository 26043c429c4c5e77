package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kinds= generates patchers for kinds of a package without kubebuilder
// markers (k8s.io/api/apps/v1, read-only in the module cache), which
// statuspatch-lint advises for a handwritten status write to a built-in
// kind; the output builds and vets. A name no package declares is an error.
func TestBuiltinKinds(t *testing.T) {
	dir := copyGoldens(t)
	t.Setenv("GOWORK", "off")
	t.Chdir(dir)
	args := []string{"paths=k8s.io/api/apps/v1", "kinds=StatefulSet;Deployment", "output:dir=./internal/patchers/appsv1"}
	if err := run(args, nil); err != nil {
		t.Fatalf("statuspatch-gen %s: %v", strings.Join(args, " "), err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "internal/patchers/appsv1", fileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"func FetchStatefulSetStatusPatcher(", "func FetchDeploymentStatusPatcher(", "func (p *StatefulSetStatusPatcher) MarkObserved() (changed bool)"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("generated file lacks %q", want)
		}
	}
	if strings.Contains(string(b), "DaemonSetStatusPatcher") {
		t.Error("a kind not named by kinds= got a patcher")
	}

	err = run([]string{"paths=k8s.io/api/apps/v1", "kinds=StatefulSt", "output:none"}, nil)
	if want := "kinds=StatefulSt: no such type in k8s.io/api/apps/v1"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("kinds=StatefulSt: error %v, want %q", err, want)
	}
	err = run([]string{"paths=k8s.io/api/apps/v1", "kinds=StatefulSetSpec", "output:none"}, nil)
	if want := "kinds=StatefulSetSpec: StatefulSetSpec has no Status field"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("kinds=StatefulSetSpec: error %v, want %q", err, want)
	}

	if testing.Short() {
		return
	}
	runTool(t, "kinds=", dir, "go", "vet", "./internal/patchers/appsv1")
}
