package intercept

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"

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
		if got := callsite.Kind(tc.verb, tc.p, BodyRV([]byte(tc.body))); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.verb, tc.body, got, tc.want)
		}
	}
}
