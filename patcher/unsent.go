package patcher

// WithNonStatusChangesUnsent makes Flush and Retry leave changes made
// outside status in memory (spec, labels, annotations, finalizers, ...)
// unsent, as a write to the status subresource (Status().Update,
// Status().Patch) does, instead of refusing with ErrNonStatusChange. The
// status is still written under the optimistic lock. After a write the
// object is the server's answer, so the unsent changes are gone from memory
// as after Status().Update. A Flush with nothing to write sends nothing and
// puts the object back to the base (the object as last read or written)
// when the object still carries the base's resourceVersion; when the caller
// wrote the object itself since (a new resourceVersion), it is left as it
// is. Finalizers are written by AddFinalizer and RemoveFinalizer. Use it
// for code that wrote status through the subresource while the object's
// spec or metadata changed before the write; the default refusal is what
// tells a change that was meant to be saved.
func WithNonStatusChangesUnsent() Option {
	return optionFunc(func(o *options) { o.nonStatusUnsent = true })
}

// noopFlushed is the end of a Flush with nothing to write: with
// WithNonStatusChangesUnsent the object goes back to the base when it is
// still the base's version, as the status subresource's answer would.
func (p *Patcher[T]) noopFlushed() {
	if p.opts.nonStatusUnsent && p.obj.GetResourceVersion() == p.base.GetResourceVersion() {
		p.replaceObject(p.base.DeepCopyObject().(T))
	}
}
