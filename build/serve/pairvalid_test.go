package serve

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPairViewValidHTML runs the Nu HTML checker over the translator's
// view as served: the index, filtered and not, a pair in each state,
// both missing sides, and a refused mark. Without the checker (java and
// build/internal/validate's node_modules, which make test installs) the
// test is skipped, except under CI=true, where it fails.
func TestPairViewValidHTML(t *testing.T) {
	java, err := exec.LookPath("java")
	vnu, _ := filepath.Abs(filepath.Join("..", "internal", "validate", "node_modules", "vnu-jar", "build", "dist", "vnu.jar"))
	if _, serr := os.Stat(vnu); err != nil || serr != nil {
		msg := "no java or no " + vnu + ": install a JRE and run `npm ci --ignore-scripts` in build/internal/validate (make test does)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; the checker is required under CI=true")
		}
		t.Skip(msg)
	}
	_, ts, _ := newPairServer(t)
	c := ts.Client()
	dir := t.TempDir()
	var files []string
	save := func(name, body string) {
		p := filepath.Join(dir, name+".html")
		must(t, os.WriteFile(p, []byte(body), 0o644))
		files = append(files, p)
	}
	for name, page := range map[string]string{
		"index": "/_pair/", "index-stale": "/_pair/?state=stale", "index-ko": "/_pair/?lang=ko&state=unmarked",
		"current": "/_pair/ko/cka/01-intro/", "stale": "/_pair/ko/cka/02-inside/", "unmarked": "/_pair/cka/03-ops/",
		"missing-translation": "/_pair/ko/cka/04-exam/", "missing-original": "/_pair/ja/about/",
	} {
		code, body := getWith(t, c, ts.URL+page, nil)
		if code != 200 {
			t.Fatalf("%s: %d", page, code)
		}
		save(name, body)
	}
	_, _, body := post(t, c, ts.URL+markPath, url.Values{"path": {"content/ja/cka/01-intro.md"}}, nil)
	save("refused-token", body)
	form := markForm(t, c, ts.URL, "/_pair/ko/cka/02-inside/", "content/ko/cka/02-inside.md")
	form.Set("path", "content/ja/cka/02-inside.md")
	_, _, body = post(t, c, ts.URL+markPath, form, nil)
	save("refused-original", body)

	cmd := exec.Command(java, append([]string{"-jar", vnu, "--errors-only", "--format", "json", "--stdout"}, files...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output() // exits 1 when it reports errors
	var res struct {
		Messages []vnuMessage `json:"messages"`
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		t.Fatalf("vnu: %v (%v)\n%s\n%s", err, jerr, out, stderr.String())
	}
	for _, m := range res.Messages {
		t.Errorf("vnu: %s:%d.%d: %s\n        at: %s", filepath.Base(m.URL), m.LastLine, m.FirstColumn, m.Message, strings.TrimSpace(m.Extract))
	}
	t.Logf("vnu checked %d pages", len(files))
}

// vnuMessage is one message of the Nu HTML checker's JSON output.
type vnuMessage struct {
	Type        string `json:"type"`
	URL         string `json:"url"`
	LastLine    int    `json:"lastLine"`
	FirstColumn int    `json:"firstColumn"`
	Message     string `json:"message"`
	Extract     string `json:"extract"`
}
