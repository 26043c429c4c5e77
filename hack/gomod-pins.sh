# Sourced by hack/newcomer-test.sh: what adopting statuspatch may and may
# not do to a user's ./go.mod (hack/installroute's pins.go checks the same
# in Go, for install-test.sh and adopt-lines.sh, until newcomer-test.sh is
# Go too).
#
#   snapshot            records ./go.mod's requirements, replace directives
#                       and go/toolchain lines in $PINS_DIR
#   check_pins STEP     every recorded requirement is still there at its
#                       version (new ones may appear), the go/toolchain lines
#                       and the replace directives are as recorded; else it
#                       says what moved, prefixed with $PINS_WHO, and exits 1

# requirements prints "path version" for every require of ./go.mod;
# replaces prints every replace directive, one a line; golines the go and
# toolchain lines.
requirements() {
	awk '/^require \($/ { b = 1; next } b && /^\)/ { b = 0; next } b { print $1, $2; next } /^require / { print $2, $3 }' go.mod | sort
}
replaces() {
	awk '/^replace \($/ { b = 1; next } b && /^\)/ { b = 0; next } b { print; next } /^replace / { sub(/^replace /, ""); print }' go.mod |
		sed -E 's/^[[:space:]]+//' | sort
}
golines() { awk '$1 == "go" || $1 == "toolchain"' go.mod; }
snapshot() {
	requirements >"$PINS_DIR/pinned.req"
	replaces >"$PINS_DIR/pinned.replace"
	golines >"$PINS_DIR/pinned.go"
}
# check_pins STEP: every requirement recorded by snapshot is still there at
# its version (new ones may appear), the go and toolchain lines and the
# replace directives are as recorded.
check_pins() {
	local bad=0 path ver now
	requirements >"$PINS_DIR/now.req"
	while read -r path ver; do
		now=$(awk -v p="$path" '$1 == p { print $2 }' "$PINS_DIR/now.req")
		if [[ $now != "$ver" ]]; then
			echo "$PINS_WHO: after $1: go.mod requires $path ${now:-(nothing)}, it required $ver before" >&2
			bad=1
		fi
	done <"$PINS_DIR/pinned.req"
	if ! diff -u "$PINS_DIR/pinned.go" <(golines) >&2; then
		echo "$PINS_WHO: after $1: go.mod's go/toolchain lines changed (above)" >&2
		bad=1
	fi
	if ! diff -u "$PINS_DIR/pinned.replace" <(replaces) >&2; then
		echo "$PINS_WHO: after $1: go.mod's replace directives changed (above)" >&2
		bad=1
	fi
	[[ $bad == 0 ]] || exit 1
	echo "ok: after $1: $(wc -l <"$PINS_DIR/pinned.req") requirements, $(wc -l <"$PINS_DIR/pinned.replace") replace directives and '$(tr '\n' ' ' <"$PINS_DIR/pinned.go")' unchanged; $(( $(wc -l <"$PINS_DIR/now.req") - $(wc -l <"$PINS_DIR/pinned.req") )) requirements added"
}

