// Package clockutil is another package of the module whose body a guard's
// check does not see (no fact carries its effects).
package clockutil

import "time"

// Fresh reads the clock.
func Fresh(t time.Time) bool { return time.Since(t) < time.Minute }
