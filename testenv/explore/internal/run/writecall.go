package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
)

// A violation a write caused (a field it set back, a write it lost, an
// object it deleted) names that write: its kind, read from the request
// (patch type, the lock, the subresource), and its call site in the
// operator, from the request's stack where the explorer's client
// intercepted it (Write.Kind, Write.At; internal/callsite reads both).

// writeNote names the write whose version is being recorded, for a
// violation it caused: ", by a blind merge patch of status at
// controllers/x.go:42"; "" when no write of the step is being recorded
// (a read met the version).
func (t *Trace) writeNote() string {
	if t.Cur == nil || !t.Cur.judged {
		t.named = nil
		return ""
	}
	return t.lastWriteNote()
}

// lastWriteNote names the step's last write as writeNote does. The
// violation whose message ends with the note keeps that write as its
// Cause (trace.fail).
func (t *Trace) lastWriteNote() string {
	t.named = nil
	if t.Cur == nil || len(t.Cur.Step.Writes) == 0 {
		return ""
	}
	w := t.Cur.Step.Writes[len(t.Cur.Step.Writes)-1]
	note := callsite.Note(w.Kind, w.At)
	if note != "" {
		t.named = &namedWrite{note: note, w: w}
	}
	return note
}

// namedWrite is the write a message's note named, and the note.
type namedWrite struct {
	note string
	w    outcome.Write
}
