// Package events is a minimal stub of k8s.io/client-go/tools/internal/events
// for analysistest: tools/events' EventRecorder is an alias of this one's
// (client-go v0.34 and later).
package events

import "k8s.io/apimachinery/pkg/runtime"

type EventRecorder interface {
	Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{})
}
