// Command demo starts an API server in-process (testenv: apiextensions-
// apiserver and etcd, no cluster, no download), runs the example operator
// under contention with the generated patchers, then the same load with the
// blind baselines, and prints what each lost. It exits non-zero if the
// patcher variant lost anything.
//
//	cd examples && go run ./cmd/demo [-rollouts 50] [-steps 3] [-managers 2] [-workers 4]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/demo"
)

func main() {
	cfg := demo.Config{}
	crds := flag.String("crds", "config/crd/bases", "directory with the CRDs (run from examples/)")
	flag.IntVar(&cfg.Rollouts, "rollouts", 50, "Rollouts to create, all in one Fleet")
	steps := flag.Int("steps", 3, "steps per Rollout plan")
	flag.IntVar(&cfg.Managers, "managers", 2, "managers running the controllers at once, each reconciling every object")
	flag.IntVar(&cfg.Workers, "workers", 4, "MaxConcurrentReconciles per controller")
	flag.DurationVar(&cfg.Timeout, "timeout", 40*time.Second, "bound on each variant's convergence")
	verbose := flag.Bool("v", false, "controller logs")
	flag.Parse()
	cfg.Steps = int32(*steps)
	if *verbose {
		ctrl.SetLogger(zap.New(zap.UseDevMode(true)))
	} else {
		ctrl.SetLogger(zap.New(zap.WriteTo(discard{})))
	}
	if err := run(cfg, *crds); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(cfg demo.Config, crds string) error {
	if _, err := os.Stat(crds); err != nil {
		return fmt.Errorf("CRDs: %w (run from examples/, or pass -crds)", err)
	}
	ctx := context.Background()
	s := runtime.NewScheme()
	if err := demov1.AddToScheme(s); err != nil {
		return err
	}
	env, stop, err := testenv.StartServer(ctx, testenv.WithCRDDirectory(crds), testenv.WithScheme(s))
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("API server (%s, because %s) ready in %s\n", env.Backend, env.BackendReason, env.StartupTime.Round(time.Millisecond))
	fmt.Printf("load: %d Rollouts x %d steps in one Fleet; %d managers x %d workers, every manager reconciling every object\n\n",
		cfg.Rollouts, cfg.Steps, cfg.Managers, cfg.Workers)

	var results []demo.Result
	for _, v := range demo.Variants {
		r, err := demo.Run(ctx, env, cfg, v)
		if err != nil {
			return err
		}
		results = append(results, r)
	}

	if err := demo.WriteTable(os.Stdout, cfg, results); err != nil {
		return err
	}
	fmt.Println("No-op reconciles run once per completed Rollout, reading from the cache; a blind one may also re-add a lost Fleet entry.")

	p := results[0]
	if p.Lost() > 0 || p.Completed != cfg.Rollouts {
		return fmt.Errorf("the patcher variant lost %d updates (%d plans overwritten, %d fleet entries) and completed %d of %d rollouts",
			p.Lost(), p.PlansOverwritten, p.MembersLost, p.Completed, cfg.Rollouts)
	}
	fmt.Println("patcher: nothing lost.")
	return nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
