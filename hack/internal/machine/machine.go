// Package machine says how loaded this machine is, for the routes' and
// benchmarks' logs: on a shared machine wall times move with the load.
package machine

import (
	"os"
	"strings"
)

// Load is /proc/loadavg's first three fields, "?" where it cannot be read.
func Load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return strings.Join(f[:min(3, len(f))], " ")
}
