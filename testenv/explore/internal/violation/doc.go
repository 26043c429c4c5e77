// Package violation holds what a schedule broke, as the run's trace
// records it (Record): the first violation, up to ten later ones (Also),
// the invariants of all of them, what each is about (Detail: the object,
// the fields, a loss of times or of order only, values written again),
// and the judgement after the schedule's end that takes one back or
// marks it so. It also ranks a violation (Severity, from judge.SeverityOf)
// and says what makes two distinct in a report (Key).
//
// It knows neither the run nor the search: the root's trace calls it as
// the checks judge, and the root's Violation carries a Record's fields to
// the user. It imports only judge (the invariants' severities and the
// restorations) and outcome (the write a message names as its cause).
package violation
