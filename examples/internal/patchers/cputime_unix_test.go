//go:build unix

package patchers_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the process has used: on a
// shared machine a benchmark's CPU per operation moves less with the load
// than its wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
