// Package log is a stub of sigs.k8s.io/controller-runtime/pkg/log for
// the linter's tests: FromContext reads the context's logger.
package log

import (
	"context"

	"github.com/go-logr/logr"
)

func FromContext(ctx context.Context, keysAndValues ...any) logr.Logger {
	return logr.FromContextOrDiscard(ctx)
}
