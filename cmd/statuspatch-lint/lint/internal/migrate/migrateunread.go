package migrate

import "fmt"

// An object the write's function makes (&Kind{...}, new(Kind), Kind{})
// and writes before anything may have given it a resourceVersion (s112;
// Write.Unread, the analyzer's walk of its uses on SSA, lint/unread.go:
// no Get, Create or other call handed it, no other name for it, no
// metadata set). Its write sends no resourceVersion; a patcher over it
// refuses its Flush ("object has no resourceVersion: it was not read from
// the API server"), so moving the write onto New<Kind>StatusPatcher would
// make a write that was stored one that always fails (at d4979aa7 a merge
// patch of it moved so, its base a DeepCopy of the made object). It
// stays, naming the line and the Fetch that reads it.

// unreadWhy says why the write w of m stays when its object is made in
// the function and unread at the write; "" otherwise.
func unreadWhy(m *migration, w *Write) string {
	if !w.Unread.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s is made at %s and not read from the server before the write: it has no resourceVersion, and a patcher over it refuses its Flush (object has no resourceVersion); read it with Fetch%s(ctx, c, key) and set its status on the object that patcher holds",
		m.obj.Name(), m.where(w.Unread), m.patcherType)
}
