// Package patcherit holds the patcher's integration tests on a real API
// server (testenv), kept out of the root module so that its tests do not
// compile etcd and the apiserver.
package patcherit
