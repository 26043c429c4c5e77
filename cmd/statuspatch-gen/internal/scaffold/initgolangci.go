package scaffold

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// The linter's settings in .golangci.yml (docs/kubebuilder.md).
var statuspatchSettings = []string{
	"statuspatch:",
	"  type: module",
	"  description: reports handwritten status writes",
	"  settings:",
	"    audit: false",
	"    tests: false",
}

// editGolangci enables the statuspatch linter in .golangci.yml's text,
// keeping its comments and layout: statuspatch takes logcheck's place in
// linters.enable and linters.settings.custom (logcheck is built by
// .custom-gcl.yml, which the golangci-plugin build replaces), or is added
// after the last entry. The result is read back to check it.
func editGolangci(file, text string) (string, error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	linters, lend := yamlBlock(lines, -1, len(lines), "linters")
	if linters < 0 {
		return "", fmt.Errorf("%s: no linters: section", file)
	}
	enable, eend := yamlBlock(lines, linters, lend, "enable")
	if enable < 0 {
		return "", fmt.Errorf("%s:%d: linters has no enable: list", file, linters+1)
	}
	var items []int
	for i := enable + 1; i < eend; i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "- ") {
			items = append(items, i)
		}
	}
	if len(items) == 0 {
		return "", fmt.Errorf("%s:%d: linters.enable is not a block list", file, enable+1)
	}
	has := func(name string) int {
		for _, i := range items {
			if strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), "- ")), `"'`) == name {
				return i
			}
		}
		return -1
	}
	var edits []lineEdit
	if has("statuspatch") < 0 {
		last := items[len(items)-1]
		item := lines[last][:indentOf(lines[last])] + "- statuspatch"
		if i := has("logcheck"); i >= 0 {
			edits = append(edits, lineEdit{i, i + 1, []string{item}})
		} else {
			edits = append(edits, lineEdit{last + 1, last + 1, []string{item}})
		}
	}

	settings, send := yamlBlock(lines, linters, lend, "settings")
	custom, cend := -1, -1
	if settings >= 0 {
		custom, cend = yamlBlock(lines, settings, send, "custom")
	}
	if settings < 0 {
		// linters.settings is optional in golangci-lint v2: a settings:
		// block holding the plugin's, after linters' last line.
		ind := strings.Repeat(" ", childIndent(lines, linters, lend))
		block := []string{ind + "settings:", ind + "  custom:"}
		for _, l := range statuspatchSettings {
			block = append(block, ind+"    "+l)
		}
		last := lend
		for last > linters+1 && blank(lines[last-1]) {
			last--
		}
		// first: applied before an item enable: gets at the same line
		edits = append([]lineEdit{{last, last, block}}, edits...)
	} else if custom < 0 {
		ind := strings.Repeat(" ", childIndent(lines, settings, send))
		block := []string{ind + "custom:"}
		for _, l := range statuspatchSettings {
			block = append(block, ind+"  "+l)
		}
		edits = append(edits, lineEdit{settings + 1, settings + 1, block})
	} else if sp, _ := yamlBlock(lines, custom, cend, "statuspatch"); sp < 0 {
		ind := strings.Repeat(" ", childIndent(lines, custom, cend))
		var block []string
		for _, l := range statuspatchSettings {
			block = append(block, ind+l)
		}
		if lc, lcend := yamlBlock(lines, custom, cend, "logcheck"); lc >= 0 {
			edits = append(edits, lineEdit{lc, lcend, block})
		} else {
			edits = append(edits, lineEdit{custom + 1, custom + 1, block})
		}
	}
	// issues.max-same-issues: 0, as README.md's configuration has it:
	// golangci-lint's default (3) hides a finding whose text repeats, as
	// the kept writes of one shape do (sameIssuesNote).
	if issues, iend := yamlBlock(lines, -1, len(lines), "issues"); issues < 0 {
		// first: the file's last lines, below a settings: block added there
		edits = append([]lineEdit{{len(lines), len(lines), []string{"issues:", "  max-same-issues: 0"}}}, edits...)
	} else if ms, _ := yamlBlock(lines, issues, iend, "max-same-issues"); ms < 0 && strings.TrimSpace(lines[issues]) == "issues:" {
		ind := childIndent(lines, issues, iend)
		if ind <= indentOf(lines[issues]) {
			ind = indentOf(lines[issues]) + 2
		}
		edits = append(edits, lineEdit{issues + 1, issues + 1, []string{strings.Repeat(" ", ind) + "max-same-issues: 0"}})
	}
	// apply from the bottom up, so earlier indexes stay valid
	// (stable: of two at one line, the first listed is applied first and
	// ends up below the other)
	slices.SortStableFunc(edits, func(a, b lineEdit) int { return b.from - a.from })
	for _, e := range edits {
		lines = slices.Concat(lines[:e.from], e.lines, lines[e.to:])
	}
	out := strings.Join(lines, "\n") + "\n"
	if err := checkGolangci(out); err != nil {
		return "", fmt.Errorf("%s: enabling statuspatch: %w; add it by hand (docs/kubebuilder.md)", file, err)
	}
	return out, nil
}

// sameIssuesNote is what init says when it sets issues.max-same-issues.
const sameIssuesNote = "%s: issues.max-same-issues is set to 0, so golangci-lint shows every finding, not three of each text"

type lineEdit struct {
	from, to int
	lines    []string
}

// checkGolangci reads the edited config back: statuspatch enabled as a
// module plugin, logcheck (not in the golangci-plugin build) not enabled.
func checkGolangci(text string) error {
	var cfg struct {
		Linters struct {
			Enable   []string `json:"enable"`
			Settings struct {
				Custom map[string]struct {
					Type string `json:"type"`
				} `json:"custom"`
			} `json:"settings"`
		} `json:"linters"`
	}
	if err := yaml.Unmarshal([]byte(text), &cfg); err != nil {
		return err
	}
	switch {
	case !slices.Contains(cfg.Linters.Enable, "statuspatch"):
		return fmt.Errorf("linters.enable has no statuspatch")
	case slices.Contains(cfg.Linters.Enable, "logcheck"):
		return fmt.Errorf("linters.enable still has logcheck, which statuspatch's golangci-plugin build lacks")
	case cfg.Linters.Settings.Custom["statuspatch"].Type != "module":
		return fmt.Errorf("linters.settings.custom.statuspatch.type is not module")
	}
	return nil
}

// yamlBlock finds key among the direct children of the block whose header
// is line parent (-1 before the first line: the top level) and which ends
// before end; it returns the key's line and the end of its block, or -1.
func yamlBlock(lines []string, parent, end int, key string) (int, int) {
	ind := childIndent(lines, parent, end)
	for i := parent + 1; i < end; i++ {
		if blank(lines[i]) || indentOf(lines[i]) != ind || !strings.HasPrefix(strings.TrimSpace(lines[i]), key+":") {
			continue
		}
		j := i + 1
		for j < end && (blank(lines[j]) || indentOf(lines[j]) > ind || ind == indentOf(lines[j]) && strings.HasPrefix(strings.TrimSpace(lines[j]), "- ")) {
			j++
		}
		return i, j
	}
	return -1, -1
}

// childIndent is the indentation of the first non-blank line after parent.
func childIndent(lines []string, parent, end int) int {
	for i := parent + 1; i < end; i++ {
		if !blank(lines[i]) {
			return indentOf(lines[i])
		}
	}
	return 0
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

func blank(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || strings.HasPrefix(t, "#")
}
