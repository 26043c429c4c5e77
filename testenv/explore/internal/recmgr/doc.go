// Package recmgr runs the operator's Scenario.Setup on a manager that
// builds nothing but records: each controller it completes is read back
// (its name, reconciler, For object, watches with their handlers and
// predicates), the field indexes it registers are kept, and the caches it
// adds go to the process that serves the manager's config
// (internal/served). Setup runs again for every schedule and every
// restart, on a new manager each time. The manager's cache (GetCache)
// builds nothing either: of its informers it has only their stores'
// resourceVersions, which the explorer's modelled cache answers (Stores).
//
// Run is the package's API; Controller, Watch, Indexes, Env and Stores
// are what it takes and gives. It imports no package of the explorer's module but
// crinternals and served (imports_test.go in the explorer's folder
// checks it).
package recmgr
