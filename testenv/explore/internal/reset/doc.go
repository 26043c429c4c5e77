// Package reset holds the reset between two schedules on a server: what
// the previous schedule's book left (Leftover, Leftovers), the requests
// that delete it (All), the scenario's objects made anew (Create), and
// what the next schedule's book may take for absent without reading it
// (Gone, StillGone).
//
// It holds no choice of the search and no state of a run: the book says
// what to undo, and the floors of the kinds (what a schedule knows of
// each kind's newest revision, which a Leftover carries) are
// internal/informers' (Floors.AfterReset takes the leftovers). It
// imports no package of the explorer's module but book (imports_test.go
// in the explorer's folder checks it).
package reset
