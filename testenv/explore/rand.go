package explore

import (
	"math/rand/v2"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
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
// It is safe for concurrent use. Its Read makes it an io.Reader for
// uuid.NewRandomFromReader and the like.
type Source struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// newSource starts a source from seed.
func newSource(seed uint64) *Source {
	return &Source{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789" // as generateName's

// Name returns prefix and five random characters, as generateName makes.
func (s *Source) Name(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := []byte(prefix)
	for range 5 {
		b = append(b, nameAlphabet[s.rng.IntN(len(nameAlphabet))])
	}
	return string(b)
}

// UID returns a random (version 4) UUID.
func (s *Source) UID() types.UID {
	var b [16]byte
	_, _ = s.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&0xf])
	}
	return types.UID(out)
}

// Read fills p with random bytes. It never fails.
func (s *Source) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range p {
		p[i] = byte(s.rng.Uint32())
	}
	return len(p), nil
}

// SourceOf returns the schedule's Source for c, a client New received. For
// any other client it returns a source seeded at random, so that code
// calling it outside the explorer still gets random names.
func SourceOf(c client.Client) *Source {
	if h, ok := c.(interface{ source() *Source }); ok && h.source() != nil {
		return h.source()
	}
	return newSource(rand.Uint64())
}

func (c *pointerClient) source() *Source    { return c.src }
func (c *pointerWithWatch) source() *Source { return c.src }
