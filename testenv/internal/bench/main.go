// Command bench measures, on the in-process API server, what statuspatch
// changes at run time, side by side with the alternatives:
//
//   - convergence under contention: K writers each make M status updates to
//     one object, with the patcher's Retry, with the handwritten optimistic
//     patch whose 409 is requeued by controller-runtime's default controller
//     rate limiter, and with a blind MergeFrom;
//   - requests per steady-state no-op reconcile: the patcher against a
//     handwritten unconditional patch, with resourceVersion bumps and watch
//     events.
//
// Run it with `make bench` or `cd testenv && go run ./internal/bench`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
	v1 "github.com/statuspatch/statuspatch/testenv/internal/testapi/v1"
)

func main() {
	writers := flag.String("writers", "2,8,32", "comma-separated writer counts K")
	updates := flag.Int("updates", 10, "status updates per writer M")
	reconciles := flag.Int("reconciles", 50, "steady-state reconciles per variant (0: skip)")
	variants := flag.String("variants", "retry,requeue,blind", "convergence variants to run")
	repeat := flag.Int("repeat", 1, "repetitions of the convergence runs; the ratio printed is their median")
	flag.Parse()
	log.SetLogger(logr.Discard())
	vs := map[string]bool{}
	for _, v := range strings.Split(*variants, ",") {
		vs[strings.TrimSpace(v)] = true
	}
	if err := run(*writers, *updates, *reconciles, *repeat, vs); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(writerList string, updates, reconciles, repeat int, variants map[string]bool) error {
	ctx := context.Background()
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		return err
	}
	env, stop, err := testenv.StartServer(ctx, testenv.WithCRDs(testapi.CRDs()...), testenv.WithScheme(s))
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("# API server (%s) ready in %s\n\n", env.Backend, env.StartupTime.Round(time.Millisecond))

	var ks []int
	for _, f := range strings.Split(writerList, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return fmt.Errorf("bad writer count %q", f)
		}
		ks = append(ks, k)
	}
	if err := convergence(ctx, env, ks, updates, repeat, variants); err != nil {
		return err
	}
	if reconciles == 0 {
		return nil
	}
	fmt.Println()
	return steadyState(ctx, env, reconciles)
}
