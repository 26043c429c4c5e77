package patcher

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/patcher/internal/book"
	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// A write token counts only where the server has shown that it stores
// it (issue 81): a CRD older than the controller, or one whose storage
// version lacks the field, prunes it from every write, and a token taken
// for stored would make a stored write another's (a Conflict: Retry
// decides twice) or a removal the server never saw this write's (nil:
// the decision lost). The proof is the server's own answers, kept here
// for the process: a stored write's response that holds its token, a
// settled write whose read holds it, a base that holds a token of this
// process the server answered with before, or, none of them known when a
// lost answer is settled, a server-side dry run's (probeToken). The last
// answer decides: one
// that lacks the token its write carried makes the token "not stored"
// (reported once, with the CRD to apply) until an answer holds one again.
// The schemas may rule the token out (settle.Token), never in.

// tokenKey is what the server's answers about the token hold for: the
// client (one cluster) and the kind and version written. A client that
// cannot key a map (an interceptor client) keeps nothing but the tokens
// its objects were answered with.
type tokenKey struct {
	client any
	gvk    schema.GroupVersionKind
}

// tokenState is the last answer about the token for a tokenKey: it held
// the token (stored), or lacked it (pruned: the report).
type tokenState struct {
	stored bool
	pruned string
}

// maxTokenKeys bounds the tokenKeys kept: past it the book starts again
// (the tokens are then not known stored until an answer shows them).
const maxTokenKeys = 1024

var tokenBook = struct {
	sync.Mutex
	states map[tokenKey]tokenState
}{states: map[tokenKey]tokenState{}}

// storedTokens are the tokens the server answered this process's writes
// with, per object: a base holding one shows the field stored.
var storedTokens = book.NewAnswers(MaxTrackedObjects)

// tokenKeyOf is p's tokenKey; ok is false when the kind is not known.
func tokenKeyOf[T client.Object](p *Patcher[T]) (tokenKey, bool) {
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return tokenKey{}, false
	}
	k := tokenKey{gvk: gvk}
	if c := any(p.client); c != nil && reflect.TypeOf(c).Comparable() && reflect.ValueOf(c).Comparable() {
		k.client = c
	}
	return k, true
}

func setTokenState(k tokenKey, s tokenState) (before tokenState) {
	tokenBook.Lock()
	defer tokenBook.Unlock()
	before = tokenBook.states[k]
	if _, ok := tokenBook.states[k]; !ok && len(tokenBook.states) >= maxTokenKeys {
		tokenBook.states = map[tokenKey]tokenState{}
	}
	tokenBook.states[k] = s
	return before
}

func tokenStateOf(k tokenKey) tokenState {
	tokenBook.Lock()
	defer tokenBook.Unlock()
	return tokenBook.states[k]
}

// tokenAnswered takes the server's answer to a stored write that carried
// token (""; none): answer holds it (the field is stored) or lacks it
// (pruned: logged once, until an answer holds a token again).
func (st *settler[T]) tokenAnswered(ctx context.Context, answer T, token string) {
	p := st.p
	if token == "" || p.token.field == nil {
		return
	}
	k, ok := tokenKeyOf(p)
	if got, _ := p.token.valueIn(answer); got == token {
		storedTokens.Add(answer.GetUID(), token)
		if ok {
			setTokenState(k, tokenState{stored: true})
		}
		return
	}
	if !ok {
		return
	}
	why := st.prunedWhy(k.gvk)
	if before := setTokenState(k, tokenState{pruned: why}); before.pruned == "" {
		log.FromContext(ctx).Info("the server stored a status write without its write token: the token tells nothing, and lost answers are settled as without it",
			"kind", p.kind, "object", client.ObjectKeyFromObject(p.obj), "cause", why)
	}
}

// tokenLanded takes a settled write whose read, fresh, holds its token.
func (st *settler[T]) tokenLanded(fresh T, token string) {
	p := st.p
	if token == "" || p.token.field == nil {
		return
	}
	if got, _ := p.token.valueIn(fresh); got != token {
		return
	}
	storedTokens.Add(fresh.GetUID(), token)
	if k, ok := tokenKeyOf(p); ok {
		setTokenState(k, tokenState{stored: true})
	}
}

// prunedWhy says that the CRD of gvk prunes the token field.
func (st *settler[T]) prunedWhy(gvk schema.GroupVersionKind) string {
	p := st.p
	crd := "the CustomResourceDefinition"
	if mapper := p.client.RESTMapper(); !isNil(mapper) {
		if m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err == nil && m != nil && m.Resource.Group != "" {
			crd += " " + m.Resource.Resource + "." + m.Resource.Group
		}
	}
	field := strings.Join(p.token.path, ".")
	return fmt.Sprintf("the server answered a stored write of %s without the token it carried at %s: %s in the cluster has no %s in %s or in its storage version: apply the current CRDs",
		p.id(), field, crd, field, gvk.Version)
}

// tokenFor is the settle.Token of w, which carries token: Stored when the
// server's answers show the field stored (the last answer for the kind
// held its token, or w's base holds a token the server answered this
// process with, or, neither known, a dry run's answer holds one), Pruned
// when the last answer lacked it.
func (st *settler[T]) tokenFor(ctx context.Context, w *sentWrite[T]) *settle.Token {
	p := st.p
	t := p.token.settleToken(w.token)
	if t == nil {
		return nil
	}
	k, ok := tokenKeyOf(p)
	var s tokenState
	if ok {
		s = tokenStateOf(k)
	}
	switch {
	case s.pruned != "":
		t.Pruned = s.pruned
	case s.stored:
		t.Stored = true
	default:
		if got, ok := p.token.valueIn(w.base); ok && got != "" && storedTokens.Has(w.base.GetUID(), got) {
			t.Stored = true
			break
		}
		t.Stored, t.Pruned = st.probeToken(ctx, k, ok)
	}
	return t
}

// probeToken asks the server whether it stores the token field, when no
// answer has shown it yet: a server-side dry run (dryRun=All: nothing is
// stored) of a status write of a fresh token alone, whose answer goes
// through the same decoding, conversion to the storage version and
// pruning as a write. Its answer holding the token shows the field
// stored; lacking it, pruned. A refused dry run shows nothing (neither).
// The answer is kept for k (known: ok) as a write's would be.
func (st *settler[T]) probeToken(ctx context.Context, k tokenKey, ok bool) (stored bool, pruned string) {
	p := st.p
	value, err := newToken()
	if err != nil {
		return false, ""
	}
	body, err := json.Marshal(map[string]any{p.token.path[0]: map[string]any{p.token.path[1]: value}})
	if err != nil {
		return false, ""
	}
	probe := p.newObject()
	probe.SetName(p.obj.GetName())
	probe.SetNamespace(p.obj.GetNamespace())
	if err := p.client.Status().Patch(ctx, probe, client.RawPatch(types.MergePatchType, body), client.DryRunAll); err != nil || probe.GetUID() == "" {
		return false, ""
	}
	if got, _ := p.token.valueIn(probe); got == value {
		if ok {
			setTokenState(k, tokenState{stored: true})
		}
		return true, ""
	}
	if !ok {
		return false, ""
	}
	why := st.prunedWhy(k.gvk)
	if before := setTokenState(k, tokenState{pruned: why}); before.pruned == "" {
		log.FromContext(ctx).Info("the server's dry run of a status write dropped its write token: the token tells nothing, and lost answers are settled as without it",
			"kind", p.kind, "object", client.ObjectKeyFromObject(p.obj), "cause", why)
	}
	return false, why
}

// valueIn is obj's token ("", false when obj has no status to hold it).
func (t *writeToken[T]) valueIn(obj T) (v string, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = "", false // a nil status the field function dereferences
		}
	}()
	f := t.field(obj)
	if f == nil {
		return "", false
	}
	return *f, true
}
