package judge

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"
)

// A lost write whose values the steady state holds again, or whose
// object they ended with, ranks below what persists: internal/steady
// says which (its package doc has the rules), RestoredSeverity ranks it.

// lostValues is a lost write to judge in the steady state: the object's
// history, the version the losing write made (from 0) and the one it
// replaced, the fields it overwrote, its kind's map lists, and the
// violation's message.
type lostValues struct {
	h         *book.History
	at        int
	prev, cur map[string]any
	fields    [][]string
	keys      book.ListKeys
	msg       string
}

// checkRestored marks each lost write of the schedule whose lost values
// hold again in the steady state (Restored).
func (c *Checks) checkRestored() {
	for _, l := range c.lost {
		if r, ok := steady.Restored(l.h, l.at, l.prev, l.cur, l.fields, l.keys); ok {
			c.trace.Restored(NameLostWrite, l.msg, r)
		} else if r, ok := steady.EndedWithObject(l.h, l.at, l.prev, l.fields); ok {
			c.trace.Restored(NameLostWrite, l.msg, r)
		}
	}
	c.lost = nil
}

// leafFields are the field names of the dotted paths among leaves.
func leafFields(leaves []book.Leaf, paths []string) [][]string {
	var out [][]string
	for _, p := range paths {
		for _, l := range leaves {
			if l.Dotted == p {
				out = append(out, l.Fields)
				break
			}
		}
	}
	return out
}
