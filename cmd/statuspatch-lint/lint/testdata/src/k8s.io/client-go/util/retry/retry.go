// Package retry is a stub of k8s.io/client-go/util/retry.
package retry

type Backoff struct{ Steps int }

var DefaultRetry = Backoff{Steps: 5}

func RetryOnConflict(backoff Backoff, fn func() error) error { return fn() }

func OnError(backoff Backoff, retriable func(error) bool, fn func() error) error { return fn() }
