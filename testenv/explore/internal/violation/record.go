package violation

import (
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"
)

// Record is what a schedule broke: its first violation (Invariant,
// Message, About), and the later ones in Also ("invariant: message"),
// each about AlsoAbout's entry at its index. The schedule goes on to its
// steady state after the first, so that later ones show in Also.
type Record struct {
	Invariant string
	Message   string
	// Cause is the write Message names as having caused it, or nil.
	Cause *outcome.Write
	// Also lists later violations, "invariant: message", at most ten.
	Also []string
	// Names are the invariants of Invariant and Also.
	Names map[string]bool
	// About is what Invariant's violation is about; AlsoAbout, each of
	// Also's.
	About     Detail
	AlsoAbout []Detail
}

// Detail is what a violation is about, beside its message: the object,
// the fields, and of those the time-like ones a lost write changed only.
type Detail struct {
	Object   string
	Fields   []string
	TimeOnly bool
	// OrderOnly: a lost write of an atomic list's order only.
	OrderOnly bool
	// Restored: a lost write whose lost values were written again
	// before the steady state (internal/judge's restored.go).
	Restored *steady.Restoration
	// Cause is the write the violation's message names as having caused
	// it, or nil.
	Cause *outcome.Write
}

// New is the record of a schedule's first violation, of invariant with
// msg, about d.
func New(invariant string, d Detail, msg string) *Record {
	r := &Record{Invariant: invariant, Message: msg, Names: map[string]bool{}, About: d, Cause: d.Cause}
	r.Names[invariant] = true
	return r
}

// Add records a later violation of invariant with msg, about d: in Also
// unless it is the first's message or Also holds ten already.
func (r *Record) Add(invariant string, d Detail, msg string) {
	r.Names[invariant] = true
	if r.Message == msg {
		return
	}
	if len(r.Also) < 10 {
		r.Also = append(r.Also, invariant+": "+msg)
		r.AlsoAbout = append(r.AlsoAbout, d)
	}
}

// Retract takes back the violation of invariant with msg, which the
// schedule's judgement after its end cleared: the next one, if any, is
// the first, with no Cause. It reports whether none is left.
func (r *Record) Retract(invariant, msg string) (empty bool) {
	if r.Invariant == invariant && r.Message == msg {
		if len(r.Also) == 0 {
			return true
		}
		r.Invariant, r.Message, _ = strings.Cut(r.Also[0], ": ")
		r.Also = r.Also[1:]
		// Cause was the retracted violation's write: the promoted one's
		// own (its Detail's), or none, never the retracted one's (its
		// audit would be that write's).
		r.Cause = nil
		if len(r.AlsoAbout) > 0 {
			r.About, r.AlsoAbout = r.AlsoAbout[0], r.AlsoAbout[1:]
			r.Cause = r.About.Cause
		}
	} else if i := slices.Index(r.Also, invariant+": "+msg); i >= 0 {
		r.Also = slices.Delete(r.Also, i, i+1)
		if i < len(r.AlsoAbout) {
			r.AlsoAbout = slices.Delete(r.AlsoAbout, i, i+1)
		}
	}
	if r.Invariant == invariant || slices.ContainsFunc(r.Also, func(a string) bool { return strings.HasPrefix(a, invariant+": ") }) {
		return false
	}
	delete(r.Names, invariant)
	return false
}

// MarkTimeOnly marks the violation of invariant with msg, which the
// schedule's judgement after its end found a loss of times only, or of
// an atomic list's order only (order), as such: note ends its message,
// and it keeps its cause and its place.
func (r *Record) MarkTimeOnly(invariant, msg, note string, order bool) {
	mark := func(d *Detail) {
		d.TimeOnly = d.TimeOnly || !order
		d.OrderOnly = d.OrderOnly || order
	}
	if r.Invariant == invariant && r.Message == msg {
		r.Message += note
		mark(&r.About)
	} else if i := slices.Index(r.Also, invariant+": "+msg); i >= 0 {
		r.Also[i] += note
		if i < len(r.AlsoAbout) {
			mark(&r.AlsoAbout[i])
		}
	}
}

// MarkRestored marks the violation of invariant with msg, a lost write
// whose lost values the steady state holds again, as such (res): its
// message, cause and place kept.
func (r *Record) MarkRestored(invariant, msg string, res steady.Restoration) {
	if r.Invariant == invariant && r.Message == msg {
		r.About.Restored = &res
	} else if i := slices.Index(r.Also, invariant+": "+msg); i >= 0 && i < len(r.AlsoAbout) {
		r.AlsoAbout[i].Restored = &res
	}
}
