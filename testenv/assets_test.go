package testenv_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv"
)

// A KUBEBUILDER_ASSETS directory without the binaries (a kubebuilder
// Makefile that exports it before setup-envtest ran, a typo) is rejected
// before anything starts, with the variable, the directory, what is missing
// and the way out in the message.
func TestAssetsWithoutBinariesRejectedUpFront(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]os.FileMode
		want  []string
	}{
		{"empty", nil, []string{"no executable kube-apiserver or etcd"}},
		// testenv-assets' folder built for the full API, without --etcd:
		// the message gives the command that adds etcd.
		{"no etcd", map[string]os.FileMode{"kube-apiserver": 0o755}, []string{"no executable etcd,", "testenv-assets use --etcd -p path"}},
		{"not executable", map[string]os.FileMode{"kube-apiserver": 0o644, "etcd": 0o644}, []string{"no executable kube-apiserver or etcd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, mode := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\nexit 1\n"), mode); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv(testenv.EnvAssets, dir)
			_, stop, err := testenv.StartServer(t.Context(), testenv.WithCRDDirectory(testapiCRDs))
			if err == nil {
				stop()
				t.Fatal("StartServer succeeded")
			}
			want := append([]string{"KUBEBUILDER_ASSETS " + `"` + dir + `"`, "WithBackend(testenv.BackendEmbedded)"}, tc.want...)
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
	t.Run("missing directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "bin", "k8s", "1.33.0-linux-amd64")
		t.Setenv(testenv.EnvAssets, dir)
		_, stop, err := testenv.StartServer(t.Context())
		if err == nil {
			stop()
			t.Fatal("StartServer succeeded")
		}
		if !strings.Contains(err.Error(), dir) {
			t.Errorf("error %q does not name %s", err, dir)
		}
	})
}

// WithBackend(BackendEmbedded) ignores KUBEBUILDER_ASSETS, and Env says so.
func TestEmbeddedIgnoresAssets(t *testing.T) {
	t.Setenv(testenv.EnvAssets, filepath.Join(t.TempDir(), "nothing-here"))
	env := testenv.Start(t, testenv.WithCRDDirectory(testapiCRDs), testenv.WithBackend(testenv.BackendEmbedded))
	if env.Backend != testenv.BackendEmbedded || !strings.Contains(env.BackendReason, "ignores KUBEBUILDER_ASSETS=") {
		t.Fatalf("Backend %v, BackendReason %q", env.Backend, env.BackendReason)
	}
}
