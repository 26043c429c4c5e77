// Package reset holds what a schedule starts from and the states it is
// told apart by: the backends that run schedules (Backend: Server, on
// API servers, and Fake, on a new fake client each), the reset between
// two schedules on a server (what the previous schedule's book left,
// Leftover and Leftovers; the requests that delete it, or restore what
// was there before the search, Before, as it was then, All; the
// scenario's objects made anew, Create; what the next schedule's book
// may take for absent without reading it, Gone and StillGone), a
// DeleteAllOf served as the server's collection delete, and the hashes
// of a run's state by which the search prunes (State, Hash, DrainHash).
//
// It holds no choice of the search and no state of a run: the book says
// what to undo, the explorer gives a State its values, and the floors of
// the kinds (what a schedule knows of each kind's newest revision, which
// a Leftover carries) are internal/informers' (Floors.AfterReset takes
// the leftovers). It imports no package of the explorer's module but
// book (imports_test.go in the explorer's folder checks it).
package reset
