package patcher

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// WithWriteToken makes every status write carry a fresh unique token (128
// random bits as hex) in the status string field that field returns the
// address of (nil when the object has no status to hold it: that write
// carries none). A write whose answer is lost is then settled by the
// token alone: a read that holds it proves the write stored, once (it
// carried the lock); the object's history, whose first version after the
// base holds another token (or none, where the server has shown that it
// stores the field: an answer holding a token this process sent, and none
// since without it), proves it not stored (a Conflict). A token the
// server prunes (a CRD in the cluster without the field, in a version
// served or stored) decides nothing and is logged once. Where the history
// cannot be read the outcome is ErrWriteOutcomeUnknown, as without a
// token. The token is set only when a write goes out: a
// Flush with no change still sends nothing. Use it for decisions that are
// not idempotent (counters, queues, appends). statuspatch-gen passes it for
// a field marked +statuspatch:writeToken; nothing else may write that
// field. A field that is not a string field of the status is an error
// matching ErrInvalidInput. ApplyStatus's writes carry it too, beside the
// status given. The writes of WriteApplyWithoutLock carry none (a token
// proves a write stored once only with the lock, and an unlocked resend
// that put it back would be a write of its own).
func WithWriteToken[T client.Object](field func(obj T) *string) Option {
	return writeTokenOption[T]{field}
}

type writeTokenOption[T client.Object] struct{ field func(T) *string }

func (writeTokenOption[T]) applyToPatcher(*options) {}

// writeTokenFor names the object type the option was made for.
func (writeTokenOption[T]) writeTokenFor() reflect.Type { return reflect.TypeFor[T]() }

// writeToken is a Patcher's write token field (field nil: none) and its
// JSON path from the object's root.
type writeToken[T client.Object] struct {
	field func(T) *string
	path  []string
}

// use picks the WithWriteToken option out of opts and finds the field's
// JSON path: it must be a string field of the status struct.
func (t *writeToken[T]) use(p *snapshot[T], opts []Option) error {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if f, ok := o.(writeTokenOption[T]); ok && f.field != nil {
			t.field = f.field
			continue
		}
		if _, ok := o.(interface{ writeTokenFor() reflect.Type }); ok {
			return fmt.Errorf("statuspatch: WithWriteToken for another type than %T: %w", p.obj, ErrInvalidInput)
		}
	}
	if t.field == nil {
		return nil
	}
	name, err := t.fieldName(p)
	if err != nil {
		return fmt.Errorf("statuspatch: %s: WithWriteToken: %w", p.id(), err)
	}
	t.path = []string{"status", name}
	return nil
}

// fieldName is the JSON name of the status field t.field returns, found
// on a new object (its status allocated when it is a pointer).
func (t *writeToken[T]) fieldName(p *snapshot[T]) (name string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the field function panicked: %v: %w", r, ErrInvalidInput)
		}
	}()
	obj := reflect.New(reflect.TypeOf(p.obj).Elem()).Interface().(T)
	st := reflect.ValueOf(p.status(obj)).Elem()
	if st.Kind() == reflect.Pointer {
		st.Set(reflect.New(st.Type().Elem()))
		st = st.Elem()
	}
	got := t.field(obj)
	if got == nil {
		return "", fmt.Errorf("the field function returned nil for an object with a status: return the address of a string field of the status: %w", ErrInvalidInput)
	}
	start, addr := st.Addr().Pointer(), reflect.ValueOf(got).Pointer()
	if addr < start || addr >= start+st.Type().Size() {
		return "", fmt.Errorf("the field function returned the address of a string outside the status: return the address of a string field of the status: %w", ErrInvalidInput)
	}
	f, ok := fieldAt(st.Type(), addr-start, reflect.TypeFor[string]())
	if !ok {
		return "", fmt.Errorf("the field function returned the address of a string that is not a top-level field of the status %s: %w", st.Type(), ErrInvalidInput)
	}
	if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == "-" {
		return "", fmt.Errorf("the status field %s is not marshalled (json:\"-\"): a write could not carry its token: %w", f.Name, ErrInvalidInput)
	}
	return jsonName(f), nil
}

// stamp puts a fresh token into obj's field when p has one and returns
// it with the function that puts the old value back ("" and nil when it
// has none, or obj has no status to hold it).
func (t *writeToken[T]) stamp(obj T) (string, func(), error) {
	if t.field == nil {
		return "", nil, nil
	}
	f := t.field(obj)
	if f == nil {
		return "", nil, nil
	}
	token, err := newToken()
	if err != nil {
		return "", nil, err
	}
	old := *f
	*f = token
	return token, func() { *f = old }, nil
}

// stampApplied puts a fresh token into status, an apply's status (decoded
// JSON), when p has one, and returns it ("" when it has none).
func (t *writeToken[T]) stampApplied(status map[string]any) (string, error) {
	if t.field == nil {
		return "", nil
	}
	token, err := newToken()
	if err != nil {
		return "", err
	}
	status[t.path[1]] = token
	return token, nil
}

// ignored is fields without the token's: the token this manager owns is no
// change of an apply's fields.
func (t *writeToken[T]) ignored(fields *fieldpath.Set) *fieldpath.Set {
	if t.field == nil {
		return fields
	}
	return fields.Difference(fieldpath.NewSet(fieldpath.MakePathOrDie(t.path[0], t.path[1])))
}

// newToken is a fresh token: 128 random bits as hex.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("statuspatch: a write token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// settleToken is the token w carries, as patcher/internal/settle sees it
// (nil: none).
func (t *writeToken[T]) settleToken(value string) *settle.Token {
	if value == "" || t.path == nil {
		return nil
	}
	return &settle.Token{Path: t.path, Value: value}
}
