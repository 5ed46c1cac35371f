package mdtest

import (
	_ "embed"
	"encoding/json"
	"html"
	"os"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/util"
)

// Example is one example of the CommonMark spec or of the GFM spec.
type Example struct {
	Markdown string `json:"markdown"`
	HTML     string `json:"html"`
	Example  int    `json:"example"`
	Section  string `json:"section"`
	// Extensions are the words after "example" on the line opening a
	// spec.txt's example (ParseSpecText): the GFM extension it is about,
	// or "disabled".
	Extensions []string `json:"extensions,omitempty"`
}

// SpecVersion is the version of the CommonMark spec whose examples Spec
// returns: testdata/commonmark-0.31.2.json, from the npm package
// commonmark-spec@0.31.2 (https://spec.commonmark.org/0.31.2/; see
// testdata/README for its source and licence).
const SpecVersion = "0.31.2"

//go:embed testdata/commonmark-0.31.2.json
var specJSON []byte

// Spec returns the examples of the CommonMark spec, version SpecVersion,
// in order: Example is 1 for the first.
func Spec() ([]Example, error) {
	return parseSpec(specJSON)
}

// LoadSpec reads the examples of a spec.json (the format of the spec's
// test/spec_tests.py --dump-tests).
func LoadSpec(p string) ([]Example, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return parseSpec(b)
}

func parseSpec(b []byte) ([]Example, error) {
	var ex []Example
	if err := json.Unmarshal(b, &ex); err != nil {
		return nil, err
	}
	return ex, nil
}

var (
	headingID = regexp.MustCompile(`<h([1-6]) id="[^"]*">`)
	anchor    = regexp.MustCompile(`<a class="anchor" href="[^"]*" aria-label="[^"]*">#</a>`)
	figure    = regexp.MustCompile(`(?s)<figure class="code" data-lang="([^"]*)"[^>]*>\n<figcaption.*?</figcaption>\n<pre[^>]*><code>(.*?)</code></pre>\n</figure>\n?`)
	pre       = regexp.MustCompile(`(?s)<pre><code( class="[^"]*")?>(.*?)</code></pre>\n?`)
	tag       = regexp.MustCompile(`<[^>]*>`)
	void      = regexp.MustCompile(`<(br|hr|img|input)([^>]*?) />`)
	tableWrap = regexp.MustCompile(`(?s)<div class="table-wrap">\n(<table>.*?</table>\n)</div>\n?`)
)

// Normalize rewrites the markup kakehashi adds to what plain CommonMark
// HTML has, so that the spec's expected HTML can be compared with ours:
// heading IDs and self-links are dropped, a code figure becomes
// <pre><code class="language-LANG">, its highlighting undone ("text", the
// language of a block without one, gives no class), and the newline that
// ends its last line, which a figure leaves out unless the line is blank,
// put back. A table's scrolling wrapper is dropped. Void elements are
// written as HTML, <br>, not as XHTML, <br />.
func Normalize(h string) string {
	h = void.ReplaceAllString(h, "<$1$2>")
	h = tableWrap.ReplaceAllString(h, "$1")
	h = headingID.ReplaceAllString(h, "<h$1>")
	h = anchor.ReplaceAllString(h, "")
	h = figure.ReplaceAllStringFunc(h, func(m string) string {
		g := figure.FindStringSubmatch(m)
		class := ""
		if g[1] != "text" {
			class = ` class="language-` + g[1] + `"`
		}
		text := html.UnescapeString(tag.ReplaceAllString(g[2], ""))
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return codeBlock(class, text)
	})
	h = pre.ReplaceAllStringFunc(h, func(m string) string {
		g := pre.FindStringSubmatch(m)
		return codeBlock(g[1], html.UnescapeString(g[2]))
	})
	return strings.TrimSpace(h)
}

// codeBlock writes code as goldmark writes a code block.
func codeBlock(class, text string) string {
	return "<pre><code" + class + ">" + string(util.EscapeHTML([]byte(text))) + "</code></pre>\n"
}
