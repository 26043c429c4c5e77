package patcher_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// recorded is one request that reached the fake API server.
type recorded struct {
	verb, sub string
	body      map[string]any
}

// requestLog counts the writes that pass through an interceptor.
type requestLog struct {
	mu   sync.Mutex
	reqs []recorded
}

func (l *requestLog) add(verb, sub string, obj client.Object, p client.Patch) {
	r := recorded{verb: verb, sub: sub}
	if p != nil {
		data, _ := p.Data(obj)
		if err := json.Unmarshal(data, &r.body); err != nil {
			r.body = jsonPatchAsBody(data)
		}
	}
	l.mu.Lock()
	l.reqs = append(l.reqs, r)
	l.mu.Unlock()
}

// jsonPatchAsBody reads a JSON Patch (the write of a status that carries
// null) as the body a merge patch would have: {"status": {field: value}}.
func jsonPatchAsBody(data []byte) map[string]any {
	var ops []struct {
		Op, Path string
		Value    any
	}
	if json.Unmarshal(data, &ops) != nil {
		return nil
	}
	status := map[string]any{}
	body := map[string]any{"status": status}
	for _, op := range ops {
		switch {
		case op.Path == "/status" && op.Op == "add":
			body["status"] = op.Value
		case strings.HasPrefix(op.Path, "/status/") && op.Op == "add":
			status[strings.TrimPrefix(op.Path, "/status/")] = op.Value
		case strings.HasPrefix(op.Path, "/status/") && op.Op == "remove":
			status[strings.TrimPrefix(op.Path, "/status/")] = nil
		}
	}
	return body
}

func (l *requestLog) count(verb, sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.reqs {
		if r.verb == verb && r.sub == sub {
			n++
		}
	}
	return n
}

func (l *requestLog) last() recorded {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reqs[len(l.reqs)-1]
}

func scheme(t testing.TB) *runtime.Scheme {
	s := runtime.NewScheme()
	if err := appsv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func deployment() *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Generation: 3},
		Spec:       appsv1.DeploymentSpec{Paused: true},
		Status:     appsv1.DeploymentStatus{Replicas: 1},
	}
}

// newClient returns a fake client holding a Deployment with a status
// subresource, wrapped to log every write, and a second, unlogged client on
// the same store for playing the concurrent writer.
func newClient(t testing.TB, objs ...client.Object) (client.WithWatch, client.WithWatch, *requestLog) {
	if len(objs) == 0 {
		objs = []client.Object{deployment()}
	}
	base := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(objs...).
		WithStatusSubresource(&appsv1.Deployment{}).Build()
	log := &requestLog{}
	c := interceptor.NewClient(base, interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			log.add("patch", "", obj, p)
			return c.Patch(ctx, obj, p, opts...)
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			log.add("update", "", obj, nil)
			return c.Update(ctx, obj, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			log.add("patch", sub, obj, p)
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		},
	})
	return c, base, log
}

func fetch(t testing.TB, c client.Client) *appsv1.Deployment {
	t.Helper()
	d := &appsv1.Deployment{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "web"}, d); err != nil {
		t.Fatal(err)
	}
	return d
}

// concurrentStatusWrite plays another reconciler: it writes status with the
// optimistic lock through other, moving the resourceVersion.
func concurrentStatusWrite(t testing.TB, other client.Client, mutate func(*appsv1.Deployment)) {
	t.Helper()
	d := fetch(t, other)
	base := d.DeepCopy()
	mutate(d)
	if err := other.Status().Patch(context.Background(), d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		t.Fatal(err)
	}
}
