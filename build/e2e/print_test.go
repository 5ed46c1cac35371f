package e2e

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

var (
	singleOnce sync.Once
	singleDir  string
	singleErr  error
)

// singleFileCourse writes the single-file course of each language
// (course-ja.html, course-ko.html), as kakehashi export --single-file
// does, once per test binary.
func singleFileCourse(t *testing.T) string {
	t.Helper()
	singleOnce.Do(func() {
		root, _ := filepath.Abs("../..")
		singleDir, singleErr = os.MkdirTemp("", "kakehashi-single-")
		if singleErr != nil {
			return
		}
		b, err := build.New(afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), root)), build.Options{ExplicitIndex: true, WasmRoot: root, WasmCache: filepath.Join(root, ".kakehashi-cache", "wasm")})
		if err != nil {
			singleErr = err
			return
		}
		res, err := b.Build(context.Background())
		if err != nil {
			singleErr = err
			return
		}
		docs, err := export.SingleFile(export.Course{Site: res.Site, Pages: res.Pages, T: b.T})
		if err != nil {
			singleErr = err
			return
		}
		for lang, doc := range docs {
			if singleErr = os.WriteFile(filepath.Join(singleDir, "course-"+lang+".html"), doc, 0o644); singleErr != nil {
				return
			}
		}
	})
	if singleErr != nil {
		t.Fatalf("writing the single-file course: %v", singleErr)
	}
	return singleDir
}

// printState is what a page shows under print media.
type printState struct {
	Controls int      `json:"controls"` // input, button, select and textarea elements
	Shown    []string `json:"shown"`    // those of them that would print
	Chrome   []string `json:"chrome"`   // parts of the site around the article that would print
	Widgets  int      `json:"widgets"`
	Answers  int      `json:"answers"` // widgets whose build-time answer prints
}

const printStateJS = `(() => {
	const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
	const controls = [...document.querySelectorAll("input, button, select, textarea")];
	return {
		controls: controls.length,
		shown: controls.filter(shown).map((e) => e.outerHTML.slice(0, 100)),
		chrome: [".site-header", ".search", ".lang-switch", ".series-nav", ".pager", ".site-footer", ".toc", ".skip-link"]
			.filter((s) => [...document.querySelectorAll(s)].some(shown)),
		widgets: document.querySelectorAll("[data-calc]").length,
		answers: [...document.querySelectorAll('[data-calc] [data-out="status"]')].filter((e) => shown(e) && e.textContent.trim() !== "").length,
	};
})()`

// checkPrintMedia emulates print media on the open page and checks that
// no form control and no site chrome would print, and that every
// calculator's answer would.
func checkPrintMedia(t *testing.T, ctx context.Context, wantWidgets int) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
	st, err := chromedp.Run(ctx, chromedp.Evaluate[printState](printStateJS))
	if err != nil {
		t.Fatal(err)
	}
	if st.Controls == 0 {
		t.Error("the page has no form control: nothing to check")
	}
	for _, c := range st.Shown {
		t.Errorf("a form control prints: %s", c)
	}
	for _, c := range st.Chrome {
		t.Errorf("%s prints", c)
	}
	if st.Widgets != wantWidgets || st.Answers != st.Widgets {
		t.Errorf("%d widgets, %d print their answer; want %d and all", st.Widgets, st.Answers, wantWidgets)
	}
}

// printPDF prints the open page as Chromium's print dialog would, with the
// page size of its CSS and no header or footer of Chromium's own.
func printPDF(t *testing.T, ctx context.Context, name string) []byte {
	t.Helper()
	yes, no := true, false
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: &yes, DisplayHeaderFooter: &no})
	if err != nil {
		t.Fatalf("printing to PDF: %v", err)
	}
	if dir := os.Getenv("KAKEHASHI_PRINT_DIR"); dir != "" { // to look at the pages
		_ = os.WriteFile(filepath.Join(dir, name+".pdf"), res.Data, 0o644)
	}
	return res.Data
}

var mediaBoxRe = regexp.MustCompile(`/MediaBox\s*\[\s*0 0 ([0-9.]+) ([0-9.]+)\s*\]`)

// checkA4 checks that every page of pdf is A4 portrait, 595 × 842 pt,
// and returns how many there are.
func checkA4(t *testing.T, pdf []byte) int {
	t.Helper()
	boxes := mediaBoxRe.FindAllSubmatch(pdf, -1)
	if len(boxes) == 0 {
		t.Fatal("the PDF has no page")
	}
	for i, m := range boxes {
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		if w < 594 || w > 596 || h < 841 || h > 843 {
			t.Errorf("page %d is %.1f × %.1f pt, want A4 (595 × 842)", i+1, w, h)
		}
	}
	return len(boxes)
}

// pdfPages returns the text of each page of pdf, through pdftotext
// (poppler-utils); without it the test is skipped, except under CI=true.
func pdfPages(t *testing.T, pdf []byte) []string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no pdftotext (install poppler-utils): the printed pages cannot be read")
		}
		t.Skip("no pdftotext (poppler-utils); the printed text is not checked")
	}
	file := filepath.Join(t.TempDir(), "print.pdf")
	if err := os.WriteFile(file, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-layout", "-enc", "UTF-8", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(string(out), "\f")
	if n := len(pages); n > 0 && strings.TrimSpace(pages[n-1]) == "" {
		pages = pages[:n-1]
	}
	return pages
}

// checkPageNumbers checks that page i of n says "i / n" in its footer:
// its last line of text.
func checkPageNumbers(t *testing.T, pages []string) {
	t.Helper()
	for i, p := range pages {
		lines := nonEmpty(p)
		want := regexp.MustCompile(fmt.Sprintf(`^%d\s*/\s*%d$`, i+1, len(pages)))
		if len(lines) == 0 || !want.MatchString(lines[len(lines)-1]) {
			last := ""
			if len(lines) > 0 {
				last = lines[len(lines)-1]
			}
			t.Errorf("page %d of %d ends with %q, want its number", i+1, len(pages), last)
		}
	}
}

func nonEmpty(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestPrintArticle prints part 5 of the bundled course from its page on
// the site: A4 pages numbered in the footer, the article without the site
// around it, no form control, and the calculators' build-time answers.
func TestPrintArticle(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/ja/cka/05-ha-cluster/"),
		chromedp.WaitVisible(chromedp.CSS(`main h1`)),
	); err != nil {
		t.Fatal(err)
	}
	checkPrintMedia(t, ctx, 3)
	pdf := printPDF(t, ctx, "article-ja")
	n := checkA4(t, pdf)
	pages := pdfPages(t, pdf)
	if len(pages) != n {
		t.Fatalf("pdftotext read %d pages of %d", len(pages), n)
	}
	checkPageNumbers(t, pages)
	text := strings.Join(pages, "\n")
	for _, want := range []string{"HA クラスター", "kubectl とワーカーの kubelet は API に届きます。", "k get nodes"} {
		if !strings.Contains(text, want) {
			t.Errorf("the printed article lacks %q", want)
		}
	}
	// No button's label, no search box, no footer of the site.
	for _, unwanted := range []string{"すべて復旧", "コピー", "サイト内を検索", "本文へスキップ"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("the printed article shows %q", unwanted)
		}
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

var partHeadRe = regexp.MustCompile(`<article class="single-part article" id="part-\d+">\s*<h1>([^<]*)</h1>`)

// TestPrintSingleFile prints the single-file course of each language,
// opened from disk: A4 pages numbered in the footer, the course's title
// atop every page but the first, each part starting a page, no form
// control.
func TestPrintSingleFile(t *testing.T) {
	dir := singleFileCourse(t)
	for _, lang := range []string{"ja", "ko"} {
		t.Run(lang, func(t *testing.T) {
			file := filepath.Join(dir, "course-"+lang+".html")
			doc, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var heads []string
			for _, m := range partHeadRe.FindAllSubmatch(doc, -1) {
				heads = append(heads, html.UnescapeString(string(m[1])))
			}
			if len(heads) < 2 {
				t.Fatalf("%d parts in the course", len(heads))
			}
			b := browsertest.New(t, browsertest.Options{})
			ctx := b.Ctx
			if err := chromedp.Do(ctx,
				chromedp.Navigate("file://"+file),
				chromedp.WaitVisible(chromedp.CSS(`main h1`)),
			); err != nil {
				t.Fatal(err)
			}
			title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`))
			if err != nil {
				t.Fatal(err)
			}
			widgets := bytes.Count(doc, []byte(` data-calc="`))
			checkPrintMedia(t, ctx, widgets)
			pdf := printPDF(t, ctx, "course-"+lang)
			n := checkA4(t, pdf)
			pages := pdfPages(t, pdf)
			if len(pages) != n {
				t.Fatalf("pdftotext read %d pages of %d", len(pages), n)
			}
			checkPageNumbers(t, pages)
			// The title page has no running head; the others have the
			// course's title as their first line.
			if first := nonEmpty(pages[0]); len(first) < 2 || first[0] != title || first[1] == title {
				t.Errorf("the title page starts with %q, want the course's title once", first[:min(2, len(first))])
			}
			for i, p := range pages[1:] {
				if lines := nonEmpty(p); len(lines) == 0 || lines[0] != title {
					t.Errorf("page %d does not start with the course's title %q: %q", i+2, title, lines[:min(2, len(lines))])
				}
			}
			// Each part starts a page: its heading comes right after the
			// running head, and the part before ends on the page before.
			start := map[string]int{}
			for _, h := range heads {
				for i, p := range pages[1:] {
					// (a long heading wraps)
					if lines := nonEmpty(p); len(lines) > 1 && strings.HasPrefix(strings.Join(lines[1:min(4, len(lines))], " "), h) {
						start[h] = i + 2
						break
					}
				}
				if start[h] == 0 {
					t.Errorf("no page starts with part %q", h)
				}
			}
			for i := 1; i < len(heads); i++ {
				if start[heads[i]] <= start[heads[i-1]] && start[heads[i]] != 0 {
					t.Errorf("part %q starts on page %d, part %q on page %d", heads[i-1], start[heads[i-1]], heads[i], start[heads[i]])
				}
			}
		})
	}
}
