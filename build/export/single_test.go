package export

import (
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
)

func TestSingleFile(t *testing.T) {
	s := output.New()
	s.Put("css/main.css", []byte("body{color:black}</style><script>x</script>"))
	s.Put("css/chroma.css", []byte(".chroma{}"))
	s.Put("css/calc.3f2a1c9e.css", []byte(".calc-title{}")) // under a hashed name
	s.Put("css/print.css", []byte("@page{size:A4}"))
	s.Put("js/main.js", []byte("console.log(1)"))
	s.Put("ja/cka/05-b/d.png", []byte("PNG"))
	s.Put("img/x.svg", []byte("<svg/>"))
	series := &render.Series{ID: "cka", Title: `CKA "講座" </style>`, Parts: []render.PartRef{
		{Number: 2, URL: "/ja/cka/02-a/", Published: true},
		{Number: 4},
		{Number: 5, URL: "/ja/cka/05-b/", Published: true},
	}}
	pages := []*render.Page{
		{Kind: render.KindArticle, Lang: "ja", URL: "/ja/cka/05-b/", Part: 5, Title: "五", Series: series,
			Content: `<h2 id="matome">まとめ<a class="anchor" href="#matome">#</a></h2><p><a class="part-ref" href="../../../ja/cka/02-a/">#2</a> <a href="../02-a/#matome">x</a> <a href="https://kubernetes.io/">k8s</a></p><img src="d.png" alt="d" width="1" height="1"><img src="../../../img/x.svg" alt="x"><img src="https://example.org/e.png" alt="e">`,
			TOC:     []render.TOCEntry{{Level: 2, ID: "matome", Text: "まとめ"}}, Date: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
			Styles: []string{"/css/calc.css"}}, // a calculator's
		{Kind: render.KindArticle, Lang: "ja", URL: "/ja/cka/02-a/", Part: 2, Title: "二", Series: series,
			Content: `<h2 id="matome">まとめ</h2>`, TOC: []render.TOCEntry{{Level: 2, ID: "matome", Text: "まとめ"}}},
		{Kind: render.KindHome, Lang: "ja", URL: "/ja/", Title: "home"},
	}
	site := &render.Site{Assets: render.Assets{"/css/calc.css": "/css/calc.3f2a1c9e.css"}}
	for _, p := range pages {
		p.Site = site
	}
	docs, err := SingleFile(Course{Site: s, Pages: pages, T: func(lang, key string) string {
		return map[string]string{"toc": "目次", "date_format": "2006年1月2日"}[key]
	}})
	if err != nil {
		t.Fatal(err)
	}
	doc := string(docs["ja"])
	for _, want := range []string{
		`<html lang="ja">`,
		`body{color:black}<\/style><script>x<\/script>`, // inline, cannot close its element
		`<a href="#part-2">#2 二</a>`,                    // TOC in part order: #2 before #5
		`id="p5-matome"`, `id="p2-matome"`,              // ids unique across parts
		`href="#p5-matome"`,                                         // in-page link follows its id
		`class="part-ref" href="#part-2"`,                           // a part link lands in the document
		`href="#p2-matome"`,                                         // a link into another part too
		`href="https://kubernetes.io/"`,                             // outside links stay
		`class="single-part article" id="part-5"`,                   // each part is a page-breaking article
		`.single-part{break-before:page`,                            // each part starts a new printed page
		`.calc-title{}`,                                             // the styles a part declared, found under their hashed name
		`<style media="print">@page{size:A4}`,                       // the theme's print stylesheet, for paper only
		`@page{@top-right{content:"CKA \22 講座\22  \3c /style\3e ";`, // the title atop each page, quoted
		`2026年11月2日`,
		`<img src="data:image/png;base64,UE5H" alt="d" width="1" height="1">`, // the images inside the document
		`<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="x">`,
		`<img src="https://example.org/e.png" alt="e">`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Index(doc, `id="part-2"`) > strings.Index(doc, `id="part-5"`) {
		t.Error("parts not in series order")
	}
	if strings.Contains(doc, "home") {
		t.Error("a non-article page was included")
	}
	ids := map[string]int{}
	for _, m := range regexp.MustCompile(`\sid="([^"]*)"`).FindAllStringSubmatch(doc, -1) {
		ids[m[1]]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q appears %d times", id, n)
		}
	}
	if regexp.MustCompile(`\s(src|href)="(\.\./|/)`).MatchString(doc) {
		t.Error("the single file refers to another file")
	}
}

// TestSingleFileStyles: a document carries the theme's stylesheet, the
// code blocks' and exactly those its parts' components declared
// (render.Page.Styles), each once, in the order a page links them; a
// document of parts that declare none carries no component's.
func TestSingleFileStyles(t *testing.T) {
	s := output.New()
	s.Put("css/main.css", []byte(".main{}"))
	s.Put("css/chroma.css", []byte(".chroma{}"))
	s.Put("css/calc.css", []byte(".calc{}"))
	s.Put("css/tabs.css", []byte(".tabs{}"))
	s.Put("css/print.css", []byte(""))
	s.Put("js/main.js", []byte(""))
	site := &render.Site{Langs: []string{"ja", "ko"}}
	series := func(lang string) *render.Series {
		return &render.Series{ID: "cka", Parts: []render.PartRef{{Number: 1, URL: "/" + lang + "/cka/01/"}, {Number: 2, URL: "/" + lang + "/cka/02/"}}}
	}
	ja, ko := series("ja"), series("ko")
	pages := []*render.Page{
		{Site: site, Kind: render.KindArticle, Lang: "ja", URL: "/ja/cka/02/", Part: 2, Series: ja, Styles: []string{"/css/calc.css", "/css/tabs.css"}},
		{Site: site, Kind: render.KindArticle, Lang: "ja", URL: "/ja/cka/01/", Part: 1, Series: ja, Styles: []string{"/css/tabs.css"}},
		{Site: site, Kind: render.KindArticle, Lang: "ko", URL: "/ko/cka/01/", Part: 1, Series: ko},
	}
	docs, err := SingleFile(Course{Site: s, Pages: pages, T: func(lang, key string) string { return key }})
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{
		"ja": ".main{}\n.chroma{}\n.tabs{}\n.calc{}\n", // part #1's tabs first
		"ko": ".main{}\n.chroma{}\n",
	} {
		_, styles, _ := strings.Cut(string(docs[lang]), "<style>")
		styles, _, ok := strings.Cut(styles, singleCSS)
		if !ok {
			t.Fatalf("%s: no stylesheet", lang)
		}
		if styles != want {
			t.Errorf("%s: styles %q, want %q", lang, styles, want)
		}
	}
}

// countingSource is a source file of n bytes that counts the bytes read
// from it.
type countingSource struct {
	n    int64
	read int64
}

func (c *countingSource) open() (io.ReadCloser, error) {
	return io.NopCloser(&countReader{r: io.LimitReader(zeros{}, c.n), n: &c.read}), nil
}

type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

type countReader struct {
	r io.Reader
	n *int64
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	*c.n += int64(n)
	return n, err
}

// TestSingleFileLargeImage: an image up to MaxInlineImage goes inside the
// document; a larger one stays a link, with a warning, and no more of it
// than the limit is read, whether its size is known from the build or it
// grew since.
func TestSingleFileLargeImage(t *testing.T) {
	tests := []struct {
		name       string
		size, real int64 // the size the build found, and what the file holds
		inline     bool
		maxRead    int64
	}{
		{"at the limit", MaxInlineImage, MaxInlineImage, true, MaxInlineImage},
		{"over the limit", 700 << 20, 700 << 20, false, 0},
		{"grown past the limit", 1 << 10, 700 << 20, false, MaxInlineImage + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := output.New()
			src := &countingSource{n: tt.real}
			s.PutLazy("ja/cka/05-b/big.png", output.NewSource(1, tt.size, src.open))
			series := &render.Series{ID: "cka", Title: "CKA", Parts: []render.PartRef{{Number: 5, URL: "/ja/cka/05-b/", Published: true}}}
			page := &render.Page{Kind: render.KindArticle, Lang: "ja", URL: "/ja/cka/05-b/", Part: 5, Title: "五", Series: series,
				Content: `<p><img src="big.png" alt="big"></p>`}
			var warnings []string
			docs, err := SingleFile(Course{Site: s, Pages: []*render.Page{page}, T: func(lang, key string) string { return key },
				Warn: func(msg string) { warnings = append(warnings, msg) }})
			if err != nil {
				t.Fatal(err)
			}
			doc := string(docs["ja"])
			if got := strings.Contains(doc, `<img src="data:image/png;base64,`); got != tt.inline {
				t.Errorf("inlined: %v, want %v", got, tt.inline)
			}
			if src.read > tt.maxRead {
				t.Errorf("read %d bytes of the image, want at most %d", src.read, tt.maxRead)
			}
			if tt.inline {
				if len(warnings) != 0 {
					t.Errorf("warnings for an inlined image: %q", warnings)
				}
				return
			}
			if !strings.Contains(doc, `<img src="big.png" alt="big">`) {
				t.Error("the image left out does not keep its link")
			}
			want := "the image /ja/cka/05-b/big.png (700.0 MB) that /ja/cka/05-b/ shows is larger than the 8 MB an image may be inside a single-file document: it stays a link to the file, shown only beside a copy of it"
			if tt.size < MaxInlineImage {
				want = strings.Replace(want, "700.0 MB", "over 8 MB", 1)
			}
			if len(warnings) != 1 || warnings[0] != want {
				t.Errorf("warnings:\n%q\nwant\n%q", warnings, want)
			}
		})
	}
}
