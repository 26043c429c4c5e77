package explore

import (
	"context"
	"errors"
	"fmt"

	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// Shard is one of Count parts of a random search (Options.Seed and
// Options.Schedules): the schedules whose index is Index modulo Count.
// The zero Shard is the whole search.
type Shard = report.Shard

// Report is what Run writes to Options.Report, and what MergeReports
// makes of a sharded search's reports.
type Report = report.Report

// ShardFromEnv reads the shard from the environment: EXPLORE_SHARD=i/N
// (a CI matrix), or EXPLORE_SHARDS=N with the index in
// JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions 0 to N-1).
// Neither set: the whole search.
func ShardFromEnv() (Shard, error) { return report.ShardFromEnv() }

// MergeReports merges the reports of shards 0 to N-1 of one search into
// one that names every violation once, with its replay, as the unsharded
// search's report does. The explore-merge command does it from files:
//
//	go run github.com/statuspatch/statuspatch/testenv/cmd/explore-merge -o merged.json shard-*.json
func MergeReports(reports ...Report) (Report, error) { return report.Merge(reports) }

// validateShard checks the Options of a sharded random search.
func (o Options) validateShard() error {
	if err := o.Shard.Validate(); err != nil {
		return fmt.Errorf("explore: Options.Shard: %w", err)
	}
	if o.Schedules < 0 {
		return fmt.Errorf("explore: Options.Schedules is %d", o.Schedules)
	}
	if o.Schedules > 0 && o.Seed == 0 {
		return errors.New("explore: Options.Schedules needs Options.Seed: it counts the random search's schedules")
	}
	if !o.Shard.Whole() && o.Schedules == 0 {
		return errors.New("explore: Options.Shard needs Options.Seed and Options.Schedules: shards split a fixed set of random schedules")
	}
	return nil
}

// writeReport writes Options.Report, if set, and returns err, or the
// error of writing.
func (o Options) writeReport(ctx context.Context, res *Result, err error) error {
	if o.Report == "" {
		return err
	}
	auditResult(ctx, o, res)
	rep := Report{Seed: o.Seed, Schedules: o.Schedules, Replay: o.Replay, Shards: []Shard{o.Shard}, Violations: []report.Violation{}}
	if res != nil {
		rep.Ran, rep.NotExplored = res.Schedules, notExploredLines(res.NotExplored)
		for _, v := range res.Violations {
			rep.Violations = append(rep.Violations, report.Violation{
				Invariant: v.Invariant, Message: v.Message, Also: v.Also, Replay: v.Seed, Rank: v.Rank, RankReason: v.RankReason,
				Faulted: v.faulted, Own: severityOf(v).Own,
				Schedule: reportSchedule(v), Text: v.String(), Cause: reportCause(v.Cause),
				Bounds: &report.Bounds{Depth: v.Bounds.Depth, Versions: v.Bounds.Versions, StaleReads: v.Bounds.StaleReads, Level: v.Bounds.Level, Faults: v.Bounds.Faults, Random: v.Bounds.Random, Fixed: v.Bounds.Fixed, Replay: v.Bounds.Replay},
			})
		}
	}
	if rep.Shards[0].Whole() {
		rep.Shards[0] = Shard{Index: 0, Count: 1}
	}
	if err != nil {
		rep.Error = err.Error()
	}
	if werr := report.Write(o.Report, rep); werr != nil {
		return errors.Join(err, fmt.Errorf("explore: Options.Report: %w", werr))
	}
	return err
}

// reportCause is the report's record of a violation's Cause.
func reportCause(w *Write) *report.Cause {
	if w == nil {
		return nil
	}
	return &report.Cause{Kind: w.Kind, At: w.At, Audit: w.Audit}
}
