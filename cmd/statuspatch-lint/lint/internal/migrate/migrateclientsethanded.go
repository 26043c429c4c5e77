package migrate

import "go/types"

// A function handed to another package's code is not run at the call
// unless that code is known to run it before it returns: a go
// statement, a WaitGroup's or an errgroup's Go, a channel send, a field
// that stores it run it later or concurrently, and the client it sets is
// set only at a synchronization point (a Wait, a receive) the walk does
// not see (review R5 of s105: -fix made the patcher between wg.Go and
// wg.Wait, and the project's test panicked on a nil pointer). The write
// then stays, naming the call (setWalk.callSets, last).

// handedRunners is the functions of other packages known to run a
// function handed to them before they return, by package path, receiver
// and name.
var handedRunners = map[string]bool{
	"sync.Once.Do":          true,
	"sort.Slice":            true,
	"sort.SliceStable":      true,
	"sort.Search":           true,
	"slices.SortFunc":       true,
	"slices.SortStableFunc": true,
	"slices.IndexFunc":      true,
	"slices.ContainsFunc":   true,
	"slices.DeleteFunc":     true,
	"k8s.io/client-go/util/retry.RetryOnConflict":                     true,
	"k8s.io/client-go/util/retry.OnError":                             true,
	"k8s.io/apimachinery/pkg/util/wait.ExponentialBackoff":            true,
	"k8s.io/apimachinery/pkg/util/wait.ExponentialBackoffWithContext": true,
	"k8s.io/apimachinery/pkg/util/wait.PollUntilContextTimeout":       true,
	"k8s.io/apimachinery/pkg/util/wait.PollUntilContextCancel":        true,
}

// runsHanded reports whether fn runs a function handed to it before it
// returns (handedRunners).
func runsHanded(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok {
			return false
		}
		name = n.Obj().Name() + "." + name
	}
	return handedRunners[fn.Pkg().Path()+"."+name]
}
