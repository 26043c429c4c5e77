package testenv_test

import (
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"
)

// fullAPIOrSkip skips t where there is no kube-apiserver binary for the
// full-API backend; the reason names the command that builds one. CI
// builds one (make test-assets) and sets STATUSPATCH_REQUIRE_FULLAPI=1,
// which makes a missing binary a failure instead.
func fullAPIOrSkip(t *testing.T) {
	t.Helper()
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 (CI, after make test-assets) and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping the full-API backend: %v", err)
	}
}

func fullScheme(t *testing.T) *kruntime.Scheme {
	s := testScheme(t)
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// One kube-apiserver for every check: it starts in a few seconds.
func TestFullAPI(t *testing.T) {
	fullAPIOrSkip(t)
	env := testenv.Start(t, testenv.WithFullAPI(),
		testenv.WithCRDDirectory(testapiCRDs), testenv.WithScheme(fullScheme(t)))
	if env.Backend != testenv.BackendFullAPI || !strings.Contains(env.BackendReason, "kube-apiserver from ") {
		t.Fatalf("Backend %v, BackendReason %q", env.Backend, env.BackendReason)
	}
	// The CRDs, as on the embedded backend (namespaces need not exist).
	t.Run("crds", func(t *testing.T) {
		testFirstCreateIsFast(t, env)
		testOptimisticLock(t, env)
		testStatusSubresource(t, env)
		testClusterScoped(t, env)
		testMapper(t, env)
		testManagerWatch(t, env)
	})
	t.Run("create-delay-skipped", func(t *testing.T) { testCreateDelaySkipped(t, env) })
	t.Run("deployment", func(t *testing.T) { testDeployment(t, env) })
	t.Run("statefulset", func(t *testing.T) { testStatefulSet(t, env) })
	t.Run("service", func(t *testing.T) { testService(t, env) })
	t.Run("configmap-secret", func(t *testing.T) { testConfigMapSecret(t, env) })
	t.Run("mapper", func(t *testing.T) {
		for _, gk := range []schema.GroupKind{
			{Group: "apps", Kind: "Deployment"}, {Group: "apps", Kind: "StatefulSet"},
			{Kind: "Service"}, {Kind: "ConfigMap"}, {Kind: "Secret"}, {Kind: "Namespace"},
		} {
			if _, err := env.Mapper.RESTMapping(gk); err != nil {
				t.Errorf("env.Mapper has no %s: %v", gk, err)
			}
		}
	})
	t.Run("namespaces", func(t *testing.T) {
		// kube-apiserver made "default"; NamespaceLifecycle is off, so any
		// namespace name works without creating it, as on the embedded backend.
		if err := env.Client.Get(ctxFor(t), client.ObjectKey{Name: "default"}, &corev1.Namespace{}); err != nil {
			t.Fatal(err)
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "never-created", Name: "c"}}
		if err := env.Client.Create(ctxFor(t), cm); err != nil {
			t.Fatalf("create in a namespace that does not exist: %v", err)
		}
	})
	t.Run("identity", func(t *testing.T) {
		// The clients are testenv-admin in system:masters by a bearer
		// token (--token-auth-file), no client certificate.
		if env.Config.BearerToken == "" || len(env.Config.CertData) != 0 || len(env.Config.KeyData) != 0 {
			t.Fatalf("env.Config: token set %v, client certificate %d bytes, key %d bytes",
				env.Config.BearerToken != "", len(env.Config.CertData), len(env.Config.KeyData))
		}
		review := &authenticationv1.SelfSubjectReview{}
		if err := env.Client.Create(ctxFor(t), review); err != nil {
			t.Fatal(err)
		}
		if u := review.Status.UserInfo; u.Username != "testenv-admin" || !slices.Contains(u.Groups, "system:masters") {
			t.Fatalf("the server sees %q in %v, want testenv-admin in system:masters", u.Username, u.Groups)
		}
	})
}

// statusConflict writes obj's status twice from the same base under the
// optimistic lock: the first goes through, the second (its base now
// stale) gets a 409 Conflict.
func statusConflict(t *testing.T, env *testenv.Env, obj client.Object, mutate func(client.Object)) {
	t.Helper()
	ctx := ctxFor(t)
	base := obj.DeepCopyObject().(client.Object)
	first := obj.DeepCopyObject().(client.Object)
	mutate(first)
	if err := env.Client.Status().Patch(ctx, first, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		t.Fatalf("status patch from a fresh base: %v", err)
	}
	if first.GetResourceVersion() == base.GetResourceVersion() {
		t.Fatal("status patch did not move resourceVersion")
	}
	second := base.DeepCopyObject().(client.Object)
	mutate(second)
	err := env.Client.Status().Patch(ctx, second, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
	if !apierrors.IsConflict(err) {
		t.Fatalf("status patch from a stale base: err = %v, want a 409 Conflict", err)
	}
}

func labels() map[string]string { return map[string]string{"app": "web"} }

func podTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels()},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
	}
}

func testDeployment(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "apps", Name: "web"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: labels()},
			Template: podTemplate()},
	}
	if err := env.Client.Create(ctx, d); err != nil {
		t.Fatal(err)
	}
	// Defaulting is kube-apiserver's own.
	if d.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || ptr.Deref(d.Spec.Replicas, 0) != 1 ||
		d.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Errorf("Deployment not defaulted: strategy %q, replicas %v, restartPolicy %q",
			d.Spec.Strategy.Type, d.Spec.Replicas, d.Spec.Template.Spec.RestartPolicy)
	}
	statusConflict(t, env, d, func(o client.Object) { o.(*appsv1.Deployment).Status.ObservedGeneration = d.Generation })

	// The status subresource ignores spec; the main resource ignores
	// status and bumps generation.
	got := &appsv1.Deployment{}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(d), got); err != nil {
		t.Fatal(err)
	}
	gen := got.Generation
	before := got.DeepCopy()
	got.Spec.Replicas = ptr.To[int32](5)
	got.Status.Replicas = 7
	if err := env.Client.Status().Patch(ctx, got, client.MergeFrom(before)); err != nil {
		t.Fatal(err)
	}
	if ptr.Deref(got.Spec.Replicas, 0) != 1 || got.Status.Replicas != 7 || got.Generation != gen {
		t.Errorf("status write: replicas %v, status.replicas %d, generation %d (was %d)", got.Spec.Replicas, got.Status.Replicas, got.Generation, gen)
	}
	before = got.DeepCopy()
	got.Spec.Replicas = ptr.To[int32](3)
	got.Status.Replicas = 0
	if err := env.Client.Patch(ctx, got, client.MergeFrom(before)); err != nil {
		t.Fatal(err)
	}
	if ptr.Deref(got.Spec.Replicas, 0) != 3 || got.Status.Replicas != 7 || got.Generation != gen+1 {
		t.Errorf("spec write: replicas %v, status.replicas %d, generation %d (was %d)", got.Spec.Replicas, got.Status.Replicas, got.Generation, gen)
	}
}

func testStatefulSet(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	s := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "apps", Name: "db"},
		Spec: appsv1.StatefulSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels()},
			ServiceName: "db", Template: podTemplate()},
	}
	if err := env.Client.Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	if s.Spec.PodManagementPolicy != appsv1.OrderedReadyPodManagement || s.Spec.UpdateStrategy.Type != appsv1.RollingUpdateStatefulSetStrategyType ||
		ptr.Deref(s.Spec.RevisionHistoryLimit, 0) != 10 || s.UID == "" {
		t.Errorf("StatefulSet not defaulted: podManagementPolicy %q, updateStrategy %q, revisionHistoryLimit %v, uid %q",
			s.Spec.PodManagementPolicy, s.Spec.UpdateStrategy.Type, s.Spec.RevisionHistoryLimit, s.UID)
	}
	statusConflict(t, env, s, func(o client.Object) { o.(*appsv1.StatefulSet).Status.ObservedGeneration = s.Generation })

	// An immutable field is refused, as the real validation does.
	got := &appsv1.StatefulSet{}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(s), got); err != nil {
		t.Fatal(err)
	}
	got.Spec.ServiceName = "other"
	if err := env.Client.Update(ctx, got); !apierrors.IsInvalid(err) {
		t.Errorf("changing spec.serviceName: err = %v, want Invalid", err)
	}
	// A delete with a stale UID precondition is refused: the object of that
	// name is another one.
	stale := types.UID("not-" + string(s.UID))
	if err := env.Client.Delete(ctx, got, client.Preconditions{UID: &stale}); !apierrors.IsConflict(err) {
		t.Errorf("delete with a stale UID precondition: err = %v, want a 409 Conflict", err)
	}
}

func testService(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "apps", Name: "web"},
		Spec:       corev1.ServiceSpec{Selector: labels(), Ports: []corev1.ServicePort{{Port: 80}}},
	}
	if err := env.Client.Create(ctx, svc); err != nil {
		t.Fatal(err)
	}
	// The clusterIP comes from kube-apiserver's allocator, in envtest's
	// --service-cluster-ip-range.
	ip, err := netip.ParseAddr(svc.Spec.ClusterIP)
	if err != nil || !netip.MustParsePrefix("10.0.0.0/24").Contains(ip) {
		t.Errorf("clusterIP %q not allocated from 10.0.0.0/24 (%v)", svc.Spec.ClusterIP, err)
	}
	if svc.Spec.Type != corev1.ServiceTypeClusterIP || svc.Spec.Ports[0].Protocol != corev1.ProtocolTCP || svc.Spec.Ports[0].TargetPort.IntValue() != 80 {
		t.Errorf("Service not defaulted: type %q, port %+v", svc.Spec.Type, svc.Spec.Ports[0])
	}
	statusConflict(t, env, svc, func(o client.Object) {
		o.(*corev1.Service).Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue,
			Reason: "Test", LastTransitionTime: metav1.Now()}}
	})
}

func testConfigMapSecret(t *testing.T, env *testenv.Env) {
	ctx := ctxFor(t)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "apps", Name: "conf"}, Data: map[string]string{"a": "1"}}
	if err := env.Client.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	stale := cm.DeepCopy()
	cm.Data["a"] = "2"
	if err := env.Client.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	stale.Data["a"] = "3"
	if err := env.Client.Update(ctx, stale); !apierrors.IsConflict(err) {
		t.Errorf("update from a stale resourceVersion: err = %v, want a 409 Conflict", err)
	}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "apps", Name: "creds"}, StringData: map[string]string{"user": "admin"}}
	if err := env.Client.Create(ctx, sec); err != nil {
		t.Fatal(err)
	}
	// stringData is merged into data and the type defaulted by the server.
	if string(sec.Data["user"]) != "admin" || len(sec.StringData) != 0 || sec.Type != corev1.SecretTypeOpaque {
		t.Errorf("Secret: data %q, stringData %v, type %q", sec.Data, sec.StringData, sec.Type)
	}
}

// Without a binary the full-API backend fails before anything starts, naming
// where it looked and the command that builds one.
func TestFullAPIWithoutBinary(t *testing.T) {
	t.Run("directory given", func(t *testing.T) {
		dir := t.TempDir()
		_, stop, err := testenv.StartServer(t.Context(), testenv.WithFullAPI(), testenv.WithBinaryAssetsDirectory(dir))
		if err == nil {
			stop()
			t.Fatal("StartServer succeeded without kube-apiserver")
		}
		for _, want := range []string{`WithBinaryAssetsDirectory "` + dir + `"`, "no executable kube-apiserver", "cmd/testenv-assets use -p path"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	})
	t.Run("nothing cached", func(t *testing.T) {
		t.Setenv(testenv.EnvAssets, "")
		cache := t.TempDir()
		t.Setenv("XDG_CACHE_HOME", cache)
		t.Setenv("HOME", cache) // os.UserCacheDir on macOS
		// A build for another platform and a folder without the binary
		// do not count.
		for _, dir := range []string{"1.35.4-plan9-mips", "1.36.0-" + goosArch()} {
			if err := os.MkdirAll(filepath.Join(cache, "statuspatch", "testenv-assets", dir), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err := testenv.KubeAPIServerPath()
		if err == nil {
			t.Fatal("KubeAPIServerPath found a binary in an empty cache")
		}
		for _, want := range []string{filepath.Join(cache, "statuspatch", "testenv-assets"), "KUBEBUILDER_ASSETS (not set)", "cmd/testenv-assets use -p path module`", "cmd/testenv-assets use -p path 1.35.x"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	})
}

func goosArch() string { return runtime.GOOS + "-" + runtime.GOARCH }

// A kube-apiserver that exits at start fails Start with its last output
// (here a fake one; a real one says which flag or port it refused).
func TestFullAPIServerExits(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\ncase \"$1\" in --help) exit 0;; esac\necho 'Error: invalid argument --etcd-servers: refused by the fake' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "kube-apiserver"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stop, err := testenv.StartServer(t.Context(), testenv.WithFullAPI(), testenv.WithBinaryAssetsDirectory(dir))
	if err == nil {
		stop()
		t.Fatal("StartServer succeeded with a kube-apiserver that exits")
	}
	for _, want := range []string{filepath.Join(dir, "kube-apiserver"), "refused by the fake"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	t.Log(err)
}
