package gocmd

// Fake is a Go for tests that runs nothing: it records each command it is
// given, as Cmd.String has it, and answers from Answer (nil: no output,
// no error).
type Fake struct {
	Ran    []string
	Answer func(Cmd) (string, error)
}

func (f *Fake) answer(c Cmd) (string, error) {
	f.Ran = append(f.Ran, c.String())
	if f.Answer == nil {
		return "", nil
	}
	return f.Answer(c)
}

// Run implements Go.
func (f *Fake) Run(c Cmd) error {
	_, err := f.answer(c)
	return err
}

// Output implements Go.
func (f *Fake) Output(c Cmd) (string, error) { return f.answer(c) }

// Combined implements Go.
func (f *Fake) Combined(c Cmd) (string, error) { return f.answer(c) }
