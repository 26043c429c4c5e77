package explore

import (
	"math/rand/v2"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/seeded"
)

// Source is a seeded source of names and UUIDs for a reconciler under the
// explorer. Every schedule starts it from the same seed, and a restart
// after a crash goes on with the same source, so the same choices make the
// same names: replays match and states repeat (so they are pruned). Hand
// it to the reconciler where it would draw random names or UUIDs:
//
//	New: func(c client.Client, api client.Reader) reconcile.Reconciler {
//		src := explore.SourceOf(c)
//		return &Reconciler{Client: c, NewName: src.Name, NewUID: src.UID}
//	},
//
// Its methods: Name(prefix string) string returns prefix and five random
// characters, as generateName makes; UID() types.UID a random (version 4)
// UUID; Read(p []byte) (int, error) fills p with random bytes and never
// fails, which makes it an io.Reader for uuid.NewRandomFromReader and the
// like. It is safe for concurrent use.
type Source = seeded.Source

// newSource starts a source from seed.
func newSource(seed uint64) *Source { return seeded.New(seed) }

// SourceOf returns the schedule's Source for c, a client New received. For
// any other client it returns a source seeded at random, so that code
// calling it outside the explorer still gets random names.
func SourceOf(c client.Client) *Source {
	if src := intercept.SourceOf(c); src != nil {
		return src
	}
	return newSource(rand.Uint64())
}
