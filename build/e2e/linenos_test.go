package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// lineNumbersSite is one page of code blocks with numbered lines, each
// way Hugo numbers them, one with a shell prompt and one with the blank
// lines it ends with.
const lineNumbersSite = "-- content/ja/_index.md --\n---\ntitle: 行番号\n---\n" +
	"```go {linenos=table hl_lines=[2]}\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n" +
	"```text {linenos=inline linenostart=9}\nnine\nten\neleven\n```\n\n" +
	"```yaml {linenos=true anchorlinenos=true}\na: 1\nb: 2\n```\n\n" +
	"```console {linenos=inline}\n$ kubectl get nodes\nNAME  STATUS\n```\n\n" +
	"```text {linenos=table}\nlast\n\n\n```\n"

// TestCopyWithLineNumbers: the copy button of a block with numbered
// lines copies the code alone, in a table of numbers and with the numbers
// inline (a shell session's prompt and output still left behind), and a
// reader selecting the lines by hand selects no number either.
func TestCopyWithLineNumbers(t *testing.T) {
	in := afero.NewMemMapFs()
	for _, f := range txtar.Parse([]byte(lineNumbersSite)).Files {
		if err := afero.WriteFile(in, f.Name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bld, err := build.New(in, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bld.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := output.Publish(context.Background(), afero.NewOsFs(), dir, res.Site); err != nil {
		t.Fatal(err)
	}
	base := serve(t, dir)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	run(t, ctx, chromedp.Navigate(base+"/ja/"), chromedp.WaitVisible(chromedp.CSS(`figure.code`)))
	if got := evalString(t, ctx, `String(document.querySelectorAll("figure.code").length)`); got != "5" {
		t.Fatalf("%s code blocks, want 5", got)
	}
	// Record what the page hands the clipboard, press every copy button
	// in turn, and select each block's code by hand.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.__copied = [];
		navigator.clipboard.writeText = (s) => { window.__copied.push(s); return Promise.resolve(); };
		document.querySelectorAll("figure.code").forEach((f, i) => { f.dataset.n = i + 1; });
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		n := strconv.Itoa(i)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`figure.code[data-n="`+n+`"] .code-copy`))); err != nil {
			t.Fatalf("copy button %d: %v", i, err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.__copied.length >= `+n+` || null`)); err != nil {
			t.Fatalf("copy button %d copied nothing: %v", i, err)
		}
	}
	var copied []string
	if err := json.Unmarshal([]byte(evalString(t, ctx, `JSON.stringify(window.__copied)`)), &copied); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"func main() {\n\tfmt.Println(\"hi\")\n}",
		"nine\nten\neleven",
		"a: 1\nb: 2",
		"kubectl get nodes",
		"last",
	}
	if strings.Join(copied, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("copied %q, want %q", copied, want)
	}
	var selected []string
	js := `JSON.stringify([...document.querySelectorAll("figure.code")].map(f => {
		const s = getSelection();
		s.removeAllRanges();
		s.selectAllChildren(f.querySelector(".lntable") || f.querySelector("pre"));
		return s.toString();
	}))`
	if err := json.Unmarshal([]byte(evalString(t, ctx, js)), &selected); err != nil {
		t.Fatal(err)
	}
	shown := []string{want[0], want[1], want[2], "$ kubectl get nodes\nNAME  STATUS", "last"}
	for i, s := range selected {
		if i >= len(shown) || strings.Trim(s, "\n") != shown[i] {
			t.Errorf("selecting block %d by hand selects %q, want its code alone", i+1, s)
		}
	}
	// The anchored block's numbers link to the lines, by Hugo's ids.
	if got := evalString(t, ctx, `[...document.querySelectorAll("figure.code[data-n=\"3\"] a.lnlinks")].map(a => a.getAttribute("href")).join(" ")`); got != "#hl-2-1 #hl-2-2" {
		t.Errorf("line links %q, want #hl-2-1 #hl-2-2", got)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}
