package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// What a decision moved into Retry does again on each attempt (issue
// 80), one table: a row is an effect, where the code shows it, and
// whether it can be made once. A once-able effect is a value read: a
// call of a package outside the module whose answer changes from call
// to call (a token counter, a random number, a file, the network
// without a context) is called once, its value kept in a
// sync.OnceValue (or OnceValues, for a value and its error) declared
// before the Retry (migrateonce.go). Any other (a channel receive, in a
// select or a range too, a send, a mutex locked or unlocked on one side of the
// Retry) keeps the decision before a Flush, the note naming the line and
// the effect (outerWhy, migrateretryouter.go). A call of the package
// whose body shows one of these (a receive in a helper, at any depth)
// is the call's effect (migrateoncefx.go's bodyEffects), made once.
type effect struct {
	what string   // the effect, as a reason says it: "hands out a new value on each call"
	recv string   // a pointer method's, when not what: "changes its receiver on each call"
	once bool     // a value read: made once; else the decision stays before Flush
	pkgs []string // a call of a function (or a pointer method) of these packages has it
	// at, for a row of the decision's own code: the subject (the
	// channel, the mutex) of the node n with the effect, nil when n
	// has none.
	at func(info *types.Info, n ast.Node) ast.Expr
	// paired: the row's node is half of a pair (Lock, Unlock): the
	// decision has the effect only when its halves do not match.
	paired bool
	again  string // what a second attempt does, for a row of the code's own
}

var effectTable = []effect{
	{what: "changes what it is given on each call", recv: "changes its receiver on each call", once: true, pkgs: []string{"sync/atomic"}},
	{what: "hands out a new value on each call", recv: "changes its receiver on each call", once: true, pkgs: []string{
		"math/rand", "math/rand/v2", "crypto/rand", "github.com/google/uuid",
		"k8s.io/apimachinery/pkg/util/rand", "k8s.io/apimachinery/pkg/util/uuid"}},
	{what: "reads a file or a stream, which may answer otherwise on each call", once: true, pkgs: []string{"os", "io", "io/ioutil", "io/fs", "bufio"}},
	{what: "calls the network without a context, which may answer otherwise on each call", once: true, pkgs: []string{"net", "net/http", "google.golang.org/grpc"}},
	{what: "receives from %s at %s", again: "a second value consumed, or a block", at: receiveAt},
	{what: "sends on %s at %s", again: "a second value sent, or a block", at: sendAt},
	{what: "ranges over the channel %s at %s", again: "more values consumed, or a block", at: rangeChanAt},
	{what: "calls %s at %s, whose other half (Lock, Unlock) is outside it", again: "a second Lock blocks for good, a second Unlock panics", at: lockAt, paired: true},
}

// pkgEffect is the table's row for a function of the package path, nil
// for none.
func pkgEffect(path string) *effect {
	for i := range effectTable {
		if slices.Contains(effectTable[i].pkgs, path) {
			return &effectTable[i]
		}
	}
	return nil
}

// receiveAt is the channel n receives from (<-ch), nil for another node
// or a channel of struct{}: no value, a signal (a stop channel, a
// context's Done) each attempt may wait on again.
func receiveAt(info *types.Info, n ast.Node) ast.Expr {
	u, ok := n.(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	if ch, ok := info.TypeOf(u.X).Underlying().(*types.Chan); ok {
		if st, ok := ch.Elem().Underlying().(*types.Struct); ok && st.NumFields() == 0 {
			return nil
		}
	}
	return u.X
}

// sendAt is the channel n sends on (ch <- v), nil for another node.
func sendAt(_ *types.Info, n ast.Node) ast.Expr {
	if s, ok := n.(*ast.SendStmt); ok {
		return s.Chan
	}
	return nil
}

// rangeChanAt is the channel n ranges over, nil for another node.
func rangeChanAt(info *types.Info, n ast.Node) ast.Expr {
	if rs, ok := n.(*ast.RangeStmt); ok {
		if _, ok := info.TypeOf(rs.X).Underlying().(*types.Chan); ok {
			return rs.X
		}
	}
	return nil
}

// lockAt is the mutex n locks or unlocks (mu.Lock(), r.mu.RUnlock()),
// nil for another node.
func lockAt(info *types.Info, n ast.Node) ast.Expr {
	c, ok := n.(*ast.CallExpr)
	if !ok {
		return nil
	}
	f, ok := typeutil.Callee(info, c).(*types.Func)
	sel, isSel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || !isSel || lockDelta(f) == 0 {
		return nil
	}
	return sel.X
}

// lockDelta is +1 for a mutex's Lock (RLock), -1 for its Unlock
// (RUnlock), 0 for any other function.
func lockDelta(f *types.Func) int {
	r := recvType(f)
	if p, ok := r.(*types.Pointer); ok {
		r = p.Elem()
	}
	n, ok := r.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return 0
	}
	switch f.Name() {
	case "Lock", "RLock":
		return 1
	case "Unlock", "RUnlock":
		return -1
	}
	return 0
}

// effectWhy says what in the decision's nodes, of the table's rows of
// the code's own, Retry's attempts would do again, naming the line and
// the effect; "" when none. A subject the decision declares (a channel
// made in it) is its own.
func effectWhy(r retries, nodes []ast.Node) string {
	if len(nodes) == 0 {
		return ""
	}
	info := r.pass.TypesInfo
	from, to := nodes[0].Pos(), nodes[len(nodes)-1].End()
	own := func(x ast.Expr) bool {
		v := rootVar(info, x)
		return v != nil && v.Pos() >= from && v.Pos() < to
	}
	const again = ": Retry's function may run more than once, and each run would do it again (%s)"
	for _, e := range effectTable {
		if e.at == nil || e.once {
			continue // a call's: made once (migrateonce.go)
		}
		count := map[string]int{}
		first := map[string]ast.Node{}
		var order []string
		why := ""
		for _, root := range nodes {
			ast.Inspect(root, func(n ast.Node) bool {
				x := e.at(info, n)
				if why != "" || x == nil || own(x) {
					return why == ""
				}
				name := types.ExprString(x)
				if !e.paired {
					why = fmt.Sprintf("it "+e.what+again, name, r.where(n.Pos()), e.again)
					return false
				}
				if _, ok := first[name]; !ok {
					first[name] = n
					order = append(order, name)
				}
				f, _ := typeutil.Callee(info, n.(*ast.CallExpr)).(*types.Func)
				count[name] += lockDelta(f)
				return true
			})
		}
		if why != "" {
			return why
		}
		for _, name := range order {
			if count[name] != 0 {
				call := first[name].(*ast.CallExpr)
				return fmt.Sprintf("it "+e.what+again, types.ExprString(call.Fun), r.where(call.Pos()), e.again)
			}
		}
	}
	return ""
}
