package explore

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A violation a write caused (a field it set back, a write it lost, an
// object it deleted) names that write: its kind, read from the request
// (patch type, the lock, the subresource), and its call site in the
// operator, from the request's stack where the explorer's client
// intercepted it (Write.Kind, Write.At).

// writeKind names a write as a report does: "blind merge patch of status",
// "locked patch", "update", "apply without the lock".
func writeKind(verb string, p client.Patch, lock string) string {
	sub, op := "", verb
	if i := strings.LastIndex(verb, " "); i >= 0 {
		sub, op = " of "+verb[:i], verb[i+1:]
	}
	switch op {
	case "patch":
		what := "patch"
		if p != nil {
			switch p.Type() {
			case types.MergePatchType:
				what = "merge patch"
			case types.StrategicMergePatchType:
				what = "strategic merge patch"
			case types.JSONPatchType:
				what = "JSON patch"
			}
		}
		if lock != "" {
			return "locked " + what + sub
		}
		return "blind " + what + sub
	case "apply":
		if lock != "" {
			return "apply" + sub + " with the lock"
		}
		return "apply" + sub + " without the lock"
	case "update":
		if lock == "" {
			return "update" + sub + " without resourceVersion"
		}
	}
	return op + sub
}

// libraryPrefixes are the packages whose frames are not the operator's
// call site: the client libraries, statuspatch's patcher, and the
// explorer's own client (its package and the helpers it calls through).
var libraryPrefixes = []string{
	"sigs.k8s.io/controller-runtime/", "k8s.io/client-go/", "k8s.io/apimachinery/",
	"github.com/statuspatch/statuspatch/testenv/explore.", "github.com/statuspatch/statuspatch/testenv/explore/internal/",
	"github.com/statuspatch/statuspatch/patcher", "runtime.", "reflect.",
}

// callSite is the operator's line that made the request being
// intercepted: "dir/file.go:42", the first frame of the calling
// goroutine's stack outside libraryPrefixes ("" when there is none). A
// frame of a client wrapper (a method named as a client write, wrapping
// the client with a mutex or metrics) is not that line: the line that
// called the wrapper is named, and the wrapper after it
// ("jobset/controller.go:42 through realops/client.go:98").
func callSite() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	wrapper := ""
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "" || isLibrary(f.Function):
		case isWrapper(f.Function):
			if wrapper == "" {
				wrapper = shortLine(f)
			}
		case wrapper != "":
			return shortLine(f) + " through " + wrapper
		default:
			return shortLine(f)
		}
		if !more {
			return wrapper
		}
	}
}

func shortLine(f runtime.Frame) string {
	short := filepath.Join(filepath.Base(filepath.Dir(f.File)), filepath.Base(f.File))
	rememberFile(short, f.File, f.Function)
	return fmt.Sprintf("%s:%d", short, f.Line)
}

// clientWrites are the names of the client's write methods.
var clientWrites = map[string]bool{"Create": true, "Update": true, "Patch": true, "Delete": true, "DeleteAllOf": true, "Apply": true}

// isWrapper reports a method named as a client write: "pkg.(*T).Patch",
// "pkg.T.Delete" (not a function "pkg.Patch", nor a closure in one).
func isWrapper(fn string) bool {
	name := fn[strings.LastIndex(fn, "/")+1:]
	for strings.Contains(name, "[") { // type parameters: "T[...]"
		a, b := strings.Index(name, "["), strings.Index(name, "]")
		if b < a {
			break
		}
		name = name[:a] + name[b+1:]
	}
	parts := strings.Split(name, ".")
	return len(parts) >= 3 && clientWrites[parts[len(parts)-1]]
}

func isLibrary(fn string) bool {
	for _, p := range libraryPrefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// writeNote names the write whose version is being recorded, for a
// violation it caused: ", by a blind merge patch of status at
// controllers/x.go:42"; "" when no write of the step is being recorded
// (a read met the version).
func (t *trace) writeNote() string {
	if t.cur == nil || !t.cur.judged {
		t.named = nil
		return ""
	}
	return t.lastWriteNote()
}

// lastWriteNote names the step's last write as writeNote does. The
// violation whose message ends with the note keeps that write as its
// Cause (trace.fail).
func (t *trace) lastWriteNote() string {
	t.named = nil
	if t.cur == nil || len(t.cur.step.Writes) == 0 {
		return ""
	}
	w := t.cur.step.Writes[len(t.cur.step.Writes)-1]
	if w.Kind == "" {
		return ""
	}
	a := "a"
	if strings.ContainsRune("aeiou", rune(w.Kind[0])) {
		a = "an"
	}
	note := fmt.Sprintf(", by %s %s", a, w.Kind)
	if w.At != "" {
		note += " at " + w.At
	}
	t.named = &namedWrite{note: note, w: w}
	return note
}

// namedWrite is the write a message's note named, and the note.
type namedWrite struct {
	note string
	w    Write
}
