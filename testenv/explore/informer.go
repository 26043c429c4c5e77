package explore

// A manager's cache is one informer per kind, shared by the process's
// controllers. An informer applies the watch's events in order, so its
// view of an object never goes backwards: once a cached read (a Get or a
// List) has seen a version, no later cached read of the same process sees
// an older one, within a reconcile or from one reconcile to the next. A
// schedule that breaks this is one no manager can produce; cacheView keeps
// the explorer's choices, the minimiser's replays included, within it.
type cacheView struct {
	// served is, per object, the newest version the cache has served.
	served map[objKey]int
}

// lowest is the oldest version of k a cached read may see now.
func (c *cacheView) lowest(k objKey) int { return c.served[k] }

// saw records that the cache served version v of k.
func (c *cacheView) saw(k objKey, v int) {
	if c.served == nil {
		c.served = map[objKey]int{}
	}
	if v > c.served[k] {
		c.served[k] = v
	}
}

// reset is a new process's (or a standby manager's) cache: its own
// informers, which have served nothing yet.
func (c *cacheView) reset() { c.served = nil }

// state lists what the cache served, for the state hash.
func (c *cacheView) state(order []objKey) []int {
	if len(c.served) == 0 {
		return nil
	}
	out := make([]int, 0, len(order))
	for _, k := range order {
		out = append(out, c.served[k])
	}
	return out
}
