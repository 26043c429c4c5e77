package callsite

import "testing"

// The call site is the operator's line: the frames of the client
// libraries, statuspatch's patcher and the explorer are skipped.
func TestCallSiteSkipsLibraries(t *testing.T) {
	for fn, lib := range map[string]bool{
		"sigs.k8s.io/controller-runtime/pkg/client/interceptor.(*interceptor).Patch":  true,
		"k8s.io/client-go/rest.(*Request).Do":                                         true,
		"github.com/statuspatch/statuspatch/testenv/explore.(*run).write":             true,
		"github.com/statuspatch/statuspatch/testenv/explore_test.(*phaser).Reconcile": false,
		"github.com/statuspatch/statuspatch/patcher.(*Patcher[...]).Flush":            true,
		"example.com/op/internal/controller.(*R).Reconcile":                           false,
	} {
		if isLibrary(fn) != lib {
			t.Errorf("isLibrary(%q) = %t, want %t", fn, !lib, lib)
		}
	}
}

// A method named as a client write, outside the libraries, is a client
// wrapper: the call site is the line that called it.
func TestIsWrapper(t *testing.T) {
	for fn, want := range map[string]bool{
		"github.com/x/realops.serialClient.Delete":                true,
		"example.com/op/internal/metrics.(*countingClient).Patch": true,
		"example.com/op/internal/metrics.(*typed[...]).Update":    true,
		"example.com/op/internal/controller.(*R).Reconcile":       false,
		"example.com/op/internal/controller.Patch":                false,
		"example.com/op/internal/controller.(*R).Reconcile.func1": false,
		"example.com/op/internal/controller.(*R).Patch.func2":     false,
	} {
		if got := isWrapper(fn); got != want {
			t.Errorf("isWrapper(%q) = %t, want %t", fn, got, want)
		}
	}
}

// A function's package, as the runtime names it: methods, closures, type
// arguments with slashes, a dot in the last element escaped.
func TestFuncPackage(t *testing.T) {
	for fn, want := range map[string]string{
		"example.com/op/internal/ctl.(*R).Reconcile":        "example.com/op/internal/ctl",
		"example.com/op/ctl.Touch.func1":                    "example.com/op/ctl",
		"example.com/op/ctl.F[go.shape.*example.com/x/y.T]": "example.com/op/ctl",
		"gopkg.in/yaml%2ev3.Marshal":                        "gopkg.in/yaml.v3",
		"main.main":                                         "main",
		"nodot":                                             "",
	} {
		if got := funcPackage(fn); got != want {
			t.Errorf("funcPackage(%q) = %q, want %q", fn, got, want)
		}
	}
}

func TestNote(t *testing.T) {
	for _, tc := range []struct{ kind, at, want string }{
		{"blind merge patch of status", "ctl/x.go:42", ", by a blind merge patch of status at ctl/x.go:42"},
		{"update without resourceVersion", "", ", by an update without resourceVersion"},
		{"", "ctl/x.go:42", ""},
	} {
		if got := Note(tc.kind, tc.at); got != tc.want {
			t.Errorf("Note(%q, %q) = %q, want %q", tc.kind, tc.at, got, tc.want)
		}
	}
}
