package testenv_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv"
)

const testapiCRDs = "internal/testapi/crd"

func TestReadCRDDirectory(t *testing.T) {
	crds, err := testenv.ReadCRDDirectory(testapiCRDs)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, crd := range crds {
		names = append(names, crd.Name)
	}
	got := strings.Join(names, ",")
	if want := "gadgets.testing.statuspatch.dev,gizmos.testing.statuspatch.dev,widgets.testing.statuspatch.dev"; got != want {
		t.Fatalf("CRDs = %s, want %s", got, want)
	}
	if sub := crds[2].Spec.Versions[0].Subresources; sub == nil || sub.Status == nil {
		t.Fatal("widget CRD lost its status subresource")
	}
}

// kubebuilder's config/crd reads as its bases/: kustomization.yaml (kind
// Kustomization), kustomizeconfig.yaml (no kind) and patches/ (CRD patches,
// not CRDs) are skipped, and the server says which files it read.
func TestCRDDirectoryKubebuilderLayout(t *testing.T) {
	const dir = "testdata/kubebuilder/config/crd"
	for _, d := range []string{dir, dir + "/bases"} {
		crds, err := testenv.ReadCRDDirectory(d)
		if err != nil {
			t.Fatalf("ReadCRDDirectory(%q): %v", d, err)
		}
		if len(crds) != 1 || crds[0].Name != "things.batch.example.com" {
			t.Fatalf("ReadCRDDirectory(%q) = %d CRDs, want things.batch.example.com", d, len(crds))
		}
	}
	env, stop, err := testenv.StartServer(context.Background(), testenv.WithCRDDirectory(dir), testenv.WithBackend(testenv.BackendEmbedded))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	want := []string{
		dir + "/kustomization.yaml: skipped, kind Kustomization",
		dir + "/kustomizeconfig.yaml: skipped, no kind",
		dir + "/patches/: skipped, only bases/ is read",
		dir + "/bases/batch.example.com_things.yaml: things.batch.example.com",
	}
	if got := strings.Join(env.CRDFiles, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("CRDFiles:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if len(env.CRDs) != 1 {
		t.Errorf("%d CRDs installed, want 1", len(env.CRDs))
	}
}

func TestReadCRDFileJSON(t *testing.T) {
	crds, err := testenv.ReadCRDFile(filepath.Join("testdata", "json", "thing.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(crds) != 1 || crds[0].Spec.Names.Plural != "things" {
		t.Fatalf("got %+v", crds)
	}
}

// Every bad input is an error that names the file (or directory) and says
// what is wrong with it.
func TestReadCRDDirectoryErrors(t *testing.T) {
	tests := []struct {
		name string
		dir  string
		want []string
	}{
		{
			name: "missing directory",
			dir:  filepath.Join("testdata", "nope"),
			want: []string{`testenv: CRD directory "testdata/nope": no such directory (relative to the working directory `, "/testenv, the test's package directory under go test; from kubebuilder's internal/controller, config/crd is ../../config/crd)"},
		},
		{
			name: "only kustomize files",
			dir:  filepath.Join("testdata", "kustomizeonly"),
			want: []string{`testenv: CRD directory "testdata/kustomizeonly": no CustomResourceDefinition in it (testdata/kustomizeonly/kustomization.yaml: skipped, kind Kustomization)`},
		},
		{
			name: "not a CRD",
			dir:  filepath.Join("testdata", "notcrd"),
			want: []string{"testenv: testdata/notcrd/two.yaml: document 2 is kind Deployment, not a CustomResourceDefinition"},
		},
		{
			name: "malformed YAML",
			dir:  filepath.Join("testdata", "malformed"),
			want: []string{"testenv: testdata/malformed/broken.yaml: document 1: malformed YAML"},
		},
		{
			name: "old apiVersion",
			dir:  filepath.Join("testdata", "v1beta1"),
			want: []string{"testdata/v1beta1/old.yml", "apiextensions.k8s.io/v1beta1", "only apiextensions.k8s.io/v1 is supported"},
		},
		{
			name: "no manifests",
			dir:  filepath.Join("testdata", "empty"),
			want: []string{`testenv: CRD directory "testdata/empty": no .yaml, .yml or .json files`},
		},
		{
			name: "a file, not a directory",
			dir:  filepath.Join("testdata", "json", "thing.json"),
			want: []string{`testenv: CRD directory "testdata/json/thing.json"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			crds, err := testenv.ReadCRDDirectory(tt.dir)
			if err == nil {
				t.Fatalf("no error, got %d CRDs", len(crds))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// Bad input fails before any server is started.
func TestStartServerRejectsBadCRDs(t *testing.T) {
	for _, opt := range []testenv.Option{
		testenv.WithCRDDirectory(filepath.Join("testdata", "nope")),
		testenv.WithCRDDirectory(filepath.Join("testdata", "notcrd")),
		testenv.WithCRDDirectory(testapiCRDs, testapiCRDs),
	} {
		env, stop, err := testenv.StartServer(context.Background(), opt, testenv.WithBackend(testenv.BackendEmbedded))
		if err == nil {
			stop()
			t.Fatalf("StartServer succeeded: %v", env.CRDs)
		}
		if !strings.Contains(err.Error(), "testdata") && !strings.Contains(err.Error(), "given twice") {
			t.Errorf("error %q names neither the file nor the duplicate", err)
		}
		t.Log(err)
	}
}
