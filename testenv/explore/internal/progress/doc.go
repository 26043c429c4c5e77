// Package progress writes a search's progress lines: every period one
// line with what the search runs (SetPhase), the schedules run (Ran) and
// their rate, those pruned, the distinct violations met so far (as the
// report keeps them) and the schedules that found them, and the time
// left of the budget; when it ends, one summary line (Finish). The explorer's
// Options.Progress, ProgressEvery and Quiet choose the writer, the period
// and whether there are lines at all (a nil *Lines writes none).
package progress
