package informers

import (
	"fmt"
	"sort"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// Stale windows. An informer that lags does so for a while: every read
// through it in that time sees the objects of its kind as they were at one
// point, not a different old version each time. So the explorer's unit of
// staleness is a window, not a read (Options.StaleReads bounds the windows
// of a schedule). A window opens at a stale cached read, through one
// informer of the running controller's process (a kind and a
// representation: Key), at the point of the schedule that read saw
// (the newest point at which the object was at the version read, for a
// Get; the newest that gives the list read, for a List). From then on,
// each cached read through that informer is first served at the window's
// point, each object at its version then (or at what the informer already
// served, if newer), at no cost: a retry loop whose every Get is stale
// costs one unit. The explorer may also close the window at a read (the
// informer caught up: that read, and the next ones, choose their versions
// as outside a window) or open another, newer one there (one more unit).
// The deepening's choices take the window's point first, as they take the
// stalest version first; the fault phase's one window stays open at each
// later read it serves stale with probability 1/2 (internal/faults).
//
// A window may span reconciles, as a lag of a few seconds does: it stays
// open at the end of its step, and the first read through its informer in
// a later step (a requeue of the same object, or another controller of
// the same process reading the same informer) chooses as any read in it
// does: stay (free), a newer window, or close. The informer is the
// process's, so a window ends with it: at a crash restart or a leader
// change (internal/run's crash.go), whose new process has new informers, and when the
// drain begins (its reads are fresh). Open windows are part of the state
// before a chosen step (WindowState, in the state hash). A seed records
// the lag of every cached read, as before windows; a replay rebuilds the
// same windows from them (NoteWindow), so old seeds read the same versions
// as they did (a read at the point of a window an earlier step opened is
// now that window's, not a new one).

// Window is a stale window of a schedule: from the read that opened it to
// the one that closed it (or the end of the last step it served), every
// cached read the controllers of one process made of Kind through one
// informer saw the kind as it was at one point of the schedule. Each step
// it served lists it.
type Window struct {
	// Controller is the reconciler whose read opened it.
	Controller, Kind string
	// Informer is the informer's representation ("", "unstructured",
	// "metadata-only"), as Read.Informer.
	Informer string `json:",omitempty"`
	// FromStep and ToStep are the steps it spans: the one whose read
	// opened it, the last one it served a read in (later, when it stayed
	// open across reconciles).
	FromStep, ToStep int
	// Opened names the read that opened it; Reads counts the reads it
	// served, that one included, in all its steps.
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

// openWindow is a window open in the running process.
type openWindow struct {
	// seq is its point (book.History.Seqs).
	seq int
	// listed are where the steps it served list it, the last one last.
	listed []windowRef
}

// windowRef is a window's place in a step's Windows: the step's Index and
// the window's index there.
type windowRef struct{ step, index int }

// WindowLag is the lag at which the open window of inf serves an
// object of history h whose cached reads may see no version older than
// low (the function WindowLag). -1: no window is open.
func (c *Cache) WindowLag(inf Key, h *book.History, low int) int {
	w := c.openWindow(inf)
	if w == nil {
		return -1
	}
	return WindowLag(h, w.seq, low)
}

// windowListLag is the lag, among points (newest first), at which the
// step's open window of inf serves a List (WindowListLag). -1: no
// window is open.
func (c *Cache) windowListLag(inf Key, points []Point) int {
	w := c.openWindow(inf)
	if w == nil {
		return -1
	}
	return WindowListLag(points, w.seq)
}

// windowSeq is the point of the open window of inf, or -1.
func (c *Cache) windowSeq(inf Key) int {
	if w := c.openWindow(inf); w != nil {
		return w.seq
	}
	return -1
}

func (c *Cache) openWindow(inf Key) *openWindow {
	i, _ := c.Trace.Step()
	if i == 0 || c.Trace.Drain() {
		return nil
	}
	w := c.windows[inf]
	if w != nil && !c.Setup.Spans() && w.listed[len(w.listed)-1].step != i {
		delete(c.windows, inf) // it ended with its reconcile
		return nil
	}
	return w
}

// inWindow chooses the lag of a cached read through an informer whose
// window serves it at lag stay (> 0), of n lags: stay first (the window
// stays open, at no cost), then each newer stale lag within Versions (a
// newer window, one more unit), then 0 (the window closes).
func (c *Cache) inWindow(n, stay int) int {
	if lag, ok := c.Trace.FaultInWindow(stay); ok {
		return lag
	}
	versions, staleReads := c.Setup.Bounds()
	opts := []int{stay}
	newer := min(stay-1, n-1)
	switch {
	case newer < 1:
	case c.Stale >= staleReads:
		c.Trace.Cut(CutStaleReads) // a newer window was there to open
	default:
		if newer > versions-1 {
			c.Trace.Cut(CutVersions)
			newer = versions - 1
		}
		for l := newer; l >= 1; l-- {
			opts = append(opts, l)
		}
	}
	opts = append(opts, 0)
	return opts[c.Trace.Choose(len(opts))]
}

// NoteWindow records a cached read through informer inf at lag in the
// open windows, in a search and in a replay alike: with a window of inf
// open, a read at the window's lag stay is one of its reads and any other
// closes it; a stale read that no window serves opens one at point seq
// (one unit of Options.StaleReads). what names the read, for the window
// it opens. It returns the read's window (Read.Window), or 0.
func (c *Cache) NoteWindow(inf Key, lag, stay, seq int, what func() string) int {
	i, reconciler := c.Trace.Step()
	if i == 0 {
		return 0
	}
	if c.Trace.Drain() {
		c.CloseWindows()
		return 0
	}
	if w := c.openWindow(inf); w != nil {
		if lag == stay {
			return c.serve(w, i)
		}
		delete(c.windows, inf)
	}
	if lag == 0 {
		return 0
	}
	c.Stale++
	if c.windows == nil {
		c.windows = map[Key]*openWindow{}
	}
	ws := c.Trace.Windows(i)
	ref := windowRef{step: i, index: len(*ws)}
	c.windows[inf] = &openWindow{seq: seq, listed: []windowRef{ref}}
	*ws = append(*ws, Window{Controller: reconciler, Kind: inf.GVK.Kind, Informer: inf.Rep.String(),
		FromStep: i, ToStep: i, Opened: what(), Reads: 1})
	return ref.index + 1
}

// serve counts a read of step i that the open window w served: i lists
// w (its first read in i: a window an earlier step opened), and every
// step that lists it says it reached i.
func (c *Cache) serve(w *openWindow, i int) int {
	last := w.listed[len(w.listed)-1]
	if last.step != i {
		rec := *c.windowAt(last)
		ws := c.Trace.Windows(i)
		last = windowRef{step: i, index: len(*ws)}
		w.listed = append(w.listed, last)
		*ws = append(*ws, rec)
	}
	for _, ref := range w.listed {
		rec := c.windowAt(ref)
		rec.Reads++
		rec.ToStep = i
	}
	return last.index + 1
}

// windowAt is the Window ref names: in the running step, or in one run.
func (c *Cache) windowAt(ref windowRef) *Window {
	return &(*c.Trace.Windows(ref.step))[ref.index]
}

// CloseWindows closes every open window: the process that held them is
// gone (a crash restart, a leader change), or the drain begins.
func (c *Cache) CloseWindows() { c.windows = nil }

// WindowState lists the open windows, for the state hash
// (Model.WindowPoint): each one's informer and, for each object of its
// kind among keys, where it stands to the window's point. What a window
// will serve is then the same in two states with one hash.
func (c *Cache) WindowState(keys []book.Key, norm func(map[string]any) any) []WindowPoint {
	if !c.Setup.Spans() {
		return nil // none is open between steps
	}
	versions, _ := c.Setup.Bounds()
	var out []WindowPoint
	for inf, w := range c.windows {
		out = append(out, c.Model.WindowPoint(inf, w.seq, keys, versions, norm))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].I < out[j].I })
	return out
}
