# shellcheck shell=bash
# Sourced by .ci/run and .ci/step.
#
# cpu PID: CPU seconds of the processes shell PID has waited for (and of
# theirs), user and system (/proc/PID/stat's cutime and cstime).
cpu() {
	local s f
	s=$(<"/proc/$1/stat")
	read -ra f <<<"${s##*) }"
	echo $(((f[13] + f[14]) / $(getconf CLK_TCK)))
}
