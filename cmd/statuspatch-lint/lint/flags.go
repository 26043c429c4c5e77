package lint

import "strconv"

// notFlag is a boolean flag that sets the negation of *p: a flag on by
// default (-nonstatus-unsent) whose Config field is false by default, so
// that NewAnalyzer(Config{}) (the golangci-lint plugin, tests) has the
// flag's default.
type notFlag struct{ p *bool }

func (f notFlag) String() string {
	if f.p == nil {
		return "false" // the zero Value flag.PrintDefaults compares with
	}
	return strconv.FormatBool(!*f.p)
}

func (f notFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*f.p = !v
	return nil
}

func (f notFlag) IsBoolFlag() bool { return true }
