package releaseproxy

import (
	"fmt"
	"os"

	"golang.org/x/mod/modfile"
)

// RequiredVersion is the version of module that the go.mod at path
// requires.
func RequiredVersion(path, module string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return RequiredIn(path, data, module)
}

// RequiredIn is the version of module that the go.mod text data (named
// name in errors) requires.
func RequiredIn(name string, data []byte, module string) (string, error) {
	f, err := modfile.ParseLax(name, data, nil)
	if err != nil {
		return "", err
	}
	for _, r := range f.Require {
		if r.Mod.Path == module {
			return r.Mod.Version, nil
		}
	}
	return "", fmt.Errorf("%s does not require %s", name, module)
}
