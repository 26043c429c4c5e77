package main

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// The server serves the CRDs of -crds through the kubeconfig it wrote
// once it says ready, and stops, exiting 0, when its stdin closes.
func TestServesUntilStdinCloses(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stderr strings.Builder
	exit := make(chan int, 1)
	go func() {
		exit <- run([]string{"-crds", "../../internal/testapi/crd", "-kubeconfig", kubeconfig}, stdinR, stdoutW, &stderr)
		_ = stdoutW.Close()
	}()
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if line != "ready\n" {
		t.Fatalf("first line %q (%v), want ready; stderr:\n%s", line, err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdoutR) }()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	s := runtime.NewScheme()
	if err := testv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	// The embedded server serves no /api, so no discovery: the Widget's
	// mapping is given.
	m := meta.NewDefaultRESTMapper(nil)
	gv := testv1.GroupVersion
	m.AddSpecific(gv.WithKind("Widget"), gv.WithResource("widgets"), gv.WithResource("widget"), meta.RESTScopeNamespace)
	c, err := client.New(cfg, client.Options{Scheme: s, Mapper: m})
	if err != nil {
		t.Fatal(err)
	}
	w := &testv1.Widget{}
	w.Namespace, w.Name = corev1.NamespaceDefault, "w"
	if err := c.Create(context.Background(), w); err != nil {
		t.Fatalf("create a Widget through the kubeconfig: %v", err)
	}
	_ = stdinW.Close()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d after stdin closed, want 0; stderr:\n%s", code, stderr.String())
	}
}

// A usage error exits 2; -check says ok for the embedded server.
func TestUsageAndCheck(t *testing.T) {
	var out, errs strings.Builder
	if code := run([]string{"-backend", "nope", "-check"}, strings.NewReader(""), &out, &errs); code != 2 || !strings.Contains(errs.String(), "want embedded or full") {
		t.Errorf("-backend nope: exit %d, stderr %q; want 2 naming the backends", code, errs.String())
	}
	out.Reset()
	if code := run([]string{"-check"}, strings.NewReader(""), &out, &errs); code != 0 || out.String() != "ok\n" {
		t.Errorf("-check: exit %d, stdout %q; want 0, ok", code, out.String())
	}
	if code := run(nil, strings.NewReader(""), &out, &errs); code != 2 {
		t.Errorf("no -kubeconfig: exit %d, want 2", code)
	}
}
