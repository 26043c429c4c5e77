// Package types is a stand-in for gomega's types package: the Assertion
// and matcher interfaces the linter's tests use.
package types

// GomegaMatcher matches an actual value.
type GomegaMatcher interface {
	Match(actual interface{}) (bool, error)
}

// Assertion is what Expect returns.
type Assertion interface {
	Should(matcher GomegaMatcher, optionalDescription ...interface{}) bool
	ShouldNot(matcher GomegaMatcher, optionalDescription ...interface{}) bool
	To(matcher GomegaMatcher, optionalDescription ...interface{}) bool
	ToNot(matcher GomegaMatcher, optionalDescription ...interface{}) bool
	NotTo(matcher GomegaMatcher, optionalDescription ...interface{}) bool
}
