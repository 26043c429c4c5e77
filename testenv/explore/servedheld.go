package explore

import "sort"

// What the second cache (servedcache.go) held at a step's start, for the
// report: its reads are served from its own store, in process, out of
// the explorer's sight, so the step lists what it held, not what it read.

// noteHeld adds to the step what the watches' cache holds of every
// object they cover, once each (the first watch's representation): the
// newest version, or none (out of the label selector); a gone object is
// left out. The watches are taken in a fixed order, not the order their
// informers happened to start in, so that a replay lists the same.
func (p *inProcess) noteHeld(s *stepState, watches []*watchStream) {
	ws := append([]*watchStream(nil), watches...)
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].q.listName() < ws[j].q.listName() })
	noted := map[objKey]bool{}
	for _, w := range ws {
		for _, k := range p.r.order {
			if noted[k] || k.gvk != w.q.gvk || !w.q.covers(k.nn) {
				continue
			}
			noted[k] = true
			h := p.r.hist[k]
			v := h.newest()
			cur := h.versions[v]
			if cur == nil {
				continue // gone: the cache holds nothing of it, and says so by nothing
			}
			s.step.SecondCache = append(s.step.SecondCache, Read{Object: k.String(), Version: v + 1, Newest: v + 1,
				Informer: w.q.rep.String(), Missing: !w.q.matches(cur)})
		}
	}
}
