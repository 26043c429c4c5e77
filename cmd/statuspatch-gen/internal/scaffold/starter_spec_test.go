package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// starterSpecDir is the Gauge project: its API package (a spec with a
// field of each rule init fills: a minimum, an enum, minLength with
// omitempty, a required pointer to a struct, minItems, a required pointer
// to an integer, a required boolean with omitempty, an optional struct
// sent as {} whose field is sent as 0) and its CRD, as controller-gen
// v0.20 writes them (object, crd:maxDescLen=0).
var starterSpecDir = filepath.Join("testdata", "starter-spec")

const starterSpecCRD = "plain.goldens.example.com_gauges.yaml"

// starterSpecReconciler is kubebuilder's scaffold of Gauge's reconciler: it
// reads the Gauge and writes nothing.
const starterSpecReconciler = `package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	plainv1 "example.com/goldens/api/v1"
)

type GaugeReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *GaugeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, client.IgnoreNotFound(r.Get(ctx, req.NamespacedName, &plainv1.Gauge{}))
}
`

// starterSpecProject writes the Gauge project in dir, its CRD changed by
// edit (nil: as it is; a CRD edit returning false: no CRD), and returns
// init's starter test for it: path, text and note.
func starterSpecProject(t *testing.T, dir string, edit func(spec *apiextensionsv1.JSONSchemaProps) bool) (rel, content, note string) {
	t.Helper()
	copyTree(t, filepath.Join(starterSpecDir, "api"), filepath.Join(dir, "api"), nil)
	crd, err := os.ReadFile(filepath.Join(starterSpecDir, "config", "crd", "bases", starterSpecCRD))
	if err != nil {
		t.Fatal(err)
	}
	keep := true
	if edit != nil {
		var c apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(crd, &c); err != nil {
			t.Fatal(err)
		}
		spec := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
		keep = edit(&spec)
		c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
		if crd, err = yaml.Marshal(&c); err != nil {
			t.Fatal(err)
		}
	}
	if keep {
		writeFile(t, filepath.Join(dir, "config", "crd", "bases", starterSpecCRD), string(crd))
	}
	writeFile(t, filepath.Join(dir, "internal", "controller", "gauge_controller.go"), starterSpecReconciler)
	writeFile(t, filepath.Join(dir, "Makefile"), "") // readProject wants one
	if !fileExists(filepath.Join(dir, "go.mod")) {
		// go list -find names the folder of api/shared/v1 (initstarterext.go)
		writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/goldens\n\ngo 1.24\n")
	}
	writeFile(t, filepath.Join(dir, "PROJECT"), `layout:
- go.kubebuilder.io/v4
repo: example.com/goldens
resources:
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  group: plain
  kind: Gauge
  path: example.com/goldens/api/v1
  version: v1
`)
	proj, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	rel, content, note, err = starterTest(dir, proj)
	if err != nil || rel == "" {
		t.Fatalf("no starter test: %q, %v", note, err)
	}
	return rel, content, note
}

// TestStarterSpecFilled: createStarterGauge sets each spec field Gauge's
// CRD requires, or whose zero value Go sends and the CRD refuses, to a
// value the schema accepts, with why (testdata/starter-spec/
// gauge_testenv_test.go.golden; -update rewrites it), and init says
// nothing of the spec. Before starterSpec, the spec was empty (a TODO).
func TestStarterSpecFilled(t *testing.T) {
	_, content, note := starterSpecProject(t, t.TempDir(), nil)
	golden := filepath.Join(starterSpecDir, "gauge_testenv_test.go.golden")
	if *update {
		writeFile(t, golden, content)
	}
	compareText(t, golden, content)
	if note != "" {
		t.Errorf("init noted on a spec it filled whole:\n%s", note)
	}
}

// TestStarterSpecNotes: what init cannot make exact is a note,
// "types.go:line: Gauge.spec.path has what: set it in createStarterGauge
// (test)", and a TODO line naming the field in the test, never a silent
// success.
func TestStarterSpecNotes(t *testing.T) {
	const test = "(internal/controller/gauge_testenv_test.go)"
	for _, c := range []struct {
		name       string
		edit       func(*apiextensionsv1.JSONSchemaProps) bool
		note, todo string
	}{
		{"required pattern", func(s *apiextensionsv1.JSONSchemaProps) bool {
			s.Required = append(s.Required, "note")
			return true
		}, "api/v1/gauge_types.go:46: Gauge.spec.note has a pattern (^[a-z]+$): set it in createStarterGauge " + test, "// TODO(user): set spec.note, which has a pattern (^[a-z]+$)."},
		{"CEL on the spec", func(s *apiextensionsv1.JSONSchemaProps) bool {
			s.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.sizeGiB < 100"}}
			return true
		}, "api/v1/gauge_types.go:89: Gauge.spec has x-kubernetes-validations (CEL): set it in createStarterGauge " + test, "// TODO(user): set spec, which has x-kubernetes-validations (CEL)."},
		{"a range it cannot meet", func(s *apiextensionsv1.JSONSchemaProps) bool {
			limits := s.Properties["limits"]
			step := limits.Properties["step"]
			step.Maximum = new(float64(8))
			limits.Properties["step"] = step
			s.Properties["limits"] = limits
			return true
		}, "api/v1/gauge_types.go:59: Gauge.spec.limits.step has a range init cannot meet (maximum 8): set it in createStarterGauge " + test, "// TODO(user): set spec.limits.step"},
		{"a type with JSON of its own, in another package", func(s *apiextensionsv1.JSONSchemaProps) bool {
			runner := s.Properties["runner"]
			runner.Required = append(runner.Required, "since")
			s.Properties["runner"] = runner
			return true
		}, "example.com/goldens/api/shared/v1/runner.go:17: Gauge.spec.runner.since has a type init does not fill (Stamp): set it in createStarterGauge " + test, "// TODO(user): set spec.runner.since, which has a type init does not fill (Stamp)."},
		{"no CRD", func(*apiextensionsv1.JSONSchemaProps) bool { return false },
			"statuspatch-gen init: config/crd: no CustomResourceDefinition of Gauge served at v1 (make manifests writes it): createStarterGauge " + test, "// TODO(user): set the spec fields your reconciler needs."},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, content, note := starterSpecProject(t, t.TempDir(), c.edit)
			if !strings.Contains(note, c.note) {
				t.Errorf("init's note does not say %q:\n%s", c.note, note)
			}
			if !strings.Contains(content, c.todo) {
				t.Errorf("the starter test has no line %q:\n%s", c.todo, content)
			}
		})
	}
}

// TestStarterSpecOnTheServer runs the starter test init writes for Gauge on
// testenv's in-process API server, which validates the create against the
// CRD: it passes. Before starterSpec it created a Gauge with an empty spec,
// which the server refused (spec.sizeGiB: Invalid value: 0: ... greater
// than or equal to 1, and the required fields missing), as it refused
// Bucket's in issue 80. Its reconciler is starterSetupReconciler: the
// test sets it up through SetupWithManager (r.Clock set, the List by an
// indexed field served by the manager's cache), and passes; with a TODO
// there instead, as init left it until this, Reconcile's r.Now() panicked.
func TestStarterSpecOnTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds testenv's API server into a project's test binary")
	}
	root := repoRoot(t)
	dir := t.TempDir()
	gowork := starterServerModule(t, root, dir)
	starterSpecProject(t, dir, nil)
	writeFile(t, filepath.Join(dir, "internal", "controller", "gauge_controller.go"), starterSetupReconciler+starterSetupIndexes)
	writeFile(t, filepath.Join(dir, "cmd", "main.go"), starterSetupMain)
	proj, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	rel, content, note, err := starterTest(dir, proj)
	if err != nil || rel == "" || !strings.Contains(content, "starterSetUpGauge(t, env, r)") || !strings.Contains(content, "if err := SetupIndexes(t.Context(), m); err != nil {") {
		t.Fatalf("no starter test setting the reconciler up: %q, %v:\n%s", note, err, content)
	}
	writeFile(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
	run := exec.Command("go", "test", "-count=1", "-vet=off", "-ldflags=-w", "-run", "^TestGauge(ReconcilerOnTestenv|DecidesOnce)$", "./internal/controller/")
	run.Dir, run.Env = dir, append(os.Environ(), "GOWORK="+gowork, "GOFLAGS=")
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("the starter test fails on the server: %v\n%s\n%s", err, out, content)
	}
}

// TestStarterSpecNoAPIFolder: a kind whose API folder is not where PROJECT
// says gets no spec statements and no error (init still writes its
// starter test, as before).
func TestStarterSpecNoAPIFolder(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join(starterSpecDir, "config"), filepath.Join(dir, "config"), nil)
	stmts, notes, _, err := starterSpec(starterSpecRequest{dir: dir, apiDir: "api/v1", crdDir: "config/crd", test: "t_test.go", alias: "plainv1",
		res: kbResource{Group: "plain", Version: "v1", Kind: "Gauge"}})
	if err != nil || len(stmts) > 0 || len(notes) > 0 {
		t.Errorf("starterSpec without the API folder: %q, %q, %v", stmts, notes, err)
	}
}

// starterSetupReconciler is Gauge's reconciler as kubebuilder's CronJob
// tutorial writes its own: SetupWithManager sets r.Clock (nil in a test that
// builds the reconciler without it: Reconcile's r.Now() panics) and
// registers a field index (an extractor setting a field in a literal is not
// SetupWithManager's) that Reconcile's List reads with
// client.MatchingFields, which the API server refuses; Reconcile writes the
// count it listed to the status, under the lock (Status().Update), and
// records an event through r.Recorder, which starterSetupMain sets (nil in
// a test that does not: a panic).
const starterSetupReconciler = `package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	plainv1 "example.com/goldens/api/v1"
)

type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

type GaugeReconciler struct {
	client.Client
	Scheme   *runtime.Scheme
	Recorder record.EventRecorder
	Clock
	seen int
}

func (r *GaugeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	g := &plainv1.Gauge{}
	if err := r.Get(ctx, req.NamespacedName, g); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.Now().IsZero() {
		return ctrl.Result{}, errors.New("no time")
	}
	var same plainv1.GaugeList
	if err := r.List(ctx, &same, client.InNamespace(req.Namespace), client.MatchingFields{"spec.mode": string(g.Spec.Mode)}); err != nil {
		return ctrl.Result{}, err
	}
	g.Status.Phase = fmt.Sprintf("one of %d", len(same.Items))
	r.Recorder.Event(g, "Normal", "Counted", g.Status.Phase)
	return ctrl.Result{}, r.Status().Update(ctx, g)
}

func (r *GaugeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	if r.Clock == nil {
		r.Clock = realClock{}
	}
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &plainv1.Gauge{}, "spec.mode", func(o client.Object) []string {
		r.seen++ // in the extractor: not SetupWithManager's
		return []string{string(o.(*plainv1.Gauge).Spec.Mode)}
	}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&plainv1.Gauge{}).Complete(r)
}
`

// starterSetupMain is the Gauge project's cmd/main.go, as kubebuilder's
// deploy-image plugin writes one: it builds the reconciler with a
// Recorder from the manager, and with a field init cannot make (Limit).
const starterSetupMain = `package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/goldens/internal/controller"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = (&controller.GaugeReconciler{
		Client:   mgr.GetClient(),
		Scheme:   mgr.GetScheme(),
		Recorder: mgr.GetEventRecorderFor("gauge"),
	}).SetupWithManager(mgr)
}
`

// starterSetupIndexes is a function of the controller package that
// registers a field index on the manager it is given, outside
// SetupWithManager (cmd/main.go would call it): the starter test calls it
// on its own manager.
const starterSetupIndexes = `
func SetupIndexes(ctx context.Context, mgr ctrl.Manager) error {
	return mgr.GetFieldIndexer().IndexField(ctx, &plainv1.Gauge{}, "spec.sizeGiB", func(o client.Object) []string {
		return []string{fmt.Sprint(o.(*plainv1.Gauge).Spec.SizeGiB)}
	})
}
`

// TestStarterSetupNeeds: where the reconciler's SetupWithManager sets a
// field on it besides its Client, or registers a field index
// (starterSetupReconciler), each test builds its reconcilers through
// starterSetUpGauge, which runs SetupWithManager on a manager of its own
// and names each line (as init's wiring leaves the file, two lines lower),
// and init notes nothing; a SetupWithManager that sets only Client is
// neither. Until this, init left a TODO(user) and a note, and the test
// failed on kubebuilder's CronJob tutorial (TestStarterSpecOnTheServer runs
// it).
func TestStarterSetupNeeds(t *testing.T) {
	dir := t.TempDir()
	starterSpecProject(t, dir, nil)
	ctrlFile := filepath.Join(dir, "internal", "controller", "gauge_controller.go")
	writeFile(t, ctrlFile, starterSetupReconciler)
	writeFile(t, filepath.Join(dir, "cmd", "main.go"), strings.Replace(starterSetupMain, "\t}).SetupWithManager", "\t\tLimit:    newLimit(),\n\t}).SetupWithManager", 1))
	proj, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	// As init's wiring leaves the file: two lines more above the method.
	proj.wired = map[string]string{"internal/controller/gauge_controller.go": strings.Replace(starterSetupReconciler, "type Clock", "// wired\n// by init\ntype Clock", 1)}
	_, content, note, err := starterTest(dir, proj)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"//   - SetupWithManager sets r.Clock (internal/controller/gauge_controller.go:53)\n//   - SetupWithManager registers a field index (internal/controller/gauge_controller.go:55)\n",
		"//   - cmd/main.go:14 builds it with Recorder: mgr.GetEventRecorderFor(\"gauge\"), which the test sets from its manager\n",
		"\tr.Recorder = m.GetEventRecorderFor(\"gauge\")\n\tif err := r.SetupWithManager(m); err != nil {",
		"// TODO(user): cmd/main.go:15 sets Limit on the reconciler: set the same on r.",
		"reads := &starterGaugeClient{Client: starterSetUpGauge(t, env, r), key: key}",
		"c := &starterGaugeClient{Client: starterSetUpGauge(t, env, r), key: key}",
		"ref := &starterGaugeClient{Client: starterSetUpGauge(t, env, apart), key:",
	} {
		if !strings.Contains(content, want) {
			t.Errorf("the starter test does not have %q:\n%s", want, content)
		}
	}
	if strings.Contains(note, "SetupWithManager") || strings.Contains(content, "TODO(user): SetupWithManager") || !strings.Contains(note, "cmd/main.go:15 sets Limit, which the starter test does not set") {
		t.Errorf("init noted SetupWithManager, or left a TODO for it, or did not note Limit: note %q", note)
	}
	writeFile(t, filepath.Join(dir, "cmd", "main.go"), starterSetupMain)
	// A SetupWithManager taking a context first is called with the test's;
	// one taking what the test cannot give is a TODO and a note, as before.
	for _, c := range []struct{ params, call, todo string }{
		{"ctx context.Context, mgr ctrl.Manager", "r.SetupWithManager(t.Context(), m)", ""},
		{"mgr ctrl.Manager, concurrency int", "", "TODO(user): SetupWithManager sets r.Clock (internal/controller/gauge_controller.go:51), and SetupWithManager registers a field index (internal/controller/gauge_controller.go:53): set the same on r."},
	} {
		writeFile(t, ctrlFile, strings.Replace(starterSetupReconciler, "SetupWithManager(mgr ctrl.Manager)", "SetupWithManager("+c.params+")", 1))
		if proj, err = readProject(dir); err != nil {
			t.Fatal(err)
		}
		if _, content, note, err = starterTest(dir, proj); err != nil {
			t.Fatal(err)
		}
		if c.call != "" && (!strings.Contains(content, c.call) || note != "") {
			t.Errorf("SetupWithManager(%s): the test does not call %q, or init noted %q", c.params, c.call, note)
		}
		if c.todo != "" && (!strings.Contains(content, c.todo) || strings.Contains(content, "starterSetUp") || !strings.Contains(note, "takes parameters the starter test cannot give")) {
			t.Errorf("SetupWithManager(%s): no TODO %q, or a set-up, or no note (%q):\n%s", c.params, c.todo, note, content)
		}
	}
	// What SetupWithManager hands on: a method of the reconciler, a
	// function given the manager (the builder's chain and
	// patcher.ForManager are not counted).
	helpers := strings.Replace(starterSetupReconciler, `	if r.Clock == nil {
		r.Clock = realClock{}
	}
	if err := mgr.GetFieldIndexer().IndexField(`, `	r.setDefaults()
	if err := indexMode(mgr.GetFieldIndexer(), func(o client.Object) []string {
		return []string{string(o.(*plainv1.Gauge).Spec.Mode)}
	}); err != nil {
		return err
	}
	if err := mgr.GetFieldIndexer().IndexField(`, 1) + `
func (r *GaugeReconciler) setDefaults() { r.Clock = realClock{} }

func indexMode(fi client.FieldIndexer, f client.IndexerFunc) error {
	return fi.IndexField(context.Background(), &plainv1.Gauge{}, "spec.mode", f)
}
`
	writeFile(t, ctrlFile, helpers)
	if proj, err = readProject(dir); err != nil {
		t.Fatal(err)
	}
	if _, content, _, err = starterTest(dir, proj); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"//   - SetupWithManager calls r.setDefaults, which may set more on r (internal/controller/gauge_controller.go:50)", "//   - SetupWithManager gives the manager to indexMode (internal/controller/gauge_controller.go:51)"} {
		if !strings.Contains(content, want) {
			t.Errorf("the starter test does not say %q", want)
		}
	}
	if err := os.Remove(filepath.Join(dir, "cmd", "main.go")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, ctrlFile, strings.Replace(starterSpecReconciler, "\"context\"\n", "\"context\"\n\t\"time\"\n", 1)+`
func (r *GaugeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = patcher.ForManager(mgr)
	_ = time.Now
	return ctrl.NewControllerManagedBy(mgr).For(&plainv1.Gauge{}).Complete(r)
}
`)
	if proj, err = readProject(dir); err != nil {
		t.Fatal(err)
	}
	if _, content, note, err = starterTest(dir, proj); err != nil || strings.Contains(note, "SetupWithManager") || strings.Contains(content, "starterSetUp") {
		t.Errorf("a SetupWithManager that sets only Client: note %q, err %v, set up in the test: %v", note, err, strings.Contains(content, "starterSetUp"))
	}
}
