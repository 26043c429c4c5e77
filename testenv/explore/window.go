package explore

import "fmt"

// Stale windows. An informer that lags does so for a while: every read
// through it in that time sees the objects of its kind as they were at one
// point, not a different old version each time. So the explorer's unit of
// staleness is a window, not a read (Options.StaleReads bounds the windows
// of a schedule). A window opens at a stale cached read, through one
// informer of the running controller's process (a kind and a
// representation: informer.go), at the point of the schedule that read saw
// (the newest point at which the object was at the version read, for a
// Get; the newest that gives the list read, for a List). From then to the
// end of the reconcile, each cached read through that informer is first
// served at the window's point, each object at its version then (or at
// what the informer already served, if newer), at no cost: a retry loop
// whose every Get is stale costs one unit. The explorer may also close the
// window at a read (the informer caught up: that read, and the next ones,
// choose their versions as outside a window) or open another, newer one
// there (one more unit). The deepening's choices take the window's point
// first, as they take the stalest version first; the fault phase's one
// window stays open at each later read with probability 1/2 (faults.go).
//
// A window lasts at most one reconcile: at the end of the step it closes,
// so the state hash before a chosen step holds no open window, and the
// windows used (cacheModel.stale) are all it needs of them. A seed records
// the lag of every cached read, as before windows; a replay rebuilds the
// same windows from them (noteWindow), so old seeds replay as they did.

// Window is a stale window of a schedule: from the read that opened it to
// the one that closed it (or the end of its step), every cached read the
// controller made of Kind through one informer saw the kind as it was at
// one point of the schedule.
type Window struct {
	// Controller is the reconciler whose reads it served.
	Controller, Kind string
	// Informer is the informer's representation ("", "unstructured",
	// "metadata-only"), as Read.Informer.
	Informer string `json:",omitempty"`
	// FromStep and ToStep are the steps it spans (one reconcile today:
	// equal).
	FromStep, ToStep int
	// Opened names the read that opened it; Reads counts the reads it
	// served, that one included.
	Opened string
	Reads  int
}

func (w Window) String() string {
	inf := "typed"
	if w.Informer != "" {
		inf = w.Informer
	}
	return fmt.Sprintf("%s's %s informer of %s stale from step %d to step %d, %s, at the point of %s",
		w.Controller, inf, w.Kind, w.FromStep, w.ToStep, plural(w.Reads, "read"), w.Opened)
}

// openWindow is a window open in the running step.
type openWindow struct {
	// seq is its point (history.seqs); index its Step.Windows index.
	seq, index int
}

// windowLag is the lag at which the step's open window of inf serves an
// object of history h whose cached reads may see no version older than
// low: its version at the window's point, or low. -1: no window is open.
func (cm *cacheModel) windowLag(inf informerKey, h *history, low int) int {
	w := cm.openWindow(inf)
	if w == nil {
		return -1
	}
	return h.newest() - max(versionAt(h, w.seq), low)
}

// windowListLag is the lag, among points (newest first), at which the
// step's open window of inf serves a List: the newest point no newer than
// the window's, or the oldest there is. -1: no window is open.
func (cm *cacheModel) windowListLag(inf informerKey, points []listPoint) int {
	w := cm.openWindow(inf)
	if w == nil || len(points) == 0 {
		return -1
	}
	for i, p := range points {
		if p.seq <= w.seq {
			return i
		}
	}
	return len(points) - 1
}

// windowSeq is the point of the step's open window of inf, or -1.
func (cm *cacheModel) windowSeq(inf informerKey) int {
	if w := cm.openWindow(inf); w != nil {
		return w.seq
	}
	return -1
}

func (cm *cacheModel) openWindow(inf informerKey) *openWindow {
	if s := cm.trace.cur; s != nil {
		return s.windows[inf]
	}
	return nil
}

// inWindow chooses the lag of a cached read through an informer whose
// window serves it at lag stay (> 0), of n lags: stay first (the window
// stays open, at no cost), then each newer stale lag within Versions (a
// newer window, one more unit), then 0 (the window closes).
func (cm *cacheModel) inWindow(n, stay int) int {
	ch := cm.trace.ch
	if f := ch.faults; f != nil {
		return f.inWindow(ch, stay)
	}
	opts := []int{stay}
	newer := min(stay-1, n-1)
	switch {
	case newer < 1:
	case cm.stale >= cm.ex.o.StaleReads:
		cm.trace.noteCut(boundStaleReads) // a newer window was there to open
	default:
		if newer > cm.ex.o.Versions-1 {
			cm.trace.noteCut(boundVersions)
			newer = cm.ex.o.Versions - 1
		}
		for l := newer; l >= 1; l-- {
			opts = append(opts, l)
		}
	}
	opts = append(opts, 0)
	return opts[ch.choose(len(opts))]
}

// noteWindow records a cached read through informer inf at lag in the
// step's windows, in a search and in a replay alike: with a window of inf
// open, a read at the window's lag stay is one of its reads and any other
// closes it; a stale read that no window serves opens one at point seq
// (one unit of Options.StaleReads). what names the read, for the window
// it opens. It returns the read's window (Read.Window), or 0.
func (cm *cacheModel) noteWindow(inf informerKey, lag, stay, seq int, what func() string) int {
	s := cm.trace.cur
	if s == nil {
		return 0
	}
	if w := s.windows[inf]; w != nil {
		if lag == stay {
			s.step.Windows[w.index].Reads++
			return w.index + 1
		}
		delete(s.windows, inf)
	}
	if lag == 0 {
		return 0
	}
	cm.stale++
	if s.windows == nil {
		s.windows = map[informerKey]*openWindow{}
	}
	w := &openWindow{seq: seq, index: len(s.step.Windows)}
	s.windows[inf] = w
	s.step.Windows = append(s.step.Windows, Window{Controller: s.step.Reconciler, Kind: inf.gvk.Kind, Informer: inf.rep.String(),
		FromStep: s.step.Index, ToStep: s.step.Index, Opened: what(), Reads: 1})
	return w.index + 1
}

// lastAt is the newest point of the book at which h was at version v.
func (b *versions) lastAt(h *history, v int) int {
	if v+1 < len(h.seqs) {
		return h.seqs[v+1] - 1
	}
	return b.seq
}
