package explore

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A write's kind is read from the request: its verb and subresource, the
// patch type, and the lock it carries.
func TestWriteKind(t *testing.T) {
	for _, tc := range []struct {
		verb string
		p    client.Patch
		body string
		want string
	}{
		{"status patch", client.RawPatch("application/merge-patch+json", nil), `{"status":{"phase":"x"}}`, "blind merge patch of status"},
		{"status patch", client.RawPatch("application/merge-patch+json", nil), `{"metadata":{"resourceVersion":"7"},"status":{}}`, "locked merge patch of status"},
		{"patch", client.RawPatch("application/json-patch+json", nil), `[{"op":"replace","path":"/spec/size","value":1}]`, "blind JSON patch"},
		{"patch", client.RawPatch("application/strategic-merge-patch+json", nil), `{"metadata":{"resourceVersion":"7"}}`, "locked strategic merge patch"},
		{"apply", nil, `{"apiVersion":"v1","kind":"ConfigMap"}`, "apply without the lock"},
		{"status apply", nil, `{"metadata":{"resourceVersion":"7"}}`, "apply of status with the lock"},
		{"status update", nil, `{"metadata":{"resourceVersion":"7"}}`, "update of status"},
		{"update", nil, "", "update without resourceVersion"},
		{"create", nil, "", "create"},
		{"delete", nil, "", "delete"},
	} {
		if got := writeKind(tc.verb, tc.p, bodyRV([]byte(tc.body))); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.verb, tc.body, got, tc.want)
		}
	}
}

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
