// Package seeded is the explorer's seeded source of names and UUIDs for
// a reconciler under it (explore.Source, an alias of Source): the same
// seed makes the same names, so that replays match and states repeat.
// It holds the source alone, not how a schedule seeds it or hands it to
// a reconciler (the explorer's client does).
package seeded

import (
	"math/rand/v2"
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// Source is a seeded source of names and UUIDs (explore.Source). It is
// safe for concurrent use. Its Read makes it an io.Reader for
// uuid.NewRandomFromReader and the like.
type Source struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// New starts a source from seed.
func New(seed uint64) *Source {
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
