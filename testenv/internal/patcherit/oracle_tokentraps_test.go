package patcherit_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 81's traps, drawn by the oracle: the CRD in the cluster prunes the
// write token (its storage version lacks status.writeToken, or no version
// has it: the release before the controller's), under issue 71's traps
// (removal-only decisions of two writers from one base: a condition and a
// map key), each writer's role drawn with and without the permission to
// read CRDs (a 403: no schema). The CRD that keeps the token runs too,
// with the same roles: there the token must stay exact with a watcher.

var oracleTokenTrapSeeds = flag.Int("oracle.tokentrapseeds", 8, "TestOracleTokenTraps: run seeds 1 to N in each CRD")

// tokenTrap is one CRD of the token traps: its edit of the oracle's, and
// whether the version the patcher writes keeps the token (server-side
// apply refuses a field the schema lacks: apply-mode writers write
// without the token there, as a controller whose writes all fail would
// be fixed first).
type tokenTrap struct {
	name        string
	edit        func(crd *apiextensionsv1.CustomResourceDefinition)
	servedKeeps bool
	// found are the seeds that failed (seeds 1-60 on main at 26aa819:
	// a Conflict for a stored write, Retry storing twice, nil for a
	// removal not stored; 63 on this branch: a server-side apply's 500
	// for a field only the storage version lacks, taken for a lost
	// answer). They always run.
	found []uint64
}

var tokenTraps = []tokenTrap{
	{"the CRD keeps the token", func(*apiextensionsv1.CustomResourceDefinition) {}, true, nil},
	{"its storage version lacks the token", func(crd *apiextensionsv1.CustomResourceDefinition) {
		for i := range crd.Spec.Versions {
			if crd.Spec.Versions[i].Storage {
				withoutWriteToken(&crd.Spec.Versions[i])
			}
		}
	}, true, []uint64{2, 9, 27, 45, 49, 53, 63}},
	{"no version has the token", tokenlessCRD, false, []uint64{59}},
}

// TestOracleTokenTraps runs newTokenTrapSchedule's seeds 1 to
// -oracle.tokentrapseeds (8) in each CRD of tokenTraps, and the seeds
// found failing, and logs the verdicts.
//
//	cd testenv && go test ./internal/patcherit -run 'TestOracleTokenTraps$' -v -args -oracle.tokentrapseeds=400
func TestOracleTokenTraps(t *testing.T) {
	for _, trap := range tokenTraps {
		t.Run(trap.name, func(t *testing.T) {
			e := widgetServer(t, "the oracle's ("+trap.name+")", func(crd *apiextensionsv1.CustomResourceDefinition) {
				oracleCRD(crd)
				trap.edit(crd)
			})
			stats := &oracleStats{}
			var seeds []uint64
			for seed := range uint64(*oracleTokenTrapSeeds) {
				seeds = append(seeds, seed+1)
			}
			for _, seed := range trap.found {
				if !slices.Contains(seeds, seed) {
					seeds = append(seeds, seed)
				}
			}
			for _, seed := range seeds {
				t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
					runChecked(t, e, newTokenTrapSchedule(seed, trap.servedKeeps), stats)
				})
			}
			t.Logf("%s: verdicts by write mode and client:\n%s", trap.name, stats.table())
		})
	}
}

// newTokenTrapSchedule is newTrapSchedule(seed) with each writer's role
// drawn (CRDs readable or a 403) from a stream of its own; where the
// version written lacks the token, apply-mode writers write without it.
func newTokenTrapSchedule(seed uint64, servedKeeps bool) oracleSchedule {
	s := newTrapSchedule(seed)
	r := rand.New(rand.NewPCG(seed, 0x81))
	for i := range s.writers {
		w := &s.writers[i]
		w.noCRDs = r.IntN(2) == 0
		if !servedKeeps && w.mode != patcher.WriteMergePatch {
			w.token = false
		}
	}
	return s
}

// FuzzOracleTokenTraps is TestOracleTokenTraps on random seeds: (trap,
// seed) → schedule, in each CRD of tokenTraps. make fuzz runs it
// (FUZZ_SERVER not 0):
//
//	cd testenv && go test ./internal/patcherit -run '^$' -fuzz '^FuzzOracleTokenTraps$' -fuzztime 120x -parallel 1
func FuzzOracleTokenTraps(f *testing.F) {
	envs := make([]*testenv.Env, len(tokenTraps))
	for i, trap := range tokenTraps {
		f.Add(uint8(i), uint64(i+1))
		envs[i] = widgetServer(f, "the oracle's ("+trap.name+")", func(crd *apiextensionsv1.CustomResourceDefinition) {
			oracleCRD(crd)
			trap.edit(crd)
		})
	}
	f.Fuzz(func(t *testing.T, trap uint8, seed uint64) {
		i := int(trap) % len(tokenTraps)
		t.Logf("trap %q, seed %d (TestOracleTokenTraps keeps a failing one in tokenTraps[%d].found)", tokenTraps[i].name, seed, i)
		runChecked(t, envs[i], newTokenTrapSchedule(seed, tokenTraps[i].servedKeeps), nil)
	})
}
