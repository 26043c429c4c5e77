package patcher_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

// FuzzCallSequences drives random sequences of the public API (constructors,
// in-memory mutations, Flush, Retry, the finalizer methods, HasChanges, a
// concurrent writer, the caller's own writes, nil and zero values, cancelled
// and nil contexts) against the fake client with conflicts injected. It
// asserts that nothing panics (but the mutate that panics on purpose, whose
// panic must come back out) and that every Flush or Retry that reported a
// write left the server's status equal to the in-memory one.
//
//	go test ./patcher -run '^$' -fuzz FuzzCallSequences -fuzztime 5000x
func FuzzCallSequences(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 2, 5, 4},              // new, mutate, flush
		{1, 2, 3, 9, 0, 5, 7},        // retry under a concurrent write
		{0, 0, 13, 1, 6, 1, 4},       // kubebuilder finalizer idiom, then AddFinalizer
		{0, 0, 3, 1, 10, 0, 5, 2},    // own Update, then Retry
		{0, 0, 2, 1, 5, 3},           // pending changes before Retry
		{0, 0, 14, 0, 4},             // panicking mutate, then Flush
		{11, 0, 4, 0, 5, 0, 6, 0, 8}, // nil and zero patchers
		{0, 0, 12, 1, 2, 3, 4, 0},    // cancelled context
		{0, 0, 6, 1, 15, 0, 7, 1, 4}, // deletion with a finalizer
		{16, 2, 4, 0, 5, 1},          // bad status accessors
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 96 {
			ops = ops[:96]
		}
		s := newSequence(t, ops)
		for len(s.ops) > 0 {
			s.step()
		}
	})
}

type sequence struct {
	t         *testing.T
	ops       []byte
	raw       client.Client // the store, as the concurrent writer sees it
	c         *patchertest.Client
	p         *patcher.Patcher[*appsv1.Deployment]
	ctx       context.Context
	cancelled context.Context
}

func newSequence(t *testing.T, ops []byte) *sequence {
	c, raw, _ := newClient(t)
	conflicts := 0
	if len(ops) > 0 {
		conflicts = int(ops[0] % 4)
	}
	cancelled, cancel := context.WithCancelCause(context.Background())
	cancel(fmt.Errorf("fuzz: cancelled"))
	return &sequence{t: t, ops: ops, raw: raw, c: patchertest.NewClient(c, patchertest.Faults{Conflicts: conflicts}),
		ctx: context.Background(), cancelled: cancelled}
}

func (s *sequence) next() byte {
	if len(s.ops) == 0 {
		return 0
	}
	b := s.ops[0]
	s.ops = s.ops[1:]
	return b
}

var fastRetry = []patcher.Option{patcher.WithBackoff(wait.Backoff{Duration: 1, Steps: 4}), patcher.WithMetrics(nil)}

func (s *sequence) step() {
	op, arg := s.next()%18, s.next()
	obj := s.p.Object()
	switch op {
	case 0:
		d := &appsv1.Deployment{}
		if err := s.raw.Get(context.Background(), keyWeb, d); err == nil {
			s.p = patcher.New(s.c, d, fastRetry...)
		}
	case 1:
		s.p, _ = patcher.Fetch(s.ctx, s.c, keyWeb, &appsv1.Deployment{}, fastRetry...)
	case 2:
		if obj != nil {
			obj.Status.Replicas = int32(arg)
		}
	case 3:
		if obj != nil {
			obj.Labels = map[string]string{"l": fmt.Sprint(arg % 3)}
		}
	case 4:
		s.checkWrite("Flush", func() error { return s.p.Flush(s.ctx) })
	case 5:
		s.checkWrite("Retry", func() error {
			return s.p.Retry(s.ctx, func(d *appsv1.Deployment) error {
				d.Status.ReadyReplicas = int32(arg)
				return nil
			})
		})
	case 6:
		_, _ = s.p.AddFinalizer(s.ctx, fmt.Sprintf("fuzz.example/f%d", arg%3))
	case 7:
		_, _ = s.p.RemoveFinalizer(s.ctx, fmt.Sprintf("fuzz.example/f%d", arg%3))
	case 8:
		_ = s.p.HasChanges()
	case 9:
		s.concurrentWrite(arg)
	case 10:
		if obj != nil {
			_ = s.raw.Update(context.Background(), obj) // the caller's own write, on the same pointer
		}
	case 11:
		switch arg % 3 {
		case 0:
			s.p = nil
		case 1:
			s.p = &patcher.Patcher[*appsv1.Deployment]{}
		default:
			s.p = patcher.New(nil, &appsv1.Deployment{})
		}
	case 12:
		switch arg % 3 {
		case 0:
			s.ctx = context.Background()
		case 1:
			s.ctx = s.cancelled
		default:
			s.ctx = nil
		}
	case 13:
		if obj != nil {
			controllerutil.AddFinalizer(obj, fmt.Sprintf("fuzz.example/f%d", arg%3))
		}
	case 14:
		s.panickingRetry()
	case 15:
		s.deleteOrRecreate()
	case 16:
		s.badAccessor(arg)
	case 17:
		if obj != nil {
			meta := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: fmt.Sprintf("R%d", arg%4)}
			patcherSetCondition(obj, meta)
		}
	}
}

// checkWrite runs a Flush or Retry; when it reports a write, the server's
// status must equal the in-memory status.
func (s *sequence) checkWrite(what string, write func() error) {
	before := s.c.StatusWrites()
	err := write()
	if err != nil || s.c.StatusWrites() == before {
		return
	}
	server := &appsv1.Deployment{}
	if err := s.raw.Get(context.Background(), keyWeb, server); err != nil {
		if apierrors.IsNotFound(err) {
			return
		}
		s.t.Fatal(err)
	}
	got, _ := json.Marshal(server.Status)
	want, _ := json.Marshal(s.p.Object().Status)
	if string(got) != string(want) {
		s.t.Fatalf("%s succeeded but the server's status %s differs from the in-memory %s", what, got, want)
	}
}

func (s *sequence) concurrentWrite(arg byte) {
	d := &appsv1.Deployment{}
	if err := s.raw.Get(context.Background(), keyWeb, d); err != nil {
		return
	}
	if arg%2 == 0 {
		base := d.DeepCopy()
		d.Status.AvailableReplicas = int32(arg)
		_ = s.raw.Status().Patch(context.Background(), d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		return
	}
	d.Labels = map[string]string{"other": fmt.Sprint(arg)}
	_ = s.raw.Update(context.Background(), d)
}

func (s *sequence) panickingRetry() {
	defer func() {
		if r := recover(); r != nil && r != "fuzz: mutate panics" {
			panic(r)
		}
	}()
	_ = s.p.Retry(s.ctx, func(d *appsv1.Deployment) error {
		d.Status.UpdatedReplicas = 42
		panic("fuzz: mutate panics")
	})
	if obj := s.p.Object(); obj != nil && obj.Status.UpdatedReplicas == 42 {
		s.t.Fatal("a panicking mutate left its change in memory")
	}
}

func (s *sequence) deleteOrRecreate() {
	d := &appsv1.Deployment{}
	if err := s.raw.Get(context.Background(), keyWeb, d); apierrors.IsNotFound(err) {
		_ = s.raw.Create(context.Background(), deployment())
		return
	}
	_ = s.raw.Delete(context.Background(), d)
}

func (s *sequence) badAccessor(arg byte) {
	d := &appsv1.Deployment{}
	if err := s.raw.Get(context.Background(), keyWeb, d); err != nil {
		return
	}
	accessors := []patcher.StatusFunc[*appsv1.Deployment]{
		func(o *appsv1.Deployment) any { return o.Status },
		func(o *appsv1.Deployment) any { return nil },
		func(o *appsv1.Deployment) any { s := o.Status; return &s },
		func(o *appsv1.Deployment) any { return &o.Status },
	}
	s.p = patcher.NewWithStatus(s.c, d, accessors[int(arg)%len(accessors)], fastRetry...)
}

// patcherSetCondition sets a condition the way generated code does, on a
// Deployment's own condition type through the generic helper's rules.
func patcherSetCondition(d *appsv1.Deployment, c metav1.Condition) {
	for i := range d.Status.Conditions {
		if string(d.Status.Conditions[i].Type) == c.Type {
			d.Status.Conditions[i].Reason = c.Reason
			return
		}
	}
	d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentConditionType(c.Type), Status: "True", Reason: c.Reason})
}
