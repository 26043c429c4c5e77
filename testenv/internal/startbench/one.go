package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// runOne starts backend, writes the first object and its status, and stops.
func runOne(backend, assets, cpuprofile string) (result, error) {
	r := result{Backend: backend, MainUnixNano: mainEntry.UnixNano()}
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			return r, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return r, err
		}
		defer pprof.StopCPUProfile()
	}
	log.SetLogger(logr.Discard())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	last := mainEntry
	mark := func(name string) {
		now := time.Now()
		r.Phases = append(r.Phases, phase{name, now.Sub(last)})
		last = now
	}
	scheme := runtime.NewScheme()
	if err := v1.AddToScheme(scheme); err != nil {
		return r, err
	}
	var c client.Client
	var stop func()
	switch backend {
	case "embedded", "fullapi":
		opts := []testenv.Option{testenv.WithCRDs(testapi.CRDs()...), testenv.WithScheme(scheme), testenv.WithBackend(testenv.BackendEmbedded)}
		if backend == "fullapi" {
			opts = append(opts, testenv.WithFullAPI(), testenv.WithBinaryAssetsDirectory(assets))
		}
		env, stopEnv, err := testenv.StartServer(ctx, opts...)
		if err != nil {
			return r, err
		}
		stop, c = stopEnv, env.Client
		mark("server and CRDs (testenv.StartServer)")
	case "envtest":
		env := &envtest.Environment{
			CRDs:                  testapi.CRDs(),
			Scheme:                scheme,
			BinaryAssetsDirectory: assets,
			ErrorIfCRDPathMissing: true,
			UseExistingCluster:    ptr.To(false),
		}
		cfg, err := env.Start()
		if err != nil {
			_ = env.Stop()
			return r, err
		}
		stop = func() { _ = env.Stop() }
		mark("server and CRDs (envtest.Environment.Start)")
		if c, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
			stop()
			return r, err
		}
		mark("client (client.New, discovery)")
	default:
		return r, fmt.Errorf("unknown backend")
	}
	defer stop()
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "first", Namespace: "default"}, Spec: v1.WidgetSpec{Size: 1}}
	if err := c.Create(ctx, w); err != nil {
		return r, fmt.Errorf("create Widget default/first: %w", err)
	}
	mark("create")
	w.Status.Phase = "Ready"
	if err := c.Status().Update(ctx, w); err != nil {
		return r, fmt.Errorf("status write of Widget default/first: %w", err)
	}
	mark("status write")
	cpu, err := cpuTime()
	if err != nil {
		return r, err
	}
	r.CPU = cpu
	return r, nil
}
