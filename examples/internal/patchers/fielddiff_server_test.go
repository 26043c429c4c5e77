package patchers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

// The generated patcher (its field-by-field status diff, WithFieldDiff) on
// a real API server, step by step beside the reflection path (patcher.New)
// on a twin object: after every step the server stores the object's status,
// and the same status for both; both send the same status patch bytes.
//
// Checked by mutation of patcher/internal/diff/generated.go (Fields.Change,
// behind patcher.FieldChanged): with it keeping
// no member for a field whose current value is omitted (removed fields
// dropped from the patch), "remove omitempty fields" fails every check (the
// server keeps phase and completedSteps, the patches and stored statuses of
// the two sides differ) and "remove a nested struct" sends nothing. With
// cmd/statuspatch-gen/generator/equal.go leaving the last field out of every struct's generated
// equality function, "nested change" (a condition's message) and "list
// shrink" (the plan's steps) fail: the server keeps the old values.

var ctx = context.Background()

// recorder counts the requests of one client and keeps its PATCH bodies.
type recorder struct {
	mu       sync.Mutex
	requests int
	patches  [][]byte
}

func (r *recorder) RoundTrip(next http.RoundTripper, req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Method == http.MethodPatch && req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
		body = b
	}
	r.mu.Lock()
	r.requests++
	if body != nil {
		r.patches = append(r.patches, body)
	}
	r.mu.Unlock()
	return next.RoundTrip(req)
}

// take returns the requests and patch bodies since the last take.
func (r *recorder) take() (int, [][]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, p := r.requests, r.patches
	r.requests, r.patches = 0, nil
	return n, p
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// recordedClient is a client of env whose requests rec sees.
func recordedClient(t *testing.T, env *testenv.Env, rec *recorder) client.Client {
	t.Helper()
	cfg := rest.CopyConfig(env.Config)
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) { return rec.RoundTrip(next, req) })
	})
	c, err := client.New(cfg, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// side is one of the two writers: its object, patcher and requests.
type side struct {
	name  string
	obj   *demov1.Rollout
	flush func(context.Context) error
	rec   *recorder
}

var since = metav1.Unix(1700000000, 0)

func TestGeneratedDiffOnServer(t *testing.T) {
	s := runtime.NewScheme()
	if err := demov1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(s))

	newSide := func(name string, generated bool) *side {
		rec := &recorder{}
		c := recordedClient(t, env, rec)
		obj := &demov1.Rollout{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
			Spec:       demov1.RolloutSpec{Version: "v1", Steps: 3},
		}
		if err := env.Client.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
		sd := &side{name: name, obj: obj, rec: rec}
		if generated {
			sd.flush = patchers.NewRolloutStatusPatcher(c, obj).Flush
		} else {
			sd.flush = patcher.New(c, obj).Flush
		}
		return sd
	}
	gen, refl := newSide("generated", true), newSide("reflection", false)
	sides := []*side{gen, refl}

	steps := []struct {
		name string
		// change mutates the status; it is applied to both objects.
		change func(st *demov1.RolloutStatus)
		// gone are status keys the server must no longer hold.
		gone []string
	}{
		{"first write on a zero status", func(st *demov1.RolloutStatus) {
			st.ObservedGeneration = 1
			st.Phase = demov1.RolloutProgressing
			st.CompletedSteps = 1
			st.Plan = &demov1.RolloutPlan{ID: "p1", Generation: 1, Version: "v1", Steps: []string{"a", "b", "c"}}
			st.Conditions = []metav1.Condition{
				{Type: "Progressing", Status: metav1.ConditionTrue, Reason: "Planned", Message: "planned", LastTransitionTime: since},
				{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Rolling", Message: "step 1 of 3", LastTransitionTime: since},
			}
		}, nil},
		{"nested change", func(st *demov1.RolloutStatus) {
			st.Plan.Version = "v2"
			st.Conditions[1].Message = "step 2 of 3"
		}, nil},
		{"remove omitempty fields", func(st *demov1.RolloutStatus) {
			st.ObservedGeneration = 2 // so that a patch without the removals is still sent
			st.Phase = ""
			st.CompletedSteps = 0
		}, []string{"phase", "completedSteps"}},
		{"list shrink", func(st *demov1.RolloutStatus) {
			st.Plan.Steps = st.Plan.Steps[:1]
			st.Conditions = st.Conditions[:1]
		}, nil},
		{"remove a nested struct", func(st *demov1.RolloutStatus) {
			st.Plan = nil
		}, []string{"plan"}},
	}
	for _, step := range steps {
		var bodies [][]byte
		for _, sd := range sides {
			step.change(&sd.obj.Status)
			want := sd.obj.Status.DeepCopy()
			if err := sd.flush(ctx); err != nil {
				t.Fatalf("%s: %s: Flush: %v", step.name, sd.name, err)
			}
			n, patches := sd.rec.take()
			if n != 1 || len(patches) != 1 {
				t.Fatalf("%s: %s: %d requests, %d patches; want 1 patch", step.name, sd.name, n, len(patches))
			}
			bodies = append(bodies, statusOf(t, patches[0]))
			stored := getRollout(t, env, sd.name)
			if !equality.Semantic.DeepEqual(stored.Status, *want) {
				t.Errorf("%s: %s: the server stored\n%s\nwant the object's status\n%s", step.name, sd.name, asJSON(stored.Status), asJSON(*want))
			}
			if !equality.Semantic.DeepEqual(sd.obj.Status, *want) {
				t.Errorf("%s: %s: after Flush the object holds\n%s\nwant\n%s", step.name, sd.name, asJSON(sd.obj.Status), asJSON(*want))
			}
			for _, key := range step.gone {
				if _, found, _ := unstructured.NestedFieldNoCopy(getRaw(t, env, sd.name), "status", key); found {
					t.Errorf("%s: %s: the server still holds status.%s", step.name, sd.name, key)
				}
			}
		}
		if !bytes.Equal(bodies[0], bodies[1]) {
			t.Errorf("%s: status patches differ:\ngenerated  %s\nreflection %s", step.name, bodies[0], bodies[1])
		}
		if g, r := asJSON(getRollout(t, env, gen.name).Status), asJSON(getRollout(t, env, refl.name).Status); g != r {
			t.Errorf("%s: stored statuses differ:\ngenerated  %s\nreflection %s", step.name, g, r)
		}
	}

	t.Run("no-op sends nothing", func(t *testing.T) {
		for _, sd := range sides {
			// Equal values in new memory: the comparison, not pointer
			// identity, must find them equal.
			sd.obj.Status.Conditions = append([]metav1.Condition(nil), sd.obj.Status.Conditions...)
			if err := sd.flush(ctx); err != nil {
				t.Fatalf("%s: Flush: %v", sd.name, err)
			}
			if n, _ := sd.rec.take(); n != 0 {
				t.Errorf("%s: a no-op Flush sent %d requests, want 0", sd.name, n)
			}
		}
	})

	t.Run("stale base conflicts", func(t *testing.T) {
		for _, sd := range sides {
			other := getRollout(t, env, sd.name)
			other.Status.Phase = demov1.RolloutCompleted
			if err := env.Client.Status().Update(ctx, other); err != nil {
				t.Fatal(err)
			}
			sd.obj.Status.Phase = demov1.RolloutPlanning
			err := sd.flush(ctx)
			if !apierrors.IsConflict(err) {
				t.Fatalf("%s: Flush on a stale base: %v, want a Conflict", sd.name, err)
			}
			// The write that conflicted and nothing more: a 409 to a
			// request sent once is the server's refusal of it, settled by
			// that answer alone (docs/patcher.md, "Sent once").
			if n, patches := sd.rec.take(); n != 1 || len(patches) != 1 {
				t.Errorf("%s: %d requests, %d of them writes; want only the one write that conflicted", sd.name, n, len(patches))
			}
			if got := getRollout(t, env, sd.name).Status.Phase; got != demov1.RolloutCompleted {
				t.Errorf("%s: the server holds phase %q, want the other writer's %q", sd.name, got, demov1.RolloutCompleted)
			}
			if sd.obj.Status.Phase != demov1.RolloutPlanning {
				t.Errorf("%s: after the Conflict the object holds phase %q, want its own change kept", sd.name, sd.obj.Status.Phase)
			}
		}
	})
}

// statusOf returns the status member of a status patch body.
func statusOf(t *testing.T, body []byte) []byte {
	t.Helper()
	var b struct {
		Status json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("patch body %s: %v", body, err)
	}
	return b.Status
}

func getRollout(t *testing.T, env *testenv.Env, name string) *demov1.Rollout {
	t.Helper()
	ro := &demov1.Rollout{}
	if err := env.Client.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, ro); err != nil {
		t.Fatal(err)
	}
	return ro
}

// getRaw reads the object as the server stores it, without the typed
// decoding that would turn a missing key into a zero value.
func getRaw(t *testing.T, env *testenv.Env, name string) map[string]any {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(demov1.GroupVersion.WithKind("Rollout"))
	if err := env.Client.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, u); err != nil {
		t.Fatal(err)
	}
	return u.Object
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
