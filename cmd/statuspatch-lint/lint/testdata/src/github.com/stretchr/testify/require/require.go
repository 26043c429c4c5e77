// Package require is a stand-in for testify's require: NoError stops the
// test (t.FailNow) when err is not nil.
package require

// TestingT is what require's functions take.
type TestingT interface {
	Errorf(format string, args ...interface{})
	FailNow()
}

// NoError stops the test when err is not nil.
func NoError(t TestingT, err error, msgAndArgs ...interface{}) {}

// Error stops the test when err is nil.
func Error(t TestingT, err error, msgAndArgs ...interface{}) {}
