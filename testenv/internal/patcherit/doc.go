// Package patcherit holds the patcher's integration tests on a real API
// server (testenv), kept out of the root module so that its tests do not
// compile etcd and the apiserver, and the tests of testenv/explore: this
// is the one test binary of the module besides testenv's own that links
// the server.
package patcherit
