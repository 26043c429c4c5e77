package patcher

import (
	"context"

	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WriteMode is how Flush writes the status.
type WriteMode int

const (
	WriteMergePatch WriteMode = iota
	WriteApply
	WriteApplyWithoutLock
)

type optionFunc func()

func WithWriteMode(m WriteMode) Option { return optionFunc(func() {}) }

func WithFieldOwner(owner string) Option { return optionFunc(func() {}) }

func WithAPIReader(r client.Reader) Option { return optionFunc(func() {}) }

var (
	// Deprecated: use WithWriteMode(WriteApply).
	WithApply = func() Option { return WithWriteMode(WriteApply) }
	// Deprecated: use WithWriteMode(WriteApplyWithoutLock).
	WithApplyWithoutLock = func() Option { return WithWriteMode(WriteApplyWithoutLock) }
	// Deprecated: use WithWriteMode(WriteMergePatch).
	WithMergePatch = func() Option { return WithWriteMode(WriteMergePatch) }
)

type Manager interface {
	GetClient() client.Client
	GetAPIReader() client.Reader
}

// Client is a client.Client carrying Patcher options.
type Client struct {
	client.Client
	opts []Option
}

func ForManager(mgr Manager, opts ...Option) *Client {
	return WithDefaults(mgr.GetClient(), append([]Option{WithAPIReader(mgr.GetAPIReader())}, opts...)...)
}

func WithDefaults(c client.Client, opts ...Option) *Client { return &Client{Client: c, opts: opts} }

func New[T client.Object](c client.Client, obj T, opts ...Option) *Patcher[T] {
	return &Patcher[T]{c: c, obj: obj}
}

func FetchWithStatus[T client.Object](ctx context.Context, c client.Client, key client.ObjectKey, obj T, status StatusFunc[T], opts ...Option) (*Patcher[T], error) {
	return &Patcher[T]{c: c, obj: obj}, nil
}

func WithBackoff(b wait.Backoff) Option { return optionFunc(func() {}) }

func WithNonStatusChangesUnsent() Option { return optionFunc(func() {}) }
