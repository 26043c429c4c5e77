package lint

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A generated patcher made with New over an item of a List (issue 80:
// "a write to a List item ... is made with Fetch/Retry, never a plain
// Flush on a cached copy"): the item is the cache's copy, and when the
// cache lags behind this process's last write of it, the patcher's Flush
// carries an old resourceVersion. Its lock turns that into a conflict
// (the runtime refuses it without a request when it saw the newer
// version), never a lost write, so the verdict stays optimistic; the
// audit says what is true beside it: the base is a List item, its Flush
// conflicts whenever the cache lags, and the fix (a patcher read fresh
// with Fetch<Kind>StatusPatcherInto, or Retry, which re-reads on a
// conflict). -ci does not fail on it: it gates writes that may lose or
// miss a status, and this one may only be refused. Retry on such a
// patcher is not noted, nor a patcher made by Fetch, nor one over an
// object a Get read before the patcher was made.
//
// An item is the element of a List's items (a struct that embeds
// metav1.ListMeta or implements client.ObjectList, its Items slice:
// kube.ListItems), known by the types, not by the field's name alone (a
// user's struct with an Items field is no List): &list.Items[i], a range
// variable over list.Items whose address is taken, an element of a
// []*Kind Items, a DeepCopy of one, or a map's value put there as one of
// these (byName[k], a range over the map); followed in the package as
// the tracer follows values (locals, φ-nodes, helpers' results,
// parameters at their call sites).

// cachedItemNote is what an optimistic generated Flush adds when every
// constructor of its patcher is New over a List item the function did
// not read again with Get before it: where, and what to do; "" otherwise.
func (cl *classifier) cachedItemNote(w *write) string {
	if w.verb != "Flush" || w.recv == nil {
		return ""
	}
	line := 0
	for _, leaf := range cl.leaves(w.recv) {
		call, ok := leaf.(*ssa.Call)
		if !ok || !newConstructor(call.Common()) || len(call.Common().Args) < 2 {
			return ""
		}
		obj := call.Common().Args[1]
		if !cl.cachedItem(obj, 0) || cl.readBefore(obj, call) {
			return ""
		}
		if l := call.Parent().Prog.Fset.Position(call.Pos()).Line; line == 0 || l < line {
			line = l
		}
	}
	if line == 0 {
		return ""
	}
	fetch := "patcher.Fetch"
	if strings.HasSuffix(w.recvName, patcherSuffix) {
		fetch = "Fetch" + w.recvName + "Into"
	}
	return fmt.Sprintf("; its patcher is made at line %d over an item of a List, the cache's copy: this Flush conflicts whenever the cache lags behind this process's last write of the item; make the patcher with %s, which reads it fresh, or write with Retry, which re-reads on a conflict", line, fetch)
}

// newConstructor reports whether c makes a patcher over the object it is
// given as it is: New<Kind>StatusPatcher, patcher.New, NewWithStatus.
func newConstructor(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	if isPatcherFunc(fn) {
		return obj.Name() == "New" || obj.Name() == "NewWithStatus"
	}
	return strings.HasPrefix(obj.Name(), "New") && generatedConstructor.MatchString(obj.Name()) && returnsGeneratedPatcher(fn.Signature)
}

// cachedItem reports whether every value v may be is a List item (the
// comment above).
func (cl *classifier) cachedItem(v ssa.Value, depth int) bool {
	leaves := cl.leaves(v)
	if len(leaves) == 0 || depth > 4 {
		return false
	}
	for _, leaf := range leaves {
		if !cl.itemLeaf(leaf, depth) {
			return false
		}
	}
	return true
}

func (cl *classifier) itemLeaf(leaf ssa.Value, depth int) bool {
	switch x := leaf.(type) {
	case *ssa.IndexAddr: // &list.Items[i]
		return itemsSlice(cl.pkg, x.X)
	case *ssa.UnOp: // an element of a []*Kind Items
		ia, ok := x.X.(*ssa.IndexAddr)
		_, ptr := types.Unalias(x.Type()).Underlying().(*types.Pointer)
		return ok && ptr && itemsSlice(cl.pkg, ia.X)
	case *ssa.Alloc: // &it of a range variable: what is stored in it
		vals := cl.stores(x)
		if len(vals) == 0 {
			return false
		}
		for _, s := range vals {
			u, ok := s.(*ssa.UnOp)
			if !ok {
				return false
			}
			ia, ok := u.X.(*ssa.IndexAddr)
			if !ok || !itemsSlice(cl.pkg, ia.X) {
				return false
			}
		}
		return true
	case *ssa.Call: // item.DeepCopy()
		recv := receiver(x.Common())
		return recv != nil && calledName(x.Common()) == "DeepCopy" && cl.cachedItem(recv, depth+1)
	case *ssa.Lookup: // byName[k]
		return cl.mapOfItems(x.X, depth)
	case *ssa.Extract: // for _, w := range byName
		if next, ok := x.Tuple.(*ssa.Next); ok && !next.IsString && x.Index == 2 {
			if r, ok := next.Iter.(*ssa.Range); ok {
				return cl.mapOfItems(r.X, depth)
			}
		}
	}
	return false
}

// mapOfItems reports whether every value the map m is made to hold (its
// MapUpdates in the package, where the map is made) is a List item.
func (cl *classifier) mapOfItems(m ssa.Value, depth int) bool {
	found := false
	for _, leaf := range cl.leaves(m) {
		mm, ok := leaf.(*ssa.MakeMap)
		if !ok || mm.Referrers() == nil {
			return false
		}
		for _, r := range *mm.Referrers() {
			if u, ok := r.(*ssa.MapUpdate); ok && u.Map == ssa.Value(mm) {
				if !cl.cachedItem(u.Value, depth+1) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// itemsSlice reports whether s is a slice loaded from a List's items
// (kube.ListItems): the Items field of a List type, known by its type.
func itemsSlice(pkg *types.Package, s ssa.Value) bool {
	switch x := s.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		return ok && kube.ListItems(pkg, fa.X.Type(), fa.Field)
	case *ssa.Field:
		return kube.ListItems(pkg, x.X.Type(), x.Field)
	}
	return false
}

// readBefore reports whether the function making the patcher at ctor
// hands obj to a Get that may run before it: the object is then what
// the Get read.
func (cl *classifier) readBefore(obj ssa.Value, ctor *ssa.Call) bool {
	id := cl.identity(obj)
	for _, b := range ctor.Parent().Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || calledName(c.Common()) != "Get" || !reaches(instr, ctor) {
				continue
			}
			for _, a := range c.Common().Args {
				if cl.identity(a) == id {
					return true
				}
			}
		}
	}
	return false
}
