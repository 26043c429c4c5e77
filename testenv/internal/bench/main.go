// Command bench measures, on the in-process API server, what statuspatch
// changes at run time, side by side with the alternatives:
//
//   - convergence under contention: K writers each make M status updates to
//     one object, with the patcher's Retry, with the handwritten optimistic
//     patch whose 409 is requeued by controller-runtime's default controller
//     rate limiter, and with a blind MergeFrom;
//   - with -lag, the same through caches: each writer reads its own informer
//     cache (its watch events delayed by each lag in turn) and has an API
//     reader, as a manager does; statuspatch (ForManager), requeue-on-conflict,
//     a cluster-api-style helper (capi.go) and blind MergeFrom, on a shared
//     list and on co-writers' owned conditions;
//   - requests per steady-state no-op reconcile: the patcher against a
//     handwritten unconditional patch, with resourceVersion bumps and watch
//     events;
//   - with -cowriters N, two controllers owning disjoint status fields and
//     one condition each of the same N objects (cowriters.go): merge mode,
//     apply mode with and without the lock, and a blind MergeFrom.
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

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

func main() {
	writers := flag.String("writers", "2,8,32", "comma-separated writer counts K")
	updates := flag.Int("updates", 10, "status updates per writer M")
	reconciles := flag.Int("reconciles", 50, "steady-state reconciles per variant (0: skip)")
	variants := flag.String("variants", "retry,requeue,capi,blind", "convergence variants to run (capi: with -lag only)")
	lags := flag.String("lag", "", "comma-separated cache lags, e.g. 0,50ms: writers read through informer caches lagging by each (empty: writers read the server directly)")
	bound := flag.Duration("bound", time.Minute, "with -lag: how long one run may take; updates not written by then are reported as not converged")
	cowriters := flag.Int("cowriters", 0, "objects for the co-writers run (two controllers, disjoint status fields); -updates per controller per object. Runs only that")
	repeat := flag.Int("repeat", 1, "repetitions of the convergence runs; the ratio printed is their median")
	flag.Parse()
	log.SetLogger(logr.Discard())
	vs := map[string]bool{}
	for _, v := range strings.Split(*variants, ",") {
		vs[strings.TrimSpace(v)] = true
	}
	var lagList []time.Duration
	if *lags != "" && *bound <= 0 {
		fmt.Fprintf(os.Stderr, "bench: -bound: %s is not a positive duration\n", *bound)
		os.Exit(2)
	}
	if *lags != "" {
		for _, f := range strings.Split(*lags, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(f))
			if err != nil || d < 0 {
				fmt.Fprintf(os.Stderr, "bench: -lag: bad duration %q\n", f)
				os.Exit(2)
			}
			lagList = append(lagList, d)
		}
	}
	if *cowriters < 0 {
		fmt.Fprintf(os.Stderr, "bench: -cowriters: %d objects\n", *cowriters)
		os.Exit(2)
	}
	if err := run(*writers, *updates, *reconciles, *repeat, *cowriters, vs, lagList, *bound); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(writerList string, updates, reconciles, repeat, cowriters int, variants map[string]bool, lags []time.Duration, bound time.Duration) error {
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
	if cowriters > 0 {
		return coWriters(ctx, env, cowriters, updates, repeat)
	}

	var ks []int
	for _, f := range strings.Split(writerList, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return fmt.Errorf("bad writer count %q", f)
		}
		ks = append(ks, k)
	}
	if len(lags) > 0 {
		if err := cachedConvergence(ctx, env, ks, updates, lags, repeat, bound, variants); err != nil {
			return err
		}
	} else if err := convergence(ctx, env, ks, updates, repeat, variants); err != nil {
		return err
	}
	if reconciles == 0 {
		return nil
	}
	fmt.Println()
	return steadyState(ctx, env, reconciles)
}
