# Sourced by hack/gomod.sh (the release, install and newcomer routes,
# hack/releaseroute and hack/installroute, call hack/internal/releaseproxy
# themselves): builds a file-based module proxy with this repository's modules at one version and points the
# go command at it, as a user's go command would see a published release.
#
#   use_release_proxy REPO VERSION WORKDIR
#   release_proxy_done        (in the script's EXIT trap)
#
# The logic is hack/releaseproxy's (hack/internal/releaseproxy: its doc
# says what the environment is and why, and what is dropped from the module
# cache; its tests check both, and the lock): these functions are its entry
# points, and it is built once per shell (_releaseproxy_build), before the
# script points PATH at an older Go, so that the EXIT trap finds it.
#
# After use_release_proxy: GOWORK=off; GOPROXY is the proxy, then the module
# cache's download directory, then the original GOPROXY; GONOSUMDB skips the
# checksum database for this repository only; GOMODCACHE is the caller's,
# from which every earlier copy of this repository's modules is dropped
# first, with the go command's module index of them; GOFLAGS gains
# -modcacherw.
#
# release_proxy_done drops the rebuilt copies again, still under the lock,
# so that a project of the caller's that later requires a published release
# of ours downloads it instead of meeting this checkout's build. Each script
# calls it from its own EXIT trap, in the shell that took the lock.
#
# Runs sharing that cache take turns: the first use_release_proxy of a shell
# (or lock_release_cache) opens the cache's lock file on a descriptor of the
# shell, and releaseproxy takes an exclusive flock on it, which stays with
# that descriptor until the shell exits; it says when it waits.
_statuspatch_hack=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# _releaseproxy_build: hack/releaseproxy, built once for this shell (and
# the subshells it starts afterwards).
_releaseproxy_build() {
	[[ -z ${_statuspatch_releaseproxy:-} ]] || return 0
	local bin
	bin=$(mktemp -d "${TMPDIR:-/tmp}/hack-releaseproxy.XXXXXX") || return 1
	if ! (cd "$_statuspatch_hack" && GOWORK=off GOFLAGS='' go build -o "$bin/releaseproxy" ./releaseproxy); then
		rm -rf "$bin"
		echo "modproxy-env: could not build hack/releaseproxy (above)" >&2
		return 1
	fi
	_statuspatch_releaseproxy=$bin/releaseproxy
}

lock_release_cache() {
	local cache
	_releaseproxy_build || return 1
	cache=$("$_statuspatch_releaseproxy" cache) || return 1
	# Not exported: a child script opens the lock anew and waits for ours,
	# so a holder must not wait for a child that sources this file.
	[[ ${_statuspatch_cache_locked:-} != "$cache" ]] || return 0
	exec {_statuspatch_cache_fd}>>"$cache/lock"
	"$_statuspatch_releaseproxy" lock -fd "$_statuspatch_cache_fd" -cache "$cache" || return 1
	_statuspatch_cache_locked=$cache
}

# release_proxy_done: for the EXIT trap of a script that sourced this file.
# It drops nothing in a shell that holds no lock (the script stopped before
# use_release_proxy), and a failed drop does not stop the rest of the trap.
release_proxy_done() {
	if [[ -n ${_statuspatch_cache_locked:-} && -n ${_statuspatch_releaseproxy:-} ]]; then
		"$_statuspatch_releaseproxy" done || true
	fi
	if [[ -n ${_statuspatch_releaseproxy:-} ]]; then
		rm -rf "$(dirname "$_statuspatch_releaseproxy")"
		_statuspatch_releaseproxy=
	fi
}

use_release_proxy() {
	local repo=$1 version=$2 work=$3 env
	lock_release_cache || return 1
	# The proxy's module@version lines go to standard output, the export
	# lines to descriptor 3, captured.
	{ env=$("$_statuspatch_releaseproxy" use -repo "$repo" -version "$version" -work "$work" -env-fd 3 3>&1 1>&4-); } 4>&1 || {
		echo "modproxy-env: could not build the module proxy of $repo at $version (hack/releaseproxy failed, above)" >&2
		return 1
	}
	eval "$env"
}
