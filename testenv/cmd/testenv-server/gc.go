package main

import (
	"runtime/debug"
	"strconv"
)

// A process of testenv-server does nothing but serve one test's
// requests, and the test waits on each answer: an explorer's schedule
// sends its requests one at a time, so its speed is the server's CPU
// time per request. With Go's default GC (GOGC=100) the embedded server
// spent about a quarter of that in the collector (marking, assists,
// docs/benchmarks.md, "Schedules per second: the server's collector").
// serverGCPercent collects less often, bounded by serverMemoryLimit
// (above it the collector runs as often as it must), in this process
// and, through the environment, in the kube-apiserver it starts for
// -backend full. A GOGC or GOMEMLIMIT already set stands.
const (
	serverGCPercent   = 400
	serverMemoryLimit = 1 << 30 // bytes
)

// tuneGC applies serverGCPercent and serverMemoryLimit to this process
// and sets them in its environment for its children, each unless the
// environment already names one. It returns what it set, as GOGC and
// GOMEMLIMIT would spell it.
func tuneGC(getenv func(string) string, setenv func(string, string) error) ([]string, error) {
	var set []string
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
		v := strconv.Itoa(serverGCPercent)
		if err := setenv("GOGC", v); err != nil {
			return set, err
		}
		set = append(set, "GOGC="+v)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serverMemoryLimit)
		v := strconv.Itoa(serverMemoryLimit)
		if err := setenv("GOMEMLIMIT", v); err != nil {
			return set, err
		}
		set = append(set, "GOMEMLIMIT="+v)
	}
	return set, nil
}
