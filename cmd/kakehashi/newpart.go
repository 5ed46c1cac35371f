package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

func runNewPart(ctx context.Context, env *cliEnv, args []string) int {
	return newPart(ctx, env, afero.NewOsFs(), args)
}

// newPart is "kakehashi new part", writing through fsys (the site is read
// from the OS's disk).
func newPart(ctx context.Context, env *cliEnv, fsys afero.Fs, args []string) int {
	flags := newFlags(env, "new part", newPartSynopsis,
		"Adds part NUMBER to the series file content/series/SERIES.yaml, in number order\nand published (a planned part becomes published and keeps its titles), and\nwrites content/<lang>/SERIES/NN-SLUG.md in each language of the site with its\nfront matter filled in. Nothing that exists is overwritten. --title-LANG TITLE\n(--title-ja, --title-ko) is --title LANG=TITLE.")
	var src string
	titles := map[string]string{}
	sourceFlag(flags, &src, "site `folder`")
	flags.Func("title", "the part's title in one language, `LANG=TITLE`, once per language (default: from SLUG)", func(v string) error {
		lang, title, ok := strings.Cut(v, "=")
		switch {
		case !ok || lang == "":
			return fmt.Errorf("want LANG=TITLE, like --title ja=スケジューリング")
		case titles[lang] != "":
			return fmt.Errorf("the title in %s is given twice", lang)
		}
		titles[lang] = title
		return nil
	})
	pos, code := parseInterspersed(flags, titleAliases(args))
	if code >= 0 {
		return code
	}
	if len(pos) != 3 {
		fmt.Fprintf(env.stderr, "kakehashi new part: want SERIES NUMBER SLUG, like: kakehashi new part cka 3 scheduling\n")
		return 2
	}
	req := partRequest{series: pos[0], slug: pos[2], titles: titles}
	n, err := strconv.Atoi(pos[1])
	if err != nil || n < 1 {
		fmt.Fprintf(env.stderr, "kakehashi new part: NUMBER must be a positive whole number, got %q\n", pos[1])
		return 2
	}
	req.number = n
	if err := checkSlug(req.slug); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new part: SLUG must be one clean name: %v\n", err)
		return 2
	}
	plan, err := planPart(ctx, src, req)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new part: %v\n", err)
		var u usageError
		if errors.As(err, &u) {
			return 2
		}
		return 1
	}
	if err := plan.write(fsys); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new part: %v\n", err)
		if errors.Is(err, errExists) {
			return 2
		}
		return 1
	}
	saveOriginals(env, fsys, "new part", src, plan.originals)
	verb := "added part #%d to %s"
	if plan.wasPlanned {
		verb = "published the planned part #%d in %s"
	}
	fmt.Fprintf(env.stdout, "kakehashi %s: "+verb+"\n", build.Version, n, plan.seriesPath)
	for _, p := range plan.pages {
		fmt.Fprintf(env.stdout, "  %s\n", p.path)
	}
	return 0
}

// titleAliases rewrites each --title-LANG TITLE (or --title-LANG=TITLE,
// one dash or two) of args as --title LANG=TITLE, for any language: the
// flags of the first version, --title-ja and --title-ko, still work.
func titleAliases(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		lang, ok := strings.CutPrefix(name, "title-")
		if !strings.HasPrefix(a, "-") || !ok || lang == "" {
			out = append(out, a)
			continue
		}
		if !hasVal && i+1 < len(args) {
			i++
			val, hasVal = args[i], true
		}
		if !hasVal {
			out = append(out, a) // the flag package says what is missing
			continue
		}
		out = append(out, "--title", lang+"="+val)
	}
	return out
}

// usageError is a refusal caused by the command line or the state of the
// site (exit 2), not by a failure to read or write (exit 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func refuse(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// partRequest is what "kakehashi new part" was asked for.
type partRequest struct {
	series string
	number int
	slug   string
	titles map[string]string // by language; "" for the default
}

// partPlan is everything "kakehashi new part" writes, checked before
// anything is written.
type partPlan struct {
	seriesPath string // as shown, under the site folder
	seriesFile string // on disk
	seriesOrig []byte // as it was read
	seriesText []byte // as it is to be written
	wasPlanned bool
	pages      []starterFile // path on disk
	// originals are the first language's page the others were marked
	// against, for the store of marked originals.
	originals []starterOriginal
}

// write creates the pages, then saves the series file: all of them or,
// when one fails (a full disk, a page that appeared meanwhile), none,
// what was written so far undone.
func (p *partPlan) write(fsys afero.Fs) error {
	w := &fileSet{fs: fsys}
	for _, f := range p.pages {
		if err := w.create(f.path, []byte(f.text)); err != nil {
			return w.undo(err)
		}
	}
	if err := w.replace(p.seriesFile, p.seriesOrig, p.seriesText); err != nil {
		return w.undo(err)
	}
	return nil
}

// planPart reads the site and works out the new series file and pages,
// refusing what would overwrite or contradict the site.
func planPart(ctx context.Context, src string, req partRequest) (*partPlan, error) {
	site, err := source.SiteFS(src)
	if err != nil {
		return nil, err
	}
	layout := build.DefaultLayout()
	show := func(rel string) string { return filepath.Join(src, filepath.FromSlash(rel)) }
	langs, err := siteLanguages(ctx, site, layout.Content, show)
	if err != nil {
		return nil, err
	}
	s, err := findSeries(site, layout.Content, req.series, show)
	if err != nil {
		return nil, err
	}
	for _, l := range slices.Sorted(maps.Keys(req.titles)) {
		if !slices.Contains(langs, l) {
			return nil, refuse("--title %s=…: %q is not one of the site's languages (%s)", l, l, strings.Join(langs, ", "))
		}
	}
	plan := &partPlan{seriesPath: show(s.Path), seriesFile: show(s.Path), seriesOrig: s.Src}
	bodies := partBodies(ctx, site, layout.I18n, langs)
	titles := make([]langTitle, len(langs))
	for i, l := range langs {
		t := req.titles[l]
		if t == "" {
			t = titleFromSlug(req.slug)
		}
		titles[i] = langTitle{l, t}
	}
	if part, ok := s.Part(req.number); ok {
		if part.State != source.Planned {
			line, _ := diag.Position(s.Src, part.Off)
			return nil, refuse("series %q already has part #%d, %s (%s:%d)", s.ID, req.number, part.State, show(s.Path), line)
		}
		plan.wasPlanned = true
		plan.seriesText, err = publishPart(s.Src, req.number)
		for i := range titles {
			if t := part.Title[titles[i].lang]; t != "" && req.titles[titles[i].lang] == "" {
				titles[i].title = t
			}
		}
	} else {
		plan.seriesText, err = insertPart(s.Src, req.number, titles)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", show(s.Path), err)
	}
	// The edit must leave a series file that says what was asked.
	if edited, diags := source.ParseSeries(s.Path, plan.seriesText); len(diags.Errors()) > 0 {
		return nil, fmt.Errorf("%s: editing it would break it (%v); it was left as it was", show(s.Path), diags.Errors()[0])
	} else if p, ok := edited.Part(req.number); !ok || p.State != source.Published {
		return nil, fmt.Errorf("%s: could not add part #%d safely; it was left as it was", show(s.Path), req.number)
	}
	name := fmt.Sprintf("%0*d-%s.md", partWidth(site, layout.Content, langs, s.ID, req.number), req.number, req.slug)
	if len(name) > maxSlug {
		return nil, refuse("the page's file name %s would be %d bytes long, more than the %d a file name may have; choose a shorter SLUG", abbreviate(name), len(name), maxSlug)
	}
	date := time.Now().Format(time.DateOnly)
	for _, t := range titles {
		rel := strings.Join([]string{layout.Content, t.lang, s.ID, name}, "/")
		folder := strings.TrimSuffix(rel, ".md") + "/index.md"
		for _, p := range []string{rel, folder} {
			if _, err := site.Stat(p); err == nil {
				return nil, refuse("%s already exists; nothing was written", show(p))
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
		plan.pages = append(plan.pages, starterFile{show(rel), partPage(t, bodies[t.lang], s.ID, req.number, date)})
	}
	// The pages in the other languages are translations of the first
	// language's, and as empty: marked up to date with it.
	for i := 1; i < len(plan.pages); i++ {
		text, orig, err := markStarterPage(plan.pages[0].text, plan.pages[i].text, date)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", plan.pages[i].path, err)
		}
		plan.pages[i].text = text
		if i == 1 {
			plan.originals = append(plan.originals, orig)
		}
	}
	return plan, nil
}

// langTitle is a part's title in one language.
type langTitle struct{ lang, title string }

// partPage is the text of a new part's page, body its first text.
func partPage(t langTitle, body, series string, n int, date string) string {
	return fmt.Sprintf("---\ntitle: %s\nseries: %s\npart: %d\ndate: %s\n---\n\n%s", yamlQuote(t.title), yamlScalar(series), n, date, body)
}

// partBodies are the first text of a new part's page in each of langs:
// the UI string new_part_body of the site's strings (dir over the
// embedded ones), the embedded English one for a language without
// strings, and none when they cannot be read (the build says why).
func partBodies(ctx context.Context, site afero.Fs, dir string, langs []string) map[string]string {
	bundle, _ := i18n.LoadSite(ctx, site, dir, langs)
	bodies := make(map[string]string, len(langs))
	for _, l := range langs {
		if bundle != nil && bundle.Has(l, "new_part_body") {
			bodies[l] = bundle.T(l, "new_part_body")
		} else {
			bodies[l] = i18n.Fallback(l, "new_part_body")
		}
	}
	return bodies
}

// titleFromSlug makes a default title of a slug: "ha-cluster" gives
// "Ha cluster".
func titleFromSlug(slug string) string {
	t := strings.Join(strings.FieldsFunc(slug, func(r rune) bool { return r == '-' || r == '_' }), " ")
	if t == "" {
		t = slug
	}
	r, n := utf8.DecodeRuneInString(t)
	return string(unicode.ToUpper(r)) + t[n:]
}

// siteLanguages are the site's languages, as every command has them
// (siteLangs); show spells a path of the site for messages.
func siteLanguages(ctx context.Context, site afero.Fs, content string, show func(string) string) ([]string, error) {
	langs, diags := siteLangs(ctx, site, content)
	if errs := diags.Errors(); len(errs) > 0 {
		d := errs[0]
		d.Path = show(d.Path)
		return nil, fmt.Errorf("%v", d)
	}
	return langs, nil
}

// findSeries reads the series whose id is id, refusing an unknown one
// with the nearest known id; show spells a path of the site for messages.
func findSeries(site afero.Fs, content, id string, show func(string) string) (*source.Series, error) {
	dir := content + "/" + source.SeriesDir
	entries, err := afero.ReadDir(site, dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		p := dir + "/" + name
		data, err := afero.ReadFile(site, p)
		if err != nil {
			return nil, err
		}
		s, diags := source.ParseSeries(p, data)
		if s == nil {
			// A broken series file is only in the way if it is the one
			// asked for.
			if strings.TrimSuffix(strings.TrimSuffix(name, ".yaml"), ".yml") == id && len(diags) > 0 {
				d := diags[0]
				d.Path = show(d.Path)
				return nil, fmt.Errorf("%v", d)
			}
			continue
		}
		if s.ID == id {
			return s, nil
		}
		ids = append(ids, s.ID)
	}
	if len(ids) == 0 {
		return nil, refuse("unknown series %q: %s has no series file yet", id, show(dir)+string(filepath.Separator))
	}
	if hint := didYouMean(id, ids); hint != "" {
		return nil, refuse("unknown series %q%s", id, hint)
	}
	slices.Sort(ids)
	return nil, refuse("unknown series %q; the series are %s", id, strings.Join(ids, ", "))
}

// partWidth is how many digits a part number takes in a file name: two,
// or more when the series' pages already use more.
func partWidth(site afero.Fs, content string, langs []string, series string, n int) int {
	w := max(2, len(strconv.Itoa(n)))
	for _, l := range langs {
		entries, _ := afero.ReadDir(site, content+"/"+l+"/"+series)
		for _, e := range entries {
			digits := len(e.Name()) - len(strings.TrimLeftFunc(e.Name(), unicode.IsDigit))
			if digits > 0 && strings.HasPrefix(e.Name()[digits:], "-") {
				w = max(w, digits)
			}
		}
	}
	return w
}

// maxSlug is the longest page file name, in bytes: the longest segment
// a name may have (source.MaxSegment).
const maxSlug = source.MaxSegment

// checkSlug reports why slug cannot name a new part's page, whose file
// name and URL segment it becomes ("03-SLUG.md", ".../03-SLUG/"), or nil:
// the name rule every URL segment follows (source.CheckSegment), and no
// leading dot, which would make the page a hidden file.
func checkSlug(slug string) error {
	if err := source.CheckSegment(slug); err != nil {
		return err
	}
	if strings.HasPrefix(slug, ".") {
		return fmt.Errorf("%q starts with a dot: the page would be a hidden file", slug)
	}
	return nil
}

// abbreviate quotes s, cut to its first 32 characters when longer, for a
// message.
func abbreviate(s string) string {
	if utf8.RuneCountInString(s) <= 32 {
		return strconv.Quote(s)
	}
	n := 0
	for i := range s {
		if n == 32 {
			return strconv.Quote(s[:i]) + "…"
		}
		n++
	}
	return strconv.Quote(s)
}
