package shortcodes

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportRule checks the rule in the package comment: shortcodes, its
// subpackages and i18n import nothing under build/ but build/diag and
// build/markdown (the extension seam). It reads the import graph with go
// list -deps and names every forbidden edge. Tests are not part of the
// rule: a benchmark may load a course page with build/source.
func TestImportRule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const mod = "github.com/kakehashi-dev/kakehashi/"
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`,
		mod+"shortcodes/...", mod+"i18n/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	ruled := func(p string) bool {
		for _, r := range []string{"shortcodes", "i18n"} {
			if p == mod+r || strings.HasPrefix(p, mod+r+"/") {
				return true
			}
		}
		return false
	}
	allowed := map[string]bool{mod + "build/diag": true, mod + "build/markdown": true}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !ruled(fields[0]) {
			continue
		}
		checked++
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, mod+"build/") && !allowed[imp] {
				t.Errorf("forbidden import: %s imports %s (only build/diag and build/markdown are allowed)",
					strings.TrimPrefix(fields[0], mod), strings.TrimPrefix(imp, mod))
			}
		}
	}
	if checked < 4 {
		t.Fatalf("go list found %d of the ruled packages:\n%s", checked, out)
	}
}
