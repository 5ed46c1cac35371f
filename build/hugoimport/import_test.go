package hugoimport

import (
	"bytes"
	"context"
	"flag"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// writeArchive writes the files of a txtar archive under dir.
func writeArchive(t *testing.T, archive, dir string) {
	t.Helper()
	a, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// importFixture imports the Hugo site of testdata/NAME.txtar into a new
// folder and returns the Hugo site's folder, the new site's and the
// report.
func importFixture(t *testing.T, name string) (src, dest string, report *Report) {
	t.Helper()
	src, dest = filepath.Join(t.TempDir(), "hugo"), filepath.Join(t.TempDir(), "site")
	writeArchive(t, filepath.Join("testdata", name+".txtar"), src)
	report, err := Import(context.Background(), src, dest)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	return src, dest, report
}

// siteArchive is the text of every file of the site at dir as a txtar
// archive, the report first.
func siteArchive(t *testing.T, dir string, report *Report) []byte {
	t.Helper()
	var rep bytes.Buffer
	report.Write(&rep)
	a := &txtar.Archive{Files: []txtar.File{{Name: "REPORT", Data: rep.Bytes()}}}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		a.Files = append(a.Files, txtar.File{Name: filepath.ToSlash(rel), Data: data})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return txtar.Format(a)
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n%s", p, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(lines []string) map[string]bool {
		m := map[string]bool{}
		for _, l := range lines {
			m[l] = true
		}
		return m
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	wm, gm := in(w), in(g)
	var b strings.Builder
	for _, l := range w {
		if !gm[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range g {
		if !wm[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// pages pairs each page Hugo publishes for the fixtures' course with the
// page kakehashi publishes for it after the import.
var pages = []struct{ hugo, kakehashi string }{
	{"index.html", "ja/index.html"},
	{"ko/index.html", "ko/index.html"},
	{"cka/index.html", "ja/cka/index.html"},
	{"ko/cka/index.html", "ko/cka/index.html"},
	{"cka/intro/index.html", "ja/cka/01-intro/index.html"},
	{"ko/cka/intro/index.html", "ko/cka/01-intro/index.html"},
	{"cka/etcd/index.html", "ja/cka/02-etcd/index.html"},
	{"ko/cka/etcd/index.html", "ko/cka/02-etcd/index.html"},
	{"cka/upgrade/index.html", "ja/cka/03-upgrade/index.html"},
	{"ko/cka/upgrade/index.html", "ko/cka/03-upgrade/index.html"},
	{"about-us/index.html", "ja/about/index.html"},
	{"ko/about-us/index.html", "ko/about/index.html"},
}

// aliases are Hugo's URLs (its pages' and their aliases') that the
// kakehashi site redirects from, to the kakehashi page.
var aliases = []struct{ from, to string }{
	{"cka/index.html", "/ja/cka/"},
	{"cka/intro/index.html", "/ja/cka/01-intro/"},
	{"cka/etcd/index.html", "/ja/cka/02-etcd/"},
	{"cka/upgrade/index.html", "/ja/cka/03-upgrade/"},
	{"cka/old-upgrade/index.html", "/ja/cka/03-upgrade/"},
	{"ko/cka/intro/index.html", "/ko/cka/01-intro/"},
	{"ko/cka/etcd/index.html", "/ko/cka/02-etcd/"},
	{"ko/cka/upgrade/index.html", "/ko/cka/03-upgrade/"},
	{"ko/cka/old-upgrade/index.html", "/ko/cka/03-upgrade/"},
	{"about-us/index.html", "/ja/about/"},
	{"ko/about-us/index.html", "/ko/about/"},
}

// unexpected is what a build of an imported course reports beyond what
// it must: that its translations are not marked (the report says to mark
// them) and the Hugo strings no layout of kakehashi's uses.
func unexpected(ds diag.List) diag.List {
	var out diag.List
	for _, d := range ds {
		if d.Code != "unmarked-translation" && d.Code != "unused-string" {
			out = append(out, d)
		}
	}
	return out
}

// TestImportHugoCourse imports the same small Hugo course translated by
// file name and by folder: both give the same kakehashi site (kept as a
// golden file with its report), which builds without an error, warned
// only of its unmarked translations and unused strings; its pages read as Hugo renders them, Hugo's URLs redirect to
// them, a ref and a link to a page's file lead to the renamed page, and
// the page bundle's files are beside its pages.
func TestImportHugoCourse(t *testing.T) {
	hugo := findHugo(t)
	var sites [][]byte
	for _, name := range []string{"byname", "byfolder"} {
		t.Run(name, func(t *testing.T) {
			src, dest, report := importFixture(t, name)
			if others := unexpected(report.Build); !report.Built || len(others) > 0 {
				t.Fatalf("the imported site does not build cleanly:\n%v", others)
			}
			site := siteArchive(t, dest, report)
			golden(t, name+".golden", site)
			sites = append(sites, files(site))

			in, err := source.SiteFS(dest)
			if err != nil {
				t.Fatal(err)
			}
			b, err := build.New(in, build.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := b.Build(context.Background())
			if err != nil {
				t.Fatalf("kakehashi build of the imported site: %v", err)
			}
			if w := unexpected(res.Summary.Warnings); len(w) > 0 {
				t.Errorf("kakehashi build of the imported site warns:\n%v", w)
			}
			out := func(p string) string {
				t.Helper()
				data, ok := res.Site.Get(p)
				if !ok {
					t.Fatalf("kakehashi wrote no %s", p)
				}
				return string(data)
			}
			for _, a := range aliases {
				if page := out(a.from); !strings.Contains(page, `http-equiv="refresh"`) || !strings.Contains(page, a.to) {
					t.Errorf("%s is no redirect to %s:\n%s", a.from, a.to, page)
				}
			}
			for _, lang := range []string{"ja", "ko"} {
				page := out(lang + "/cka/03-upgrade/index.html")
				for _, to := range []string{"02-etcd", "01-intro"} {
					if href := `href="../../../` + lang + `/cka/` + to + `/"`; !strings.Contains(page, href) {
						t.Errorf("%s/cka/03-upgrade/ has no link %s: the ref and the link to a file are not the kakehashi page's", lang, href)
					}
				}
			}
			for _, f := range []string{"quorum.svg", "notes.txt"} {
				want, err := os.ReadFile(filepath.Join(src, "content", filepath.FromSlash(map[string]string{"byname": "cka/etcd/", "byfolder": "ja/cka/etcd/"}[name]+f)))
				if err != nil {
					t.Fatal(err)
				}
				for _, lang := range []string{"ja", "ko"} {
					if got := out(lang + "/cka/02-etcd/" + f); got != string(want) {
						t.Errorf("%s/cka/02-etcd/%s = %q, want the bundle's file %q", lang, f, got, want)
					}
				}
			}

			public := runHugo(t, hugo, src)
			for _, p := range pages {
				want, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(p.hugo)))
				if err != nil {
					t.Fatalf("hugo: %v", err)
				}
				got := kakehashiContent(t, p.kakehashi, out(p.kakehashi))
				if g, w := text(got), text(string(want)); g != w {
					t.Errorf("%s reads\n\t%q\nwhere Hugo's %s reads\n\t%q", p.kakehashi, g, p.hugo, w)
				}
			}
		})
	}
	if len(sites) == 2 && !bytes.Equal(sites[0], sites[1]) {
		t.Errorf("the course translated by file name and by folder import differently:\n%s", lineDiff(string(sites[0]), string(sites[1])))
	}
}

// files is a site's archive without its report.
func files(archive []byte) []byte {
	a := txtar.Parse(archive)
	a.Files = a.Files[1:]
	return txtar.Format(a)
}

// findHugo is the hugo command. Without it the test is skipped, except
// under CI=true, where that is a failure.
func findHugo(t *testing.T) string {
	t.Helper()
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("hugo not found: the import tests compare the imported pages with what Hugo renders (apt-get install hugo)")
		}
		t.Skip("hugo not found: the import tests compare the imported pages with what Hugo renders (apt-get install hugo)")
	}
	return hugo
}

// runHugo builds the Hugo site at src and returns the folder of its
// pages.
func runHugo(t *testing.T, hugo, src string) string {
	t.Helper()
	public, cache := filepath.Join(t.TempDir(), "public"), t.TempDir()
	cmd := exec.Command(hugo, "--source", src, "--destination", public, "--cacheDir", cache, "--quiet")
	cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	return public
}

// theme is what kakehashi's theme adds around and inside a page's
// content that Hugo's minimal layout has not: a heading's anchor link,
// a code block's head (its language and copy button), the home's
// heading of its introduction.
var theme = regexp.MustCompile(`(?s)<a class="anchor"[^>]*>.*?</a>|<figcaption class="code-head">.*?</figcaption>|<h2 id="intro-title">.*?</h2>`)

// kakehashiContent is the content of a kakehashi page: the element of
// class "content" (the article's, the home's introduction, the series'),
// without what the theme adds to it.
func kakehashiContent(t *testing.T, name, page string) string {
	t.Helper()
	start := regexp.MustCompile(`<(div|section) class="content"[^>]*>`).FindStringSubmatchIndex(page)
	if start == nil {
		t.Fatalf("%s has no content element:\n%s", name, page)
	}
	tag := page[start[2]:start[3]]
	open, closing := regexp.MustCompile(`<`+tag+`[\s>]`), "</"+tag+">"
	depth, i := 1, start[1]
	for depth > 0 {
		c := strings.Index(page[i:], closing)
		if c < 0 {
			t.Fatalf("%s: the content element is not closed", name)
		}
		if o := open.FindStringIndex(page[i:]); o != nil && o[0] < c {
			depth++
			i += o[1]
			continue
		}
		depth--
		i += c + len(closing)
	}
	return theme.ReplaceAllString(page[start[1]:i-len(closing)], "")
}

var (
	inlineTag  = regexp.MustCompile(`</?(a|abbr|b|code|del|em|i|img|kbd|mark|q|s|small|span|strong|sub|sup)\b[^>]*>`)
	anyTag     = regexp.MustCompile(`(?s)<[^>]*>`)
	softBreak  = regexp.MustCompile(`([\p{Han}\p{Hiragana}\p{Katakana}ー、。「」])[ \t]*\n[ \t]*([\p{Han}\p{Hiragana}\p{Katakana}ー、。「」])`)
	whiteSpace = regexp.MustCompile(`[\s\x00]+`)
)

// text is the text of an HTML fragment, white space normalised: inline
// elements leave their text, any other element a break between blocks,
// shown as " | " (however many there are: kakehashi puts a shortcode's
// inner text in a paragraph where Hugo does not); a line break between
// two Japanese characters is none, as kakehashi joins the lines of a
// Japanese paragraph where Hugo keeps the break; other runs of white
// space are one space.
func text(fragment string) string {
	s := inlineTag.ReplaceAllString(fragment, "")
	s = html.UnescapeString(anyTag.ReplaceAllString(s, "\x00"))
	for softBreak.MatchString(s) {
		s = softBreak.ReplaceAllString(s, "$1$2")
	}
	s = whiteSpace.ReplaceAllStringFunc(s, func(ws string) string {
		if strings.Contains(ws, "\x00") {
			return " | "
		}
		return " "
	})
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "| "), " |")
}
