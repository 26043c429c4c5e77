package explore

import (
	"fmt"
	"strings"
	"time"
)

// Broke reports whether the schedule broke invariant, first or later.
func (v *Violation) Broke(invariant string) bool { return v.names[invariant] }

// Chosen is the number of steps the explorer chose (the drain excluded).
func (v *Violation) Chosen() int {
	n := 0
	for _, s := range v.Steps {
		if !s.Drain {
			n++
		}
	}
	return n
}

func (v *Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s violated: %s\n", v.Invariant, v.Message)
	for _, a := range v.Also {
		fmt.Fprintf(&b, "  then %s\n", a)
	}
	if v.Bounds.Replay {
		fmt.Fprintf(&b, "schedule (%d chosen steps, a replay of the seed below, not found by a search):\n", v.Chosen())
	} else {
		fmt.Fprintf(&b, "schedule (%d chosen steps, found after %d schedules in %s):\n", v.Chosen(), v.Schedules, v.FoundAfter.Round(time.Millisecond))
	}
	for _, s := range v.Steps {
		b.WriteString(s.String())
	}
	fmt.Fprintf(&b, "found at %s\n", v.Bounds)
	if v.Bounds.Versions > defaultVersions {
		fmt.Fprintf(&b, "replay: explore.Options{Replay: %q, Versions: %d}\n", v.Seed, v.Bounds.Versions)
	} else {
		fmt.Fprintf(&b, "replay: explore.Options{Replay: %q}\n", v.Seed)
	}
	return b.String()
}
