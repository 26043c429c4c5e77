package search

// A Level is what one level of a deepening search ran: its Schedules,
// whether it was Exhausted, whether a bound that deepens Cut the choices
// of one of them, and Stop: it found what ends the search (the first
// failure, when the search stops at it).
type Level struct {
	Schedules            int
	Exhausted, Cut, Stop bool
}

// Deepen runs the levels 0, 1, ... last of an iterative deepening, each
// a whole search (run) at deeper bounds than the one before. It stops at
// an error, a level that Stops, a level not exhausted, the end of the
// budget (inBudget), the last level, a level none of whose schedules a
// bound that deepens cut short (the next level would run the same
// schedules), or a level that ran no more schedules than the one before:
// its deeper bounds bound nothing, nor will the next's. A level's
// failures do not stop it: the next level searches on. more reports that
// it stopped with space left: its last level not exhausted, or exhausted
// with a bound that deepens still cutting it.
func Deepen(last int, inBudget func() bool, run func(level int) (Level, error)) (more bool, err error) {
	prev := 0
	for k := 0; ; k++ {
		l, err := run(k)
		cut := l.Cut && (k == 0 || l.Schedules != prev)
		if err != nil || l.Stop || !l.Exhausted || !inBudget() || k == last || !cut {
			return !l.Exhausted || cut, err
		}
		prev = l.Schedules
	}
}
