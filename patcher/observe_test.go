package patcher_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/patcher"
)

// logLines collects what a logr.Logger writes, with its verbosity.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logger() logr.Logger {
	return funcr.New(func(prefix, args string) {
		l.mu.Lock()
		l.lines = append(l.lines, prefix+" "+args)
		l.mu.Unlock()
	}, funcr.Options{Verbosity: 1, LogInfoLevel: ptr("level")})
}

func ptr[T any](v T) *T { return &v }

func TestConflictIsLoggedAtDebugNotAsError(t *testing.T) {
	c, other, _ := newClient(t)
	lines := &logLines{}
	lctx := log.IntoContext(context.Background(), lines.logger())
	p := patcher.New(c, fetch(t, c))
	// Another value at the field this write sets: a Conflict by evidence
	// (a fake client's sends cannot be counted, so its 409 is settled).
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.ReadyReplicas = 5 })
	p.Object().Status.ReadyReplicas = 2
	if err := p.Flush(lctx); !apierrors.IsConflict(err) {
		t.Fatalf("Flush = %v, want a Conflict", err)
	}
	if len(lines.lines) != 1 {
		t.Fatalf("log lines = %q, want one", lines.lines)
	}
	got := lines.lines[0]
	if !strings.Contains(got, `"level"=1`) || !strings.Contains(got, "conflicted") || strings.Contains(got, `"error"`) {
		t.Fatalf("conflict logged as %q, want a V(1) info line, not an error", got)
	}
}

func TestFieldOwnerReachesEveryWrite(t *testing.T) {
	c, _, _ := newClient(t)
	var owners []string
	record := func(opts any) {
		switch o := opts.(type) {
		case *client.SubResourcePatchOptions:
			owners = append(owners, "status:"+o.FieldManager)
		case *client.PatchOptions:
			owners = append(owners, "main:"+o.FieldManager)
		}
	}
	wc := interceptor.NewClient(c, interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			record((&client.PatchOptions{}).ApplyOptions(opts))
			return c.Patch(ctx, obj, p, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			record((&client.SubResourcePatchOptions{}).ApplyOptions(opts))
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		},
	})
	p := patcher.New(wc, fetch(t, c), patcher.WithFieldOwner("my-controller"))
	if _, err := p.AddFinalizer(ctx, fin); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.ReadyReplicas = 2
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if strings.Join(owners, ",") != "main:my-controller,status:my-controller" {
		t.Fatalf("field managers = %v", owners)
	}
}
