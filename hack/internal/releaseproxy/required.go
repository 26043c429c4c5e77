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
	f, err := modfile.ParseLax(path, data, nil)
	if err != nil {
		return "", err
	}
	for _, r := range f.Require {
		if r.Mod.Path == module {
			return r.Mod.Version, nil
		}
	}
	return "", fmt.Errorf("%s does not require %s", path, module)
}
