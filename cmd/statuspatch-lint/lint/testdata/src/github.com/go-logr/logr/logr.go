// Package logr is a stub of github.com/go-logr/logr for the linter's tests.
package logr

import "context"

type Logger struct{}

func (Logger) Info(msg string, keysAndValues ...any) {}

func (Logger) Error(err error, msg string, keysAndValues ...any) {}

func FromContextOrDiscard(ctx context.Context) Logger { return Logger{} }
