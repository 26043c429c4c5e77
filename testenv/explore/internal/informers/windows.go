package informers

import (
	"strconv"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// A stale window is an informer that lags for a while: every cached read
// through it is first served at one point of the schedule, each object at
// its version then. What a window at a point serves is here; which
// windows are open, when one opens or closes, and the records of them
// are Cache's (stale.go).

// WindowLag is the lag at which a window at point seq serves a cached
// Get of an object of history h whose cached reads may see no version
// older than low (Model.Lowest): its version at seq, or low.
func WindowLag(h *book.History, seq, low int) int {
	return h.Newest() - max(book.VersionAt(h, seq), low)
}

// WindowListLag is the lag, among points (newest first, Model.Points), at
// which a window at point seq serves a cached List: the newest point no
// newer than seq, or the oldest there is. -1: there is no point.
func WindowListLag(points []Point, seq int) int {
	if len(points) == 0 {
		return -1
	}
	for i, p := range points {
		if p.Seq <= seq {
			return i
		}
	}
	return len(points) - 1
}

// ListSeq is the newest point that gives the list of points[lag] (points
// newest first, Model.Points): the point a window opened by a List served
// there is at.
func (m *Model) ListSeq(points []Point, lag int) int {
	if lag > 0 {
		return points[lag-1].Seq - 1
	}
	return m.Book.Seq()
}

// WindowPoint is an open window in the state hash: its informer and, for
// each object of its kind, how many of its versions are newer than the
// window's point, and the version there when it is older than the last
// Options.Versions, which the hash holds.
type WindowPoint struct {
	I     string
	After []int
	Old   []any `json:",omitempty"`
}

// WindowPoint is the window of inf at point seq in the state hash, for the
// objects among keys (norm normalises a version's content): what it will
// serve is then the same in two states with one hash.
func (m *Model) WindowPoint(inf Key, seq int, keys []book.Key, versions int, norm func(map[string]any) any) WindowPoint {
	st := WindowPoint{I: inf.GVK.String() + "|" + strconv.Itoa(int(inf.Rep))}
	for _, k := range keys {
		if k.GVK != inf.GVK {
			continue
		}
		h := m.Book.History(k)
		after := 0
		for _, s := range h.Seqs {
			if s > seq {
				after++
			}
		}
		st.After = append(st.After, after)
		if after >= versions {
			st.Old = append(st.Old, norm(h.Versions[book.VersionAt(h, seq)]))
		}
	}
	return st
}
