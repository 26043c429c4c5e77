#!/usr/bin/env bash
# Checks facts the docs repeat from the code, so they cannot drift (run by
# `make lint`):
#  - the Go version a user needs ("Go 1.NN or newer") is the go line of the
#    runtime's go.mod, and the one this repository builds with ("Go (1.NN)")
#    is go.work's;
#  - docs/kubebuilder.md's tool versions are the tool modules' pins
#    (docs/compatibility.md's lines, the floor among them, are checked
#    against hack/lines.txt by hack/lines' tests, in make test);
#  - relative links in the Markdown files point to files that exist;
#  - no code block runs go vet with a -vettool that is empty when the tool
#    is missing ($(which ...), $(go tool -n ...)): go vet then checks
#    nothing and exits 0;
#  - one route per thing: a statuspatch-gen paths=./api/... line or a
#    lint-status target outside docs/kubebuilder.md's makefile block, or a
#    go install of a statuspatch tool outside README.md's install block,
#    must be word for word the home's (better: a link); nothing installs a
#    statuspatch module @latest.
# Each failure is file:line: what is wrong, and the exit status is 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fail=0
problem() { echo "$1: $2" >&2; fail=1; }

gomod_go=$(awk '$1 == "go" { print $2 }' go.mod)
go_minor=$(cut -d. -f1,2 <<<"$gomod_go")
gowork_go=$(awk '$1 == "go" { print $2 }' go.work)
work_minor=$(cut -d. -f1,2 <<<"$gowork_go")
mapfile -t docs < <(git ls-files -co --exclude-standard '*.md' | grep -v '/testdata/')

# 1. Go version.
for doc in "${docs[@]}"; do
	[[ -f $doc ]] || continue
	while IFS=: read -r line text; do
		v=$(grep -oE '1\.[0-9]+' <<<"$text" | head -1)
		[[ $v == "$go_minor" ]] || problem "$doc:$line" "says Go $v or newer is needed; the runtime's go.mod says go $gomod_go"
	done < <(grep -noE 'Go 1\.[0-9]+ or (newer|later)' "$doc" || true)
	while IFS=: read -r line text; do
		v=$(grep -oE '1\.[0-9]+' <<<"$text" | head -1)
		[[ $v == "$work_minor" ]] || problem "$doc:$line" "says this repository builds with Go $v; go.work says go $gowork_go"
	done < <(grep -noE 'Go \(1\.[0-9]+[,)]' "$doc" || true)
done

# 2. Version tables: docs/kubebuilder.md names the tools' pins.
table=docs/kubebuilder.md
modver() { awk -v m="$2" '$1 == m { print $2; exit }' "$1"; }
declare -A want=(
	[controller-tools]=$(modver cmd/statuspatch-gen/go.mod sigs.k8s.io/controller-tools)
	[golangci-lint]=$(modver hack/golangci-plugin/go.mod github.com/golangci/golangci-lint/v2)
)
for name in "${!want[@]}"; do
	row=$(grep -nF "| $name |" "$table" | head -1 || true)
	if [[ -z $row ]]; then
		problem "$table" "the versions table has no row for $name"
	elif ! grep -qF "| ${want[$name]} |" <<<"$row"; then
		problem "$table:${row%%:*}" "$name is ${want[$name]} in its go.mod, the table says otherwise"
	fi
done

# 3. Relative links.
for doc in "${docs[@]}"; do
	[[ -f $doc ]] || continue
	dir=$(dirname "$doc")
	while IFS=: read -r line target; do
		target=${target#](}
		target=${target%)}
		target=${target%%#*}
		[[ -z $target || $target == *://* || $target == mailto:* ]] && continue
		[[ -e $dir/$target ]] || problem "$doc:$line" "link to $target: no such file"
	done < <(sed -E 's/`[^`]*`//g' "$doc" | grep -noE '\]\([^)[:space:]]+\)' || true) # links outside code spans
done

# 4. Silent vet lines, in fenced code blocks.
# Exclusions, by file, for docs other engineers own (issue 15; remove when
# fixed): docs/lint.md still shows $(which statuspatch-lint).
silent_vet_excluded=" docs/lint.md "
for doc in "${docs[@]}"; do
	[[ -f $doc && $silent_vet_excluded != *" $doc "* ]] || continue
	while IFS=: read -r line _; do
		problem "$doc:$line" "go vet -vettool=\$(...) checks nothing, and passes, when the tool is missing; use lint=\$(go tool -n statuspatch-lint) && go vet -vettool=\"\$lint\", or a Makefile file target"
	done < <(awk '/^[[:space:]]*```/ { fenced = !fenced; next }
		fenced && /-vettool=["]?\$\((shell )?(which|go tool -n)/ { print FNR ":" }' "$doc")
done

# 5. One route per thing, in one home (issue 24). The project's
# statuspatch-gen line and the lint-status target live in
# docs/kubebuilder.md's makefile block, the install lines in README.md's
# install block; another page may link there, or repeat them word for word,
# but not with other text. No statuspatch tool is installed @latest.
home=docs/kubebuilder.md
home_block=$(sed -n '/<!-- makefile:begin -->/,/<!-- makefile:end -->/p' "$home")
home_gen=$(grep -m1 -oE 'STATUSPATCH_GEN\)"? paths=.*' <<<"$home_block" | sed -E 's/^[^ ]* //; s/[[:space:]]+$//' || true)
[[ -n $home_gen ]] || problem "$home" "the makefile block has no \$(STATUSPATCH_GEN) paths=... line (the home of the generate line)"
home_lint=$(awk '/^lint-status:/ { t = 1 } t && /^[^\t]/ && !/^lint-status:/ { t = 0 } t' <<<"$home_block")
[[ -n $home_lint ]] || problem "$home" "the makefile block has no lint-status target (the home of the lint target)"
install_block=$(sed -n '/<!-- install:begin -->/,/<!-- install:end -->/p' README.md | grep -vE '^(<!--|```|#)')
for doc in "${docs[@]}"; do
	[[ -f $doc ]] || continue
	# Lines of the home blocks themselves are the reference.
	skip=$(awk '/<!-- (makefile|install):begin -->/ { s = 1 } s { print FNR } /<!-- (makefile|install):end -->/ { s = 0 }' "$doc" | tr '\n' ' ')
	while IFS=: read -r line text; do
		[[ " $skip " == *" $line "* ]] && continue
		got=$(grep -oE 'paths=\./api/[^`#]*' <<<"$text" | head -1 | sed -E 's/[[:space:]]+$//')
		[[ $got == "$home_gen" ]] ||
			problem "$doc:$line" "a statuspatch-gen line other than docs/kubebuilder.md's (the one home): '$got', the home has '$home_gen'; link to docs/kubebuilder.md#makefile instead"
	done < <(grep -nE 'statuspatch-gen[^ ]*"? paths=\./api/' "$doc" || true)
	while IFS=: read -r line _; do
		[[ " $skip " == *" $line "* ]] && continue
		target=$(awk -v n="$line" 'FNR == n { t = 1; print; next } t && /^\t/ { print; next } t { exit }' "$doc")
		[[ $target == "$home_lint" ]] ||
			problem "$doc:$line" "a lint-status target other than docs/kubebuilder.md's (the one home); link to docs/kubebuilder.md#makefile instead"
	done < <(grep -nE '^lint-status:' "$doc" || true)
	while IFS=: read -r line _; do
		problem "$doc:$line" "installs a statuspatch module @latest: unpinned, it changes under the project; use the pinned lines of README.md's install block or docs/kubebuilder.md's Makefile"
	done < <(grep -nE 'github\.com/statuspatch/statuspatch[^ ]*@latest' "$doc" || true)
	while IFS=: read -r line text; do
		[[ " $skip " == *" $line "* ]] && continue
		cmd=$(grep -oE 'go install github\.com/statuspatch/statuspatch/cmd/[^ `]*' <<<"$text" | head -1)
		grep -qF -- "$cmd" <<<"$install_block" ||
			problem "$doc:$line" "'$cmd' is not a line of README.md's install block (the one home of the install lines); link to README.md#install instead"
	done < <(grep -nE 'go install github\.com/statuspatch/statuspatch/cmd/' "$doc" || true)
done

if [[ $fail -ne 0 ]]; then exit 1; fi
echo "check-docs: ok (runtime go $gomod_go, workspace go $gowork_go, ${#docs[@]} Markdown files)"
