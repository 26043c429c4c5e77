package scaffold

import "text/template"

// The status values a stored status write changed, for
// Test<Kind>DecidesOnce (starterTemplate's "changes"): a value one
// reconcile's stored write set and the other's changed, in one generation,
// is a decision made again, unless the two differ only in time.
var _ = template.Must(starterTemplate.New("changes").Parse(`
// starterChange is a status value a stored status write changed: at path
// (status.phase, status.conditions[type=Ready].status), from the value
// stored before it (nil: none) to the one it stored, by reconcile by (0: a
// write from a context that is not a reconcile's), over generation gen;
// over is the change that had set from, if a write of this client did.
type starterChange struct {
	path     string
	from, to any
	by       int
	gen      int64
	over     *starterChange
}

// note records the status values a stored status write of reconcile by
// changed, from stored (read before the write) to answer (the server's
// answer to it).
func (c *starter{{.Kind}}Client) note(by int, stored, answer *{{.Alias}}.{{.Kind}}) ([]*starterChange, error) {
	from, err := starterLeaves(stored)
	if err != nil {
		return nil, err
	}
	to, err := starterLeaves(answer)
	if err != nil {
		return nil, err
	}
	paths := slices.Collect(maps.Keys(from))
	for p := range to {
		if _, ok := from[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if c.set == nil {
		c.set = map[string]*starterChange{}
	}
	var changes []*starterChange
	for _, p := range paths {
		if equality.Semantic.DeepEqual(from[p], to[p]) {
			continue
		}
		ch := &starterChange{path: p, from: from[p], to: to[p], by: by, gen: stored.Generation, over: c.set[p]}
		c.set[p] = ch
		changes = append(changes, ch)
	}
	c.changes = append(c.changes, changes...)
	return changes, nil
}

// decidedAgain is each change a reconcile's stored write made of a value
// another reconcile's stored write had set, over the same generation; one
// of values that differ only in time is not a decision made again, but a
// line in timed.
func (c *starter{{.Kind}}Client) decidedAgain() (twice []*starterChange, timed []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.changes {
		if ch.by == 0 || ch.over == nil || ch.over.by == 0 || ch.over.by == ch.by || ch.over.gen != ch.gen {
			continue
		}
		if starterTimeOnly(ch.from, ch.to) {
			timed = append(timed, fmt.Sprintf("Unknown: %s: reconcile %d stored %s over %s, which reconcile %d had stored, values which differ only in time; not judged a second decision", ch.path, ch.by, starterJSON(ch.to), starterJSON(ch.from), ch.over.by))
			continue
		}
		twice = append(twice, ch)
	}
	return twice, timed
}

// stored counts, by path, the changes the reconciles' stored status writes
// made, but those of values that differ only in time.
func (c *starter{{.Kind}}Client) stored() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := map[string]int{}
	for _, ch := range c.changes {
		if ch.by != 0 && !starterTimeOnly(ch.from, ch.to) {
			n[ch.path]++
		}
	}
	return n
}

// starterTimed says whether there are changes, all of values that differ
// only in time.
func starterTimed(changes []*starterChange) bool {
	return len(changes) > 0 && !slices.ContainsFunc(changes, func(ch *starterChange) bool { return !starterTimeOnly(ch.from, ch.to) })
}

// starterTime is a time as RFC 3339 writes it (metav1.Time, MicroTime).
var starterTime = regexp.MustCompile(` + "`" + `[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})` + "`" + `)

// starterTimeOnly says whether a and b are strings that differ only in
// time: two durations ("1m30s", metav1.Duration), or the same text but
// for the RFC 3339 times in it.
func starterTimeOnly(a, b any) bool {
	s, ok := a.(string)
	u, ok2 := b.(string)
	if !ok || !ok2 {
		return false
	}
	if _, err := time.ParseDuration(s); err == nil {
		if _, err := time.ParseDuration(u); err == nil {
			return true
		}
	}
	return starterTime.MatchString(s) && starterTime.ReplaceAllString(s, "") == starterTime.ReplaceAllString(u, "")
}

// starterLeaves is o's status by path: maps by key, lists by their items'
// type when each has its own (conditions), else by index.
func starterLeaves(o *{{.Alias}}.{{.Kind}}) (map[string]any, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", o.Namespace, o.Name, err)
	}
	leaves := map[string]any{}
	starterFlatten("status", u["status"], leaves)
	return leaves, nil
}

func starterFlatten(path string, v any, leaves map[string]any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			starterFlatten(path+"."+k, e, leaves)
		}
	case []any:
		keys := map[string]bool{}
		for _, e := range v {
			m, _ := e.(map[string]any)
			t, ok := m["type"].(string)
			if !ok || keys[t] {
				keys = nil
				break
			}
			keys[t] = true
		}
		for i, e := range v {
			p := fmt.Sprintf("%s[%d]", path, i)
			if keys != nil {
				p = fmt.Sprintf("%s[type=%s]", path, e.(map[string]any)["type"])
			}
			starterFlatten(p, e, leaves)
		}
	case nil:
	default:
		leaves[path] = v
	}
}

// starterJSON is v as JSON, as the server stores it.
func starterJSON(v any) string {
	if v == nil {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
`))
