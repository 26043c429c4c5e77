// Package patchertest helps users test reconcilers that write status through
// statuspatch, on controller-runtime's fake client or a real API server:
//
//   - NewClient wraps a client.WithWatch with controller-runtime's
//     interceptor and injects Conflicts on status writes, or serves stale
//     reads as a lagging cache would, and counts status writes;
//   - Contend runs several reconcile functions against the same object at
//     once, released together, and reports what each one wrote.
package patchertest
