package translation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Layout names the parts of a site folder the translations commands read
// and write, slash-separated and relative to the site folder, as the
// build's layout has them.
type Layout struct {
	Content string // the pages: "content"
	Config  string // the configuration file: "kakehashi.toml"
	Cache   string // kakehashi's cache, which holds the Store: ".kakehashi-cache"
}

// Site is a site's pages and the pairs they make, as the build reads
// them: what "kakehashi translations status" lists and "kakehashi
// translations mark" marks.
type Site struct {
	// Dir is the site folder as the author named it ("." or
	// "../course"): the paths of messages are spelled from it (Show),
	// PairOf finds the files its arguments name from it, and Mark
	// writes at it.
	Dir    string
	Layout Layout
	// Langs are the site's languages, as build/config works them out
	// (config.Config.Langs); the first is the default original's.
	Langs   []string
	Content *source.Content
	Pairs   []Pair // as Pairs makes them
}

// LoadSite reads the site whose folder, named dir, fsys shows
// (source.SiteFS(dir) for one on disk) as the build's load stage does:
// its configuration, its languages as build/config works them out
// (config.Config.Langs: the configuration's list, else the language
// folders), and its pages; then it pairs them (Pairs). Its diagnostics
// are those of the configuration, the content and the pairs, with paths
// relative to the site folder; the site is nil when one of them is an
// error.
func LoadSite(ctx context.Context, fsys afero.Fs, dir string, l Layout) (*Site, diag.List) {
	cfg, diags := config.Load(ctx, fsys, l.Config)
	if len(diags.Errors()) > 0 {
		return nil, diags
	}
	langs, ldiags := cfg.Langs(ctx, fsys, l.Content)
	diags = append(diags, ldiags...)
	if len(diags.Errors()) > 0 {
		return nil, diags
	}
	s := &Site{Dir: dir, Layout: l, Langs: langs}
	s.Content, ldiags = source.Load(ctx, fsys, l.Content, langs)
	diags = append(diags, ldiags...)
	if len(diags.Errors()) > 0 {
		return nil, diags
	}
	s.Pairs, ldiags = Pairs(s.Content, langs)
	diags = append(diags, ldiags...)
	if len(diags.Errors()) > 0 {
		return nil, diags
	}
	return s, diags
}

// Show spells p, a path of the site ("content/ko/x.md"), from where the
// site folder was named: under Dir.
func (s *Site) Show(p string) string {
	if s.Dir == "." || s.Dir == "" {
		return p
	}
	return filepath.Join(s.Dir, filepath.FromSlash(p))
}

// TwinPath is the path p's page would have in lang: the same name under
// lang's folder ("content/ja/x.md" in "ko" is "content/ko/x.md").
func TwinPath(p *source.Page, lang string) string {
	return strings.TrimSuffix(p.Path, p.Lang+"/"+p.Rel) + lang + "/" + p.Rel
}

// Line is one pair as "kakehashi translations status" lists it.
type Line struct {
	Pair Pair
	// State says how the pair stands: its PairStatus's String
	// ("current", "stale since 2026-11-28 (marked 2026-11-02)",
	// "unmarked"), or "missing ko" for a pair with no page in ko.
	State string
	// Path is the translation's path, or, when a side is missing, the
	// path the missing page would have (TwinPath).
	Path string
	// From is the original's path, or, when the original is the page
	// that is missing (NoOriginal), the translation's: the one page of
	// the pair.
	From       string
	NoOriginal bool
	// Status is how the translation stands against its original, what
	// State says; the zero PairStatus when a side is missing.
	Status PairStatus
}

// Summary counts a site's pairs by how they stand.
type Summary struct {
	Current, Stale, Unmarked int
	// Missing counts the pairs with a side missing.
	Missing int
}

// Translations is how many pairs have both pages.
func (s Summary) Translations() int { return s.Current + s.Stale + s.Unmarked }

// Status is how every pair of the site stands, one Line each in the
// order of Pairs, and their count by state.
func (s *Site) Status() ([]Line, Summary) {
	var lines []Line
	var sum Summary
	for _, p := range s.Pairs {
		switch {
		case p.Orig == nil:
			sum.Missing++
			lines = append(lines, Line{Pair: p, State: "missing " + p.OrigLang, Path: TwinPath(p.Tr, p.OrigLang), From: p.Tr.Path, NoOriginal: true})
		case p.Tr == nil:
			sum.Missing++
			lines = append(lines, Line{Pair: p, State: "missing " + p.Lang, Path: TwinPath(p.Orig, p.Lang), From: p.Orig.Path})
		default:
			st := Status(p.Orig, p.Tr)
			switch st.State {
			case Current:
				sum.Current++
			case Stale:
				sum.Stale++
			case Unmarked:
				sum.Unmarked++
			}
			lines = append(lines, Line{Pair: p, State: st.String(), Path: p.Tr.Path, From: p.Orig.Path, Status: st})
		}
	}
	return lines, sum
}

// Translations are the pairs that have both pages: what marking every
// translation marks.
func (s *Site) Translations() []Pair {
	var todo []Pair
	for _, p := range s.Pairs {
		if !p.Missing() {
			todo = append(todo, p)
		}
	}
	return todo
}

// Select is the pairs whose translations' files args name (each as
// PairOf reads it), each once, in the order first named, and the
// refusals of the args that name none, one error each.
func (s *Site) Select(args []string) ([]Pair, []error) {
	var todo []Pair
	var refused []error
	seen := map[string]bool{}
	for _, arg := range args {
		p, err := s.PairOf(arg)
		if err != nil {
			refused = append(refused, err)
			continue
		}
		if !seen[p.Tr.Path] {
			seen[p.Tr.Path] = true
			todo = append(todo, p)
		}
	}
	return todo, refused
}

// PairOf is the pair whose translation's file is at arg, a path on the
// OS's filesystem relative to the current folder when such a file is in
// the site, else relative to the site folder Dir; symbolic links are
// followed to where they lead. A file that is not a translation with its
// original is refused with an error saying why: one outside the site
// folder or outside its content folder, one that does not exist, one
// that is not a page, an original (naming its translation to mark
// instead), a translation whose original does not exist, and a page no
// other language has.
func (s *Site) PairOf(arg string) (Pair, error) {
	rel, err := siteRel(s.Dir, arg)
	if err != nil {
		return Pair{}, err
	}
	content := s.Layout.Content
	if !strings.HasPrefix(rel, content+"/") {
		return Pair{}, fmt.Errorf("%s is not under %s/: only a translation's page can be marked", arg, s.Show(content))
	}
	for _, p := range s.Pairs {
		switch {
		case p.Tr != nil && p.Tr.Path == rel:
			if p.Orig == nil {
				return Pair{}, fmt.Errorf("%s has no original: %s does not exist", arg, s.Show(TwinPath(p.Tr, p.OrigLang)))
			}
			return p, nil
		case p.Orig != nil && p.Orig.Path == rel:
			why := fmt.Sprintf("%s is the site's first language", p.OrigLang)
			if p.OrigLang != s.Langs[0] {
				why = fmt.Sprintf("its translations say translationOf: %s", p.OrigLang)
			}
			return Pair{}, fmt.Errorf("%s is an original (%s), not a translation: mark its translation instead, like: kakehashi translations mark %s", arg, why, s.Show(TwinPath(p.Orig, p.Lang)))
		}
	}
	for _, p := range s.Content.Pages {
		if p.Path == rel {
			// A page no other language shares: a draft alone.
			return Pair{}, fmt.Errorf("%s has no original in another language to be marked against", arg)
		}
	}
	return Pair{}, fmt.Errorf("%s is not a page of the site (a .md file under %s/<language>/)", arg, s.Show(content))
}

// siteRel is the slash-separated path in the site folder src of the file
// arg names: relative to the current folder when such a file is in the
// site, else relative to the site folder. Both are the real locations,
// symbolic links followed, on the OS's filesystem: arg is a path as the
// shell gave it.
func siteRel(src, arg string) (string, error) {
	root, err := realPath(src)
	if err != nil {
		return "", err
	}
	cands := []string{arg}
	if !filepath.IsAbs(arg) {
		cands = append(cands, filepath.Join(src, arg))
	}
	outside := false
	for _, c := range cands {
		if _, err := os.Stat(c); err != nil {
			continue
		}
		real, err := realPath(c)
		if err != nil {
			return "", err
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			outside = true
			continue
		}
		return filepath.ToSlash(rel), nil
	}
	if outside {
		return "", fmt.Errorf("%s is outside the site folder %s: only a translation's page can be marked", arg, src)
	}
	return "", fmt.Errorf("%s: no such file, in the current folder or in the site folder %s", arg, src)
}

// realPath is p absolute, its symbolic links followed.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
