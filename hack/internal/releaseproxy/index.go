package releaseproxy

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Caches are where the caller's go command keeps modules (ModCache) and
// builds (GoCache, "off" or empty: none), the Go versions that may have
// indexed a module of ModCache in GoCache (the caller's and each toolchain
// GOTOOLCHAIN downloaded into ModCache), and the modules a proxy served
// into them ("module@version", Use's listing): what Drop drops.
type Caches struct {
	ModCache, GoCache string
	GoVersions        []string
	Served            []string
}

// The go command's module index (cmd/go/internal/modindex) keeps one entry
// per module-cache folder in the build cache, found by a hash of the Go
// version and the folder's path alone: a module's files are taken to
// never change. A version this repository rebuilds at the same path
// changes them, and a stale entry would hand the go command the file list
// and imports of the build before (a file added since is silently left
// out). So every drop of a folder drops its entry for every Go version
// that may have written one, and the go command indexes the new build as
// it first reads it, as it would a user's download.

// indexVersion is the index format the go command's moduleHash names
// (modindex's indexVersion, the same in every supported line's Go):
// TestDropIndexDropsWhatTheGoCommandReads fails when a Go version names
// another.
const indexVersion = "go index v2"

// IndexEntry is the build cache's file of the go command's module index of
// the module-cache folder dir, as Go version v writes it: cmd/go's
// cache.NewHash("moduleIndex") salted with the version (without a
// GOEXPERIMENT suffix), over "module index <v> <indexVersion> <dir>\n",
// stored as <first byte in hex>/<hash in hex>-a.
func IndexEntry(gocache, v, dir string) string {
	salt, _, _ := strings.Cut(v, " X:")
	sum := sha256.Sum256([]byte(fmt.Sprintf("%smodule index %s %s %s\n", salt, v, indexVersion, dir)))
	hex := fmt.Sprintf("%x", sum)
	return filepath.Join(gocache, hex[:2], hex+"-a")
}

// DropIndex removes the module index entries of the module-cache folders
// dirs, for each of c's Go versions. A missing entry is no error.
func DropIndex(c Caches, dirs []string) error {
	if c.GoCache == "" || c.GoCache == "off" {
		return nil
	}
	var errs []error
	for _, d := range dirs {
		for _, v := range c.GoVersions {
			if err := os.Remove(IndexEntry(c.GoCache, v, d)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("dropping the go command's module index of %s: %w", d, err))
			}
		}
	}
	return errors.Join(errs...)
}

// toolchainsIn is the Go version goversion and those of the toolchains in
// modcache (golang.org/toolchain@v0.0.1-<go version>.<goos>-<goarch>),
// each once.
func toolchainsIn(modcache, goversion string) []string {
	out := []string{goversion}
	ents, _ := os.ReadDir(filepath.Join(modcache, "golang.org"))
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "toolchain@v0.0.1-")
		if !ok {
			continue
		}
		if i := strings.LastIndex(rest, "."); i > 0 {
			rest = rest[:i]
		}
		if rest != "" && !slices.Contains(out, rest) {
			out = append(out, rest)
		}
	}
	return out
}
