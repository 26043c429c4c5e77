// Package events is a minimal stub of k8s.io/client-go/tools/events for
// analysistest; its EventRecorder is an alias, as in client-go v0.34 and
// later.
package events

import internalevents "k8s.io/client-go/tools/internal/events"

type EventRecorder = internalevents.EventRecorder
