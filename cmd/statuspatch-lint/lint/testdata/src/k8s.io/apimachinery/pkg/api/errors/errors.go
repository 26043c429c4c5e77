// Package errors is a stub of k8s.io/apimachinery/pkg/api/errors.
package errors

func IsConflict(err error) bool { return false }

func IsNotFound(err error) bool { return false }
