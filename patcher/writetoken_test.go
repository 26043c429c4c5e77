package patcher_test

import (
	"errors"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/statuspatch/statuspatch/patcher"
)

// WithWriteToken's field must be a string field of the status: anything
// else is refused when the patcher is made. (The token's writes and
// settling are tested on the real server: testenv/internal/patcherit,
// TestIssue71Token*.)
func TestWriteTokenFieldIsChecked(t *testing.T) {
	c, _, log := newClient(t)
	for name, opt := range map[string]patcher.Option{
		"outside the status": patcher.WithWriteToken(func(d *appsv1.Deployment) *string { return &d.Spec.Template.Spec.ServiceAccountName }),
		"nil":                patcher.WithWriteToken(func(*appsv1.Deployment) *string { return nil }),
		"another type":       patcher.WithWriteToken(func(s *appsv1.StatefulSet) *string { return &s.Status.CurrentRevision }),
		"a copy":             patcher.WithWriteToken(func(*appsv1.Deployment) *string { s := "x"; return &s }),
	} {
		p := patcher.New(c, fetch(t, c), opt)
		p.Object().Status.ReadyReplicas = 5
		if err := p.Flush(ctx); !errors.Is(err, patcher.ErrInvalidInput) {
			t.Errorf("%s: Flush = %v, want ErrInvalidInput", name, err)
		}
	}
	if n := len(statusBodies(log)); n != 0 {
		t.Fatalf("%d writes sent", n)
	}
}
