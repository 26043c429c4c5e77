package judge

import "github.com/statuspatch/statuspatch/testenv/explore/internal/book"

// What a write is judged by.
//
// "no lost write" judges a write by the version of the object it was
// computed from, not by the newest read of its step: a reconcile that
// reads an object, decides, reads it again (a retry helper's check, a
// verification through the API reader) and then sends the decision as a
// blind merge patch of the object it first read has lost whatever was
// written between its two reads. The explorer cannot follow the values;
// it reads what the request says:
//
//   - a write under the lock (an update carrying a resourceVersion, a
//     patch or apply whose body carries metadata.resourceVersion) that
//     the server accepted was computed from the newest version, whatever
//     the step read: the server checked it;
//   - a blind write of an object carrying a resourceVersion the book
//     knows (a merge patch of what a Get filled, MergeFrom's usual use)
//     was computed from that version, older or newer than the step's
//     newest read;
//   - a write that carries neither (a patch of an empty object, an
//     apply without the lock, an update without resourceVersion) is
//     judged, as before, by the newest version the step had seen.

// Based is the version (from 1; 0: none) a write the server accepted was
// computed from, h the history of its object (nil: none known): lock is
// the resourceVersion the server checked ("" for none), held the one the
// sent object carried; based is the step's newest read of it (from 1).
// An accepted lock is a read of the newest version: read is that version
// (from 0), which the step has seen, or -1.
func Based(h *book.History, lock, held string, based int) (v, read int) {
	if h == nil {
		return based, -1
	}
	newest := h.Newest()
	if lock != "" {
		if h.RVs[newest] != lock || h.Versions[newest] == nil {
			return based, -1
		}
		return max(based, newest+1), newest
	}
	if held == "" {
		return based, -1
	}
	// Back to the object's last absence: before it, a version of another
	// object under the name (the fake client numbers each one's from 1).
	for i := newest; i >= 0 && h.Versions[i] != nil; i-- {
		if h.RVs[i] == held {
			return i + 1, -1
		}
	}
	return based, -1
}
