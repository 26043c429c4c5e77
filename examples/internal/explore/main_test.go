package explore_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

var (
	ctx    = context.Background()
	shared *testenv.Env
	scheme = runtime.NewScheme()
)

// TestMain starts one API server (apiextensions-apiserver and etcd,
// in-process) with the example CRDs for every test of the package: the
// explorer's scenarios (it cleans up between schedules) and the
// controllers' tests, which keep apart by namespace and object names.
//
// The controllers' tests live here rather than in package controller, which
// does not import testenv: one test binary linking the API server and etcd
// instead of two (docs/benchmarks.md#cold-start).
func TestMain(m *testing.M) {
	ctrllog.SetLogger(zap.New(zap.WriteTo(io.Discard)))
	if err := demov1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	env, stop, err := testenv.StartServer(ctx, testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(scheme))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = env
	code := m.Run()
	if full.stop != nil {
		full.stop()
	}
	stop()
	os.Exit(code)
}
