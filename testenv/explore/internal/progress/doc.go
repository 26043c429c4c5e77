// Package progress writes a search's progress lines: every period one
// line with what the search runs (SetPhase), the schedules run (Ran) and
// their rate, those pruned, the distinct violations met so far (as the
// report keeps them) and the schedules that found them, and the time
// left of the budget; when it ends, one summary line (Done). The explorer's
// Options.Progress, ProgressEvery and Quiet choose the writer, the period
// and whether there are lines at all (a nil *Lines writes none):
//
//	explore: level 1 (Depth 5, Versions 5, StaleReads 8): 1234 schedules, 9.8/s, 211 pruned, 1 violation (found by 5 schedules), 7m32s left
//	explore: done in 10m0s: 6512 schedules, 10.9/s, 1040 pruned, 1 violation (observedGeneration), at Depth 24, ...
//
// It holds the lines and their wording (Phase, Summary), not what the
// search found: the explorer hands it names, counts and bounds.
package progress
