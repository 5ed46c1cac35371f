package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// PartRequest is a new part of a series.
type PartRequest struct {
	Series string // the series' id
	Number int    // the part's number, 1 or more
	Slug   string // the pages' name after the number: NN-SLUG.md (CheckSlug)
	// Titles are the part's titles by language. A language left out gets
	// the planned part's title in it, else one made of Slug
	// ("ha-cluster" gives "Ha cluster").
	Titles map[string]string
	// Date is the day the pages are dated; the zero time is today.
	Date time.Time
}

// PlanPart plans part req.Number of the series req.Series in every
// language of the site: a page content/<lang>/<series>/NN-SLUG.md per
// language, its front matter filled in and its first text the UI string
// new_part_body, the pages after the first language's marked up to date
// with it; and the series file with the part added, published, in number
// order, or its planned part published. The site is read through site
// (rooted at its folder, as source.SiteFS gives it); dir is the site
// folder's path on the filesystem the plan is written to, which the
// plan's paths and messages start with.
//
// What would overwrite or contradict the site is refused with a
// UsageError: a number or slug that cannot name a part, an unknown
// series, a part that is published already, a page that exists, a title
// in a language the site has not. The messages name what was asked as
// "kakehashi new part" spells it (SLUG, --title LANG=TITLE).
func PlanPart(ctx context.Context, site afero.Fs, dir string, req PartRequest) (*Plan, error) {
	if req.Number < 1 {
		return nil, refuse("part #%d: a part's number is a positive whole number", req.Number)
	}
	if err := CheckSlug(req.Slug); err != nil {
		return nil, refuse("the slug cannot name a page: %v", err)
	}
	layout := build.DefaultLayout()
	show := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	langs, err := siteLanguages(ctx, site, layout.Content, show)
	if err != nil {
		return nil, err
	}
	s, err := findSeries(site, layout.Content, req.Series, show)
	if err != nil {
		return nil, err
	}
	for _, l := range slices.Sorted(maps.Keys(req.Titles)) {
		if !slices.Contains(langs, l) {
			return nil, refuse("--title %s=…: %q is not one of the site's languages (%s)", l, l, strings.Join(langs, ", "))
		}
	}
	plan := &Plan{site: dir, Series: show(s.Path), seriesWas: s.Src}
	bodies := partBodies(ctx, site, layout.I18n, langs)
	titles := make([]source.PartTitle, len(langs))
	for i, l := range langs {
		t := req.Titles[l]
		if t == "" {
			t = titleFromSlug(req.Slug)
		}
		titles[i] = source.PartTitle{Lang: l, Title: t}
	}
	if part, ok := s.Part(req.Number); ok {
		if part.State != source.Planned {
			line, _ := diag.Position(s.Src, part.Off)
			return nil, refuse("series %q already has part #%d, %s (%s:%d)", s.ID, req.Number, part.State, show(s.Path), line)
		}
		plan.WasPlanned = true
		plan.seriesText, err = source.PublishPart(s.Src, req.Number)
		for i := range titles {
			if t := part.Title[titles[i].Lang]; t != "" && req.Titles[titles[i].Lang] == "" {
				titles[i].Title = t
			}
		}
	} else {
		plan.seriesText, err = source.InsertPart(s.Src, req.Number, titles)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", show(s.Path), err)
	}
	// The edit must leave a series file that says what was asked.
	if edited, diags := source.ParseSeries(s.Path, plan.seriesText); len(diags.Errors()) > 0 {
		return nil, fmt.Errorf("%s: editing it would break it (%v); it was left as it was", show(s.Path), diags.Errors()[0])
	} else if p, ok := edited.Part(req.Number); !ok || p.State != source.Published {
		return nil, fmt.Errorf("%s: could not add part #%d safely; it was left as it was", show(s.Path), req.Number)
	}
	name := fmt.Sprintf("%0*d-%s.md", partWidth(site, layout.Content, langs, s.ID, req.Number), req.Number, req.Slug)
	if len(name) > maxSlug {
		return nil, refuse("the page's file name %s would be %d bytes long, more than the %d a file name may have; choose a shorter SLUG", abbreviate(name), len(name), maxSlug)
	}
	date := day(req.Date)
	for _, t := range titles {
		rel := strings.Join([]string{layout.Content, t.Lang, s.ID, name}, "/")
		folder := strings.TrimSuffix(rel, ".md") + "/index.md"
		for _, p := range []string{rel, folder} {
			if _, err := site.Stat(p); err == nil {
				return nil, refuse("%s already exists; nothing was written", show(p))
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
		plan.Files = append(plan.Files, File{show(rel), partPage(t, bodies[t.Lang], s.ID, req.Number, date)})
	}
	// The pages in the other languages are translations of the first
	// language's, and as empty: marked up to date with it.
	for i := 1; i < len(plan.Files); i++ {
		text, orig, err := markTranslation(plan.Files[0].Text, plan.Files[i].Text, date)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", plan.Files[i].Path, err)
		}
		plan.Files[i].Text = text
		if i == 1 {
			plan.originals = append(plan.originals, orig)
		}
	}
	return plan, nil
}

// partPage is the text of a new part's page, body its first text.
func partPage(t source.PartTitle, body, series string, n int, date string) string {
	return fmt.Sprintf("---\ntitle: %s\nseries: %s\npart: %d\ndate: %s\n---\n\n%s", yamlQuote(t.Title), yamlScalar(series), n, date, body)
}

// yamlQuote writes s as a YAML double-quoted string: Go's escapes are
// YAML's too.
func yamlQuote(s string) string { return strconv.Quote(s) }

var plainYAMLRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// yamlScalar writes s plain when YAML reads it back as the same string,
// quoted otherwise.
func yamlScalar(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return yamlQuote(s)
	}
	if plainYAMLRe.MatchString(s) {
		return s
	}
	return yamlQuote(s)
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

// siteLanguages are the site's languages as build/config works them out
// for every command (config.Config.Langs: the languages list, else the
// language folders under content); show spells a path of the site for
// messages.
func siteLanguages(ctx context.Context, site afero.Fs, content string, show func(string) string) ([]string, error) {
	cfg, diags := config.Load(ctx, site, config.File)
	if len(diags.Errors()) == 0 {
		var langs []string
		langs, diags = cfg.Langs(ctx, site, content)
		if len(diags.Errors()) == 0 {
			return langs, nil
		}
	}
	d := diags.Errors()[0]
	d.Path = show(d.Path)
	return nil, fmt.Errorf("%v", d)
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
	if s := diag.Suggest(id, ids); s != "" {
		return nil, refuse("unknown series %q; did you mean %q?", id, s)
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

// CheckSlug reports why slug cannot name a new part's page, whose file
// name and URL segment it becomes ("03-SLUG.md", ".../03-SLUG/"), or nil:
// the name rule every URL segment follows (source.CheckSegment), and no
// leading dot, which would make the page a hidden file.
func CheckSlug(slug string) error {
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
