// Package report is the JSON report an explore search writes
// (explore.Options.Report) and the merge of a sharded search's reports
// into one. It imports nothing beyond the standard library, so the
// explore-merge command that merges reports builds in seconds.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Shard is one of Count deterministic parts of a random search: the
// schedules whose index is Index modulo Count. The zero Shard, like 0/1,
// is the whole search.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Whole reports whether s is the whole search.
func (s Shard) Whole() bool { return s.Count <= 1 }

func (s Shard) String() string {
	if s.Whole() {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Validate checks 0 <= Index < Count.
func (s Shard) Validate() error {
	if s.Count < 0 || s.Index < 0 || (s.Count > 0 && s.Index >= s.Count) || (s.Count == 0 && s.Index != 0) {
		return fmt.Errorf("shard %d/%d: want 0 <= index < count", s.Index, s.Count)
	}
	return nil
}

// ParseShard reads "i/N".
func ParseShard(text string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(text), "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want index/count, e.g. 0/4", text)
	}
	s := Shard{Index: index, Count: count}
	return s, s.Validate()
}

// The environment variables ShardFromEnv reads.
const (
	// EnvShard is "i/N", e.g. from a CI matrix.
	EnvShard = "EXPLORE_SHARD"
	// EnvShards is N, with the index from EnvJobIndex (a Kubernetes
	// Indexed Job sets it on each of its completions: 0 to N-1).
	EnvShards   = "EXPLORE_SHARDS"
	EnvJobIndex = "JOB_COMPLETION_INDEX"
)

// ShardFromEnv is the shard the environment names: EXPLORE_SHARD=i/N, or
// EXPLORE_SHARDS=N with the index in JOB_COMPLETION_INDEX (an Indexed
// Job's). Neither set: the whole search.
func ShardFromEnv() (Shard, error) {
	if v := os.Getenv(EnvShard); v != "" {
		s, err := ParseShard(v)
		if err != nil {
			return Shard{}, fmt.Errorf("%s: %w", EnvShard, err)
		}
		return s, nil
	}
	n := os.Getenv(EnvShards)
	if n == "" {
		return Shard{}, nil
	}
	s, err := ParseShard(os.Getenv(EnvJobIndex) + "/" + n)
	if err != nil {
		return Shard{}, fmt.Errorf("%s and %s: %w", EnvJobIndex, EnvShards, err)
	}
	return s, nil
}

// Report is what one search, or the merge of a sharded one's reports,
// found.
type Report struct {
	// Seed and Schedules are the search's Options.Seed and
	// Options.Schedules (0 for a depth-first search).
	Seed      int64 `json:"seed"`
	Schedules int   `json:"schedules"`
	// Replay is the seed the report's run replayed (Options.Replay):
	// it searched nothing, and its violation's Schedule counts nothing.
	// Empty for a search.
	Replay string `json:"replay,omitempty"`
	// Shards are the shards the report covers: one for a search, each of
	// 0 to N-1 once for a merge.
	Shards []Shard `json:"shards"`
	// Ran counts the schedules run.
	Ran int `json:"ran"`
	// Violations are every violation once, by Invariant and Replay, in
	// the order of the schedule that first found each.
	Violations []Violation `json:"violations"`
	// NotExplored says what the search ran but did not explore, where
	// "no violation" is Unknown (explore.Result.NotExplored); a merge's
	// names the report of each ("report 1: not explored: ...").
	NotExplored []string `json:"notExplored,omitempty"`
	// Error is the search's error, if it failed.
	Error string `json:"error,omitempty"`
}

// Violation is one violation of a report.
type Violation struct {
	Invariant string `json:"invariant"`
	Message   string `json:"message"`
	// Rank orders a report's violations, most severe first (1: a value
	// goes backwards ... 4: a lost write whose lost values were written
	// again before the steady state; 5: a lost write of time-like fields
	// or order only);
	// RankReason says why (explore.Violation.Rank). 0 in reports written
	// before they were ranked.
	Rank       int    `json:"rank,omitempty"`
	RankReason string `json:"rankReason,omitempty"`
	// Faulted: its schedule needs a fault the explorer injects (a crash,
	// a restart, a leader change). Own is the rank of its own invariant
	// (Invariant, Message), which Also may have raised to Rank. Both
	// order equal ranks (Severity); absent in reports written before
	// they were recorded.
	Faulted bool     `json:"faulted,omitempty"`
	Own     int      `json:"ownRank,omitempty"`
	Also    []string `json:"also,omitempty"`
	// Replay runs it again: explore.Options{Replay: Replay}.
	Replay string `json:"replay"`
	// Schedule is the index of the first schedule that found it (a
	// random search's; a depth-first search's count of schedules before;
	// 0 in a replay's report, Report.Replay).
	Schedule int `json:"schedule"`
	// Text is the minimised schedule as explore prints it.
	Text string `json:"text,omitempty"`
	// Cause is the write Message names as having caused it; absent when
	// it names none.
	Cause *Cause `json:"cause,omitempty"`
	// Bounds are the bounds of the search that found it (a replay needs
	// its Versions); absent in reports written before they were recorded.
	Bounds *Bounds `json:"bounds,omitempty"`
}

// Cause is the write that caused a violation (explore.Violation.Cause).
type Cause struct {
	// Kind names the request: "blind merge patch of status", "delete".
	Kind string `json:"kind"`
	// At is the operator's line that sent it: "controllers/x.go:42".
	At string `json:"at,omitempty"`
	// Audit is statuspatch-lint -audit's finding for that line, verdict
	// first: "blind: Status().Patch of Widget: client.MergeFrom without
	// optimistic lock"; "not a status write" for a create, a delete, a
	// spec write; absent for a status write the linter did not audit.
	Audit string `json:"audit,omitempty"`
}

// Bounds are a search's bounds and deepening level (explore.Bounds).
type Bounds struct {
	Depth      int `json:"depth"`
	Versions   int `json:"versions"`
	StaleReads int `json:"staleReads"`
	Level      int `json:"level"`
	// Faults marks the fault phase's random schedules after Level
	// (explore.Bounds.Faults).
	Faults bool `json:"faults,omitempty"`
	// Random marks a seeded random search, which does not deepen
	// (explore.Bounds.Random).
	Random bool `json:"random,omitempty"`
	// Fixed marks a depth-first search at the bounds it was given, not
	// deepened (explore.Bounds.Fixed).
	Fixed bool `json:"fixed,omitempty"`
	// Replay marks a replay of one seed (explore.Bounds.Replay): only
	// Versions bound it.
	Replay bool `json:"replay,omitempty"`
}

func (v Violation) key() string { return v.Invariant + "\x00" + v.Replay }

// Sort orders vs in the explorer's one order (Place.Compare: by rank,
// most severe first, the fault-free schedule first of equal ranks, then
// the own invariant's rank, the schedule that found each, its invariant
// and replay), and keeps each (invariant, replay) once: the first.
func Sort(vs []Violation) []Violation {
	slices.SortStableFunc(vs, func(a, b Violation) int { return a.Place().Compare(b.Place()) })
	seen := map[string]bool{}
	out := vs[:0:0]
	for _, v := range vs {
		if !seen[v.key()] {
			seen[v.key()] = true
			out = append(out, v)
		}
	}
	return out
}

// Merge merges the reports of shards 0 to N-1 of one search, each once,
// into one report that names every violation once.
func Merge(reports []Report) (Report, error) {
	if len(reports) == 0 {
		return Report{}, errors.New("merge: no reports")
	}
	out := Report{Seed: reports[0].Seed, Schedules: reports[0].Schedules}
	count := -1
	have := map[int]bool{}
	var errs []error
	for i, r := range reports {
		if r.Replay != "" {
			return Report{}, fmt.Errorf("merge: report %d is of a replay of %q, not a shard of a search", i, r.Replay)
		}
		if r.Seed != out.Seed || r.Schedules != out.Schedules {
			return Report{}, fmt.Errorf("merge: report %d is of seed %d, %d schedules; report 0 of seed %d, %d schedules", i, r.Seed, r.Schedules, out.Seed, out.Schedules)
		}
		if r.Error != "" {
			errs = append(errs, fmt.Errorf("report %d: %s", i, r.Error))
		}
		for _, s := range r.Shards {
			n := max(s.Count, 1)
			if count >= 0 && n != count {
				return Report{}, fmt.Errorf("merge: report %d has shard %s of a search in %d shards; others in %d", i, s, n, count)
			}
			count = n
			if have[s.Index] {
				return Report{}, fmt.Errorf("merge: shard %s twice", s)
			}
			have[s.Index] = true
		}
		out.Ran += r.Ran
		out.Violations = append(out.Violations, r.Violations...)
		for _, n := range r.NotExplored {
			out.NotExplored = append(out.NotExplored, fmt.Sprintf("report %d: %s", i, n))
		}
	}
	for i := range max(count, 0) {
		if !have[i] {
			return Report{}, fmt.Errorf("merge: shard %d/%d missing", i, count)
		}
		out.Shards = append(out.Shards, Shard{Index: i, Count: count})
	}
	out.Violations = Sort(out.Violations)
	if err := errors.Join(errs...); err != nil {
		out.Error = err.Error()
	}
	return out, nil
}

// Read reads a report file.
func Read(path string) (Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Report{}, fmt.Errorf("report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return Report{}, fmt.Errorf("report %s: %w", path, err)
	}
	return r, nil
}

// Write writes r to path as indented JSON.
func Write(path string, r Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// String lists the violations, each once with its replay.
func (r Report) String() string {
	var b strings.Builder
	found := func(v Violation) string { return fmt.Sprintf("first found by schedule %d", v.Schedule) }
	if r.Replay != "" {
		fmt.Fprintf(&b, "explore: a replay of seed %q (%d runs, no search), %d violations\n", r.Replay, r.Ran, len(r.Violations))
		found = func(Violation) string { return "found by the replay" }
	} else {
		fmt.Fprintf(&b, "explore: %d schedules run (seed %d, shards %d), %d violations\n", r.Ran, r.Seed, len(r.Shards), len(r.Violations))
	}
	for _, v := range r.Violations {
		fmt.Fprintf(&b, "\n%s violated: %s\n  %s\n  replay: explore.Options{Replay: %q}\n", v.Invariant, v.Message, found(v), v.Replay)
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "\nerror: %s\n", r.Error)
	}
	return b.String()
}
