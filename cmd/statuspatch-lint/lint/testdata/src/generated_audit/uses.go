package generated_audit

import (
	"context"

	v1 "example.com/api/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// In audit mode, handwritten calls of a patcher's writes are reported; the
// write inside the generated file is not.
func flush(ctx context.Context, p *patcher.Patcher[*v1.Widget]) error {
	return p.Flush(ctx) // want `^optimistic: Patcher.Flush of Widget: generated patcher \(write mode not seen: patcher from parameter p of flush\)$`
}
