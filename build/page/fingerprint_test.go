package page

import (
	"bytes"
	"context"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// fillData sets every exported field under v to a value that is not its
// zero: a pointer to a filled value, a slice of one filled item, a map of
// one filled entry. A struct within one of its own type (a heading's
// children's children) is left empty.
func fillData(v reflect.Value, within map[reflect.Type]int) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillData(v.Elem(), within)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)))
			return
		}
		if within[v.Type()] == 2 {
			return
		}
		within[v.Type()]++
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillData(v.Field(i), within)
			}
		}
		within[v.Type()]--
	case reflect.Slice:
		if within[v.Type().Elem()] == 2 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fillData(s.Index(0), within)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillData(k, within)
		fillData(e, within)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf("v"))
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	default:
		panic("fillData: " + v.Type().String())
	}
}

// filledPage is template data with every field set.
func filledPage() *render.Page {
	var p render.Page
	fillData(reflect.ValueOf(&p).Elem(), map[reflect.Type]int{})
	return &p
}

// change is one edit of the data: where, and whether a tag under key
// ("fingerprint", "feed") says the fingerprint leaves it out.
type change struct {
	path  string
	opted map[string]bool
	apply func() (undo func())
}

// changes lists an edit of every field under v, each a leaf changed or a
// pointer, list or map emptied, down to what they point at.
func changes(v reflect.Value, path string, opted map[string]bool) []change {
	set := func(to reflect.Value) func() func() {
		return func() func() {
			old := reflect.New(v.Type()).Elem()
			old.Set(v)
			v.Set(to)
			return func() { v.Set(old) }
		}
	}
	var out []change
	switch v.Kind() {
	case reflect.Pointer:
		out = append(out, change{path + " (nil)", opted, set(reflect.Zero(v.Type()))})
		out = append(out, changes(v.Elem(), path, opted)...)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return []change{{path, opted, set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Hour)))}}
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			o := maps.Clone(opted)
			for _, key := range []string{"fingerprint", "feed"} {
				if f.Tag.Get(key) == "-" {
					o[key] = true
				}
			}
			out = append(out, changes(v.Field(i), path+"."+f.Name, o)...)
		}
	case reflect.Slice:
		if v.Len() > 0 {
			out = append(out, change{path + " (empty)", opted, set(reflect.Zero(v.Type()))})
			out = append(out, changes(v.Index(0), path+"[0]", opted)...)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), it.Value())
		}
		k := reflect.New(v.Type().Key()).Elem()
		k.SetString("another")
		m.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
		out = append(out, change{path + " (another entry)", opted, set(m)})
	case reflect.String:
		out = append(out, change{path, opted, set(reflect.ValueOf(v.String() + "x").Convert(v.Type()))})
	case reflect.Bool:
		out = append(out, change{path, opted, set(reflect.ValueOf(!v.Bool()).Convert(v.Type()))})
	case reflect.Int:
		out = append(out, change{path, opted, set(reflect.ValueOf(int(v.Int() + 1)).Convert(v.Type()))})
	default:
		panic("changes: " + v.Type().String())
	}
	return out
}

// TestFingerprintCountsEveryField changes each field of a page's template
// data in turn, down to the site, the series list and the translations,
// and each pointer, list and map emptied: the fingerprint changes, but for
// the fields tagged fingerprint:"-" (the content, for which its
// rendering's identity stands). A field added to render.Page counts
// unless it says otherwise.
func TestFingerprintCountsEveryField(t *testing.T) {
	p := filledPage()
	base := Fingerprint(p, 1, 2)
	if Fingerprint(p, 1, 2) != base || Fingerprint(filledPage(), 1, 2) != base {
		t.Fatal("the fingerprint of the same data differs")
	}
	if Fingerprint(p, 3, 2) == base || Fingerprint(p, 1, 3) == base {
		t.Error("the content's or the series' fingerprint does not count")
	}
	cs := changes(reflect.ValueOf(p).Elem(), "Page", map[string]bool{})
	if len(cs) < 100 {
		t.Fatalf("only %d changes: the data is not filled", len(cs))
	}
	for _, c := range cs {
		undo := c.apply()
		got := Fingerprint(p, 1, 2)
		undo()
		if changed := got != base; changed == c.opted["fingerprint"] {
			t.Errorf("%s (opted out: %v): the fingerprint changed: %v", c.path, c.opted["fingerprint"], changed)
		}
	}
	if Fingerprint(p, 1, 2) != base {
		t.Fatal("the changes were not undone")
	}
}

// TestFingerprintMapOrder: the fingerprint of data holding maps does not
// depend on the order their entries were made in.
func TestFingerprintMapOrder(t *testing.T) {
	keys := strings.Fields("a b c d e f g h i j k l m n o p")
	mk := func(order []string) *render.Page {
		p := filledPage()
		p.Params, p.Site.Title = map[string]any{}, map[string]string{}
		for _, k := range order {
			p.Params[k] = map[string]any{k: []any{k, 1}}
			p.Site.Title[k] = k
		}
		return p
	}
	want := Fingerprint(mk(keys), 1, 2)
	rev := make([]string, len(keys))
	for i, k := range keys {
		rev[len(keys)-1-i] = k
	}
	for range 10 {
		if Fingerprint(mk(rev), 1, 2) != want || Fingerprint(mk(keys), 1, 2) != want {
			t.Fatal("the fingerprint depends on the order of a map")
		}
	}
}

// TestFeedFingerprint changes each field of a page's data in turn: a
// field that counts changes the feeds' fingerprint, and one tagged
// feed:"-" leaves the sitemap, robots.txt and the feeds as they were, so
// that leaving it out is honest.
func TestFeedFingerprint(t *testing.T) {
	data := &render.Site{Title: map[string]string{"ja": "講座", "ko": "강좌"}, BaseURL: "https://example.org/", Langs: []string{"ja", "ko"}, Generator: "kakehashi test"}
	p := filledPage()
	p.Kind, p.Lang, p.URL = site.KindArticle, "ja", "/ja/a/"
	p.Translations = []render.Translation{{Lang: "ja", URL: "/ja/a/", Exists: true}, {Lang: "ko", URL: "/ko/a/", Exists: true, Title: "k"}}
	pages := []*render.Page{p}
	feeds := func() map[string][]byte { return render.Feeds(data, pages) }
	base, baseFeeds := FeedFingerprint(data, pages), feeds()
	for _, c := range changes(reflect.ValueOf(p).Elem(), "Page", map[string]bool{}) {
		undo := c.apply()
		fp, out := FeedFingerprint(data, pages), feeds()
		undo()
		opted := c.opted["feed"] || c.opted["fingerprint"]
		switch {
		case opted && !maps.EqualFunc(out, baseFeeds, bytes.Equal):
			t.Errorf("%s is left out of the feeds' fingerprint, but the feeds show it", c.path)
		case !opted && fp == base:
			t.Errorf("%s: the feeds' fingerprint did not change", c.path)
		}
	}
	data.Generator = "kakehashi other"
	if FeedFingerprint(data, pages) == base {
		t.Error("the site does not count")
	}
}

// TestEachFrontMatterFieldCounts sets each front matter field of the
// table (source.Fields) in turn, to its example, on a page of a small
// site, read and assembled as a build does: each field the table gives
// the templates changes the page's data, and whatever changes the data
// changes the fingerprint; what changes the feeds changes theirs.
func TestEachFrontMatterFieldCounts(t *testing.T) {
	assemble := func(t *testing.T, extra string) (*render.Page, uint64, uint64, map[string][]byte) {
		t.Helper()
		fs := afero.NewMemMapFs()
		files := map[string]string{
			"content/series/cka.yaml": "id: cka\ntitle: {ja: CKA, ko: CKA}\nparts:\n  - number: 3\n    title: {ja: 三, ko: 삼}\n    state: published\n",
			"content/ja/notes/a.md":   "---\n" + extra + "---\nbody\n",
			"content/ko/notes/a.md":   "---\ntitle: 번역\n---\n본문\n",
		}
		for p, s := range files {
			if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		langs := []string{"ja", "ko"}
		c, _ := source.Load(context.Background(), fs, "content", langs)
		st, _ := site.Resolve(c, site.Options{Langs: langs})
		a := New(st, Options{Langs: langs, BaseURL: "https://example.org/", T: func(_, k string) string { return k }})
		var pages []*render.Page
		var p *render.Page
		for _, sp := range st.Pages {
			q := a.Page(sp, &Content{})
			pages = append(pages, q)
			if sp.Source != nil && sp.Source.Path == "content/ja/notes/a.md" {
				p = q
			}
		}
		if p == nil {
			return nil, 0, FeedFingerprint(a.Site(), pages), render.Feeds(a.Site(), pages)
		}
		return p, a.Fingerprint(p, 1), FeedFingerprint(a.Site(), pages), render.Feeds(a.Site(), pages)
	}
	const baseTitle = "title: 基本\n"
	basePage, baseFP, baseFeedFP, baseFeeds := assemble(t, baseTitle)
	for _, f := range source.Fields() {
		t.Run(f.Name, func(t *testing.T) {
			extra := baseTitle + f.Name + ": " + f.Example + "\n"
			if f.Name == "title" {
				extra = f.Name + ": " + f.Example + "\n"
			}
			p, fp, feedFP, feeds := assemble(t, extra)
			if p == nil {
				return // not published (a draft): nothing of it to count
			}
			same := reflect.DeepEqual(p, basePage)
			if f.Data != "" && same {
				t.Errorf("the table gives %q to the templates as %s, but the page's data did not change", f.Name, f.Data)
			}
			if !same && fp == baseFP {
				t.Errorf("%q changed the page's data, not its fingerprint", f.Name)
			}
			if !maps.EqualFunc(feeds, baseFeeds, bytes.Equal) && feedFP == baseFeedFP {
				t.Errorf("%q changed the feeds, not their fingerprint", f.Name)
			}
		})
	}
}

// TestFeedSums: the feeds' fingerprint made from the pages' sums of the
// last build is a fresh one's, build after build, whether a page's data
// changed, stayed or was never fingerprinted.
func TestFeedSums(t *testing.T) {
	assemble := func(t *testing.T, title string, fingerprinted bool) (*Assembler, []*render.Page) {
		t.Helper()
		fs := afero.NewMemMapFs()
		files := map[string]string{
			"content/ja/notes/a.md": "---\ntitle: " + title + "\ntags: [x]\n---\nbody\n",
			"content/ja/notes/b.md": "---\ntitle: 二\n---\nbody\n",
			"content/ko/notes/a.md": "---\ntitle: 번역\n---\n본문\n",
		}
		for p, s := range files {
			if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		langs := []string{"ja", "ko"}
		c, _ := source.Load(context.Background(), fs, "content", langs)
		st, _ := site.Resolve(c, site.Options{Langs: langs})
		a := New(st, Options{Langs: langs, BaseURL: "https://example.org/", T: func(_, k string) string { return k }})
		var pages []*render.Page
		for _, sp := range st.Pages {
			p := a.Page(sp, &Content{})
			if fingerprinted {
				a.Fingerprint(p, 1)
			}
			pages = append(pages, p)
		}
		return a, pages
	}
	var sums FeedSums
	seen := map[uint64]bool{}
	for i, b := range []struct {
		title         string
		fingerprinted bool
	}{{"一", true}, {"一", true}, {"改", true}, {"改", false}, {"一", true}} {
		a, pages := assemble(t, b.title, b.fingerprinted)
		want := FeedFingerprint(a.Site(), pages)
		if got := sums.Fingerprint(a, pages); got != want {
			t.Fatalf("build %d: %x from the sums, %x fresh", i, got, want)
		}
		seen[want] = true
	}
	if len(seen) != 2 {
		t.Errorf("%d fingerprints for two contents", len(seen))
	}
}
