// Package pluginsources holds the tests of hack/golangci-plugin/build.sh's
// digest: the files it covers (--sources) and the digest of them
// (--digest) that the plugin binary's version carries, so that
// golangci-lint's analysis cache, salted with the version, changes when
// the analyzers do. The tests run a copy of the script in a tree of their
// own. It has no code of its own.
package pluginsources
