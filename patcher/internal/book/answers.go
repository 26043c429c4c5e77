package book

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// Answers are the resourceVersions the server answered to this process's
// writes, per object (UID), whatever client or field manager made them: a
// version in it was made by the request it answered. Settling uses it as
// exact evidence that the first version after a base is another write of
// this process, not the unanswered write it settles (two writers sharing
// a field owner through two clients stamp one entry, and managedFields
// cannot tell them apart). It keeps the last perObject versions of at most
// two generations of size objects; safe for concurrent use.
type Answers struct {
	mu       sync.Mutex
	size     int
	cur, old map[types.UID][]string
}

// perObject bounds the versions kept per object: settling asks about the
// first version after a recent base.
const perObject = 16

// NewAnswers returns an empty record of answers for size objects.
func NewAnswers(size int) *Answers {
	return &Answers{size: size, cur: map[types.UID][]string{}}
}

// Add records that a write of this process was answered with rv.
func (a *Answers) Add(uid types.UID, rv string) {
	if a == nil || uid == "" || rv == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	l, ok := a.cur[uid]
	if !ok {
		l = a.old[uid]
		delete(a.old, uid)
		if len(a.cur) >= a.size {
			a.old, a.cur = a.cur, make(map[types.UID][]string, a.size)
		}
	}
	l = append(l, rv)
	if len(l) > perObject {
		l = l[len(l)-perObject:]
	}
	a.cur[uid] = l
}

// Has reports whether a write of this process was answered with rv.
func (a *Answers) Has(uid types.UID, rv string) bool {
	if a == nil || rv == "" {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range []map[types.UID][]string{a.cur, a.old} {
		for _, v := range m[uid] {
			if v == rv {
				return true
			}
		}
	}
	return false
}
