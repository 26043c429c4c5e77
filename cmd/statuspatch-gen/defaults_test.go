package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-gen/generator"
)

// Issue 11: a status field with omitempty and a schema default can never
// store its zero value; the generator says so at the field, and still
// generates.
func TestOmitemptyDefaultWarning(t *testing.T) {
	dir := errcases(t)
	writeFile(t, filepath.Join(dir, "defaults", "types.go"), `package defaults

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Limits struct {
	// +kubebuilder:default=10
	Burst int32 `+"`json:\"burst,omitempty\"`"+`
}

type WidgetStatus struct {
	// +kubebuilder:default=1
	Replicas int32 `+"`json:\"replicas,omitempty\"`"+`
	// +kubebuilder:default=1
	Pointer *int32 `+"`json:\"pointer,omitempty\"`"+`
	// +kubebuilder:default=1
	Always int32 `+"`json:\"always\"`"+`
	// +kubebuilder:default="Fast"
	Mode string `+"`json:\"mode,omitempty\"`"+`
	// +optional
	Plain int32 `+"`json:\"plain,omitempty\"`"+`
	Limits *Limits `+"`json:\"limits,omitempty\"`"+`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`
	Status            WidgetStatus `+"`json:\"status,omitempty\"`"+`
}
`)
	var warnings bytes.Buffer
	old := generator.Warnings
	generator.Warnings = &warnings
	defer func() { generator.Warnings = old }()
	if err := run([]string{"paths=./defaults"}, nil); err != nil {
		t.Fatalf("generation with warnings failed: %v", err)
	}
	got := warnings.String()
	for _, want := range []string{
		"defaults/types.go:12: warning: Widget field status.replicas has omitempty and +kubebuilder:default",
		"defaults/types.go:18: warning: Widget field status.mode has omitempty",
		"defaults/types.go:7: warning: Widget field status.limits.burst has omitempty",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"status.pointer", "status.always", "status.plain"} {
		if strings.Contains(got, not) {
			t.Errorf("warned about %s:\n%s", not, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 3 {
		t.Errorf("%d warning lines, want 3:\n%s", n, got)
	}
	if _, err := os.Stat(filepath.Join(dir, "defaults", "zz_generated.statuspatch.go")); err != nil {
		t.Fatalf("no patcher generated: %v", err)
	}
}
