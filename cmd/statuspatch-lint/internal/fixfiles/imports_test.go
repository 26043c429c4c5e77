package fixfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// After -fix, the client import goes when nothing uses it any more, and
// stays when something does.
func TestDropUnusedClientImport(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"unused": {
			src:  "package p\n\nimport (\n\t\"context\"\n\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\nvar _ context.Context\n",
			want: "package p\n\nimport (\n\t\"context\"\n)\n\nvar _ context.Context\n",
		},
		"unused, named": {
			src:  "package p\n\nimport (\n\t\"context\"\n\n\tcrclient \"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\nvar _ context.Context\n",
			want: "package p\n\nimport (\n\t\"context\"\n)\n\nvar _ context.Context\n",
		},
		"used": {
			src:  "package p\n\nimport \"sigs.k8s.io/controller-runtime/pkg/client\"\n\nvar _ client.Object\n",
			want: "package p\n\nimport \"sigs.k8s.io/controller-runtime/pkg/client\"\n\nvar _ client.Object\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "p.go")
			if err := os.WriteFile(file, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := DropUnusedClientImport(file); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
