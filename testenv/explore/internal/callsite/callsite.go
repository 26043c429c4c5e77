package callsite

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// libraryPrefixes are the packages whose frames are not the operator's
// call site: the client libraries, statuspatch's patcher, and the
// explorer's own client (its package and the helpers it calls through).
var libraryPrefixes = []string{
	"sigs.k8s.io/controller-runtime/", "k8s.io/client-go/", "k8s.io/apimachinery/",
	"github.com/statuspatch/statuspatch/testenv/explore.", "github.com/statuspatch/statuspatch/testenv/explore/internal/",
	"github.com/statuspatch/statuspatch/patcher", "runtime.", "reflect.",
}

// Of is the operator's line that made the request being intercepted:
// "dir/file.go:42", the first frame of the calling goroutine's stack
// outside libraryPrefixes ("" when there is none). A frame of a client
// wrapper (a method named as a client write, wrapping the client with a
// mutex or metrics) is not that line: the line that called the wrapper
// is named, and the wrapper after it ("jobset/controller.go:42 through
// realops/client.go:98"). Each frame it names is remembered for Audit.
func Of() string {
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
				wrapper = Remember(f.File, f.Function, f.Line)
			}
		case wrapper != "":
			return Remember(f.File, f.Function, f.Line) + " through " + wrapper
		default:
			return Remember(f.File, f.Function, f.Line)
		}
		if !more {
			return wrapper
		}
	}
}

// Remember notes the file and package of a frame of the function fn
// ("example.com/op/internal/ctl.(*R).Reconcile") at line of file, for
// Audit, and returns its call site as Of names it: "ctl/x.go:42".
func Remember(file, fn string, line int) string {
	short := filepath.Join(filepath.Base(filepath.Dir(file)), filepath.Base(file))
	rememberFile(short, file, fn)
	return fmt.Sprintf("%s:%d", short, line)
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

// sourceFiles maps a call site's short file name ("controllers/x.go") to
// the file its frame named, as the binary recorded it (absolute, unless
// built with -trimpath), and its package's import path; the zero
// sourceFile when two files share the short name.
var sourceFiles sync.Map

// sourceFile is a call site's file and the import path of its package.
type sourceFile struct{ file, pkg string }

// rememberFile notes the file and package of the frame whose function is
// fn ("example.com/op/internal/ctl.(*R).Reconcile").
func rememberFile(short, full, fn string) {
	sf := sourceFile{file: full, pkg: funcPackage(fn)}
	if v, loaded := sourceFiles.LoadOrStore(short, sf); loaded && v.(sourceFile) != sf {
		sourceFiles.Store(short, sourceFile{})
	}
}

// funcPackage is the import path of a function's package as the runtime
// names it: "example.com/op/ctl" of "example.com/op/ctl.(*R).Reconcile",
// "gopkg.in/yaml.v3" of "gopkg.in/yaml%2ev3.F" (a dot of the last
// element is escaped), type arguments ("F[...]") aside; "" for none.
func funcPackage(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i]
	}
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return strings.ReplaceAll(fn[:slash+1+dot], "%2e", ".")
}
