// Package testenv starts a real Kubernetes API server for tests, in-process.
//
// The default backend runs the apiextensions-apiserver (the part of
// kube-apiserver that serves CustomResourceDefinitions and custom resources)
// on an embedded etcd, both inside the test binary: no binaries to download,
// no network. Installing a CRD gives real custom-resource storage with
// resourceVersion checks, a status subresource, merge patches, watches and
// server-side validation against the CRD's schema.
//
//	scheme := runtime.NewScheme()
//	_ = widgetv1.AddToScheme(scheme)
//	env := testenv.Start(t, testenv.WithCRDDirectory("config/crd/bases"), testenv.WithScheme(scheme))
//	err := env.Client.Create(ctx, &widgetv1.Widget{...})
//
// That server has no core API group and no /apis discovery root, so there are
// no Namespaces (objects may be created in any namespace name), Leases, Events
// or Secrets, and discovery-based RESTMappers do not work. Env.Mapper is built
// from the installed CRDs instead, and Env.Client and Env.NewManager use it.
//
// If KUBEBUILDER_ASSETS names a directory with kube-apiserver and etcd
// binaries, controller-runtime's envtest runs them instead, behind the same
// Env API (see WithBackend). testenv never downloads anything.
package testenv
