// Package cisteps holds the tests of CI's step graph, .ci/steps.mk: make
// runs it with a stand-in for .ci/step that only records each step's start
// and end, and the tests check what .ci/run relies on (every step once,
// each after the steps it needs, two at a time, a failure stopping only
// the steps that need the failed one). It has no code of its own.
package cisteps
