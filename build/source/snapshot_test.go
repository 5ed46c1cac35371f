package source

import (
	"context"
	"fmt"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// memStore is a Store in memory.
type memStore map[string][]byte

func (m memStore) Get(k string) ([]byte, bool) { v, ok := m[k]; return v, ok }

// save saves what l.Save returns into m, as cache.Store.SaveWith does.
func (m memStore) save(l *Loader) (keep func(string) bool) {
	keep, each := l.Save()
	each(func(k string, v []byte) { m[k] = v })
	maps.DeleteFunc(m, func(k string, _ []byte) bool { return !keep(k) })
	return keep
}

// filled is v with every field set to a value that is not its zero, by
// reflection: a field added to a type the snapshot keeps and forgotten
// by its encoding then comes back zero.
func filled(t *testing.T, v reflect.Value, seed int) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strings.Repeat("x", seed%5) + "あ")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(seed + 7))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			filled(t, s.Index(i), seed+i+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			filled(t, k, seed+i+3)
			k.SetString(k.String() + string(rune('a'+i)))
			filled(t, e, seed+i+5)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 2, 3, 4, 5, 6, time.UTC).Add(time.Duration(seed) * time.Hour)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				filled(t, v.Field(i), seed+i)
			}
		}
	case reflect.Interface:
		// What the decoders give: each kind the params may hold.
		v.Set(reflect.ValueOf(map[string]any{"s": "x", "b": true, "i": 3, "i64": int64(4), "u": uint64(5), "f": 1.5,
			"l": []any{"a", 2, nil}, "m": map[string]any{"n": nil}, "t": time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
			"nl": []any(nil), "nm": map[string]any(nil)}))
	default:
		t.Fatalf("filled: a %s field: teach the test and the snapshot about it", v.Kind())
	}
}

// TestSnapshotEntries: a page and a series file, every field of what
// they hold set, come back from their entries as they were, the page's
// hash and summary with them; a damaged entry is refused.
func TestSnapshotEntries(t *testing.T) {
	pg := &Page{Path: "content/ja/cka/a.md", Rel: "cka/a.md", Src: []byte("---\ntitle: x\n---\nbody\n"), BodyStart: 17}
	filled(t, reflect.ValueOf(&pg.Meta).Elem(), 1)
	pg.Hashed(func(*Page) string { return "hash" })
	pg.Summarized(func(*Page) string { return "summary" })
	var ds diag.List
	filled(t, reflect.ValueOf(&ds).Elem(), 2)
	mod := time.Unix(0, 1_700_000_000_123_456_789)
	b, ok := encodeEntry(cached{mod: mod, size: 23, page: pg, diags: ds})
	if !ok {
		t.Fatal("the page cannot be encoded")
	}
	e, err := decodeEntry(pg.Path, b)
	if err != nil {
		t.Fatal(err)
	}
	got := e.page
	if !e.mod.Equal(mod) || e.size != 23 || !reflect.DeepEqual(e.diags, ds) || got.Path != pg.Path || got.Rel != pg.Rel ||
		string(got.Src) != string(pg.Src) || got.BodyStart != pg.BodyStart || cap(got.Src) != len(got.Src) {
		t.Errorf("decoded %+v (mod %v, size %d, diags %v)", got, e.mod, e.size, e.diags)
	}
	if !reflect.DeepEqual(got.Meta, pg.Meta) {
		t.Errorf("front matter\n%#v\nwant\n%#v", got.Meta, pg.Meta)
	}
	if h := got.Hashed(func(*Page) string { return "computed" }); h != "hash" || !e.hadHash {
		t.Errorf("hash %q", h)
	}
	if s := got.Summarized(func(*Page) string { return "computed" }); s != "summary" || !e.hadSummary {
		t.Errorf("summary %q", s)
	}
	if got.sum.Load() == 0 || got.Sum() != pg.Sum() {
		t.Errorf("the page's sum came back as %x, want %x", got.sum.Load(), pg.Sum())
	}

	sr := &Series{Path: "content/series/cka.yaml", Src: []byte("id: cka\n")}
	v := reflect.ValueOf(sr).Elem()
	for _, f := range []string{"ID", "Title", "Description", "Parts"} {
		filled(t, v.FieldByName(f), 3)
	}
	b, ok = encodeEntry(cached{mod: mod, size: 8, series: sr})
	if !ok {
		t.Fatal("the series cannot be encoded")
	}
	e, err = decodeEntry(sr.Path, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.series, sr) {
		t.Errorf("series\n%#v\nwant\n%#v", e.series, sr)
	}
	// Cut anywhere before the file's bytes, it is refused.
	for cut := range len(b) - len(sr.Src) {
		if _, err := decodeEntry(sr.Path, b[:cut]); err == nil {
			t.Errorf("an entry cut to %d of its %d bytes decoded", cut, len(b))
		}
	}
	if _, ok := encodeEntry(cached{page: &Page{Meta: FrontMatter{Params: map[string]any{"c": complex(1, 2)}}}}); ok {
		t.Error("a value of an unknown type was encoded")
	}
}

// countingFs counts the files opened.
type countingFs struct {
	afero.Fs
	opened map[string]int
}

func (c *countingFs) Open(name string) (afero.File, error) {
	c.opened[name]++
	return c.Fs.Open(name)
}

func (c *countingFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	c.opened[name]++
	return c.Fs.OpenFile(name, flag, perm)
}

// TestLoaderPersist: a new loader given the store an earlier one saved
// into reads only the file that changed since, and loads what the
// earlier loaded, the pages' hashes included; a file in error is read
// again every time.
func TestLoaderPersist(t *testing.T) {
	ctx := context.Background()
	mem := afero.NewMemMapFs()
	files := map[string]string{
		"content/ja/cka/a.md":     "---\ntitle: a\ntags: [x]\nparams: {k: [1, 2.5, true]}\n---\nbody a\n",
		"content/ja/cka/b.md":     "---\ntitle: b\ntitel: typo\n---\nbody b\n",
		"content/ja/cka/bad.md":   "---\ntitle: [\n---\n",
		"content/series/cka.yaml": "id: cka\ntitle: {ja: C, ko: C}\nparts:\n  - number: 2\n    title: {ja: a, ko: b}\n    state: published\n",
	}
	for p, s := range files {
		afero.WriteFile(mem, p, []byte(s), 0o644)
	}
	store := memStore{}
	first := NewLoader()
	first.Persist(store)
	want, wantDiags := first.Load(ctx, mem, "content", []string{"ja", "ko"})
	for _, p := range want.Pages {
		p.Hashed(func(p *Page) string { return "hash of " + p.Path })
	}
	keep := store.save(first)
	if !keep("content/ja/cka/a.md") || !keep("content/series/cka.yaml") || keep("content/ja/cka/bad.md") || keep("content/ja/cka/gone.md") {
		t.Error("Save keeps the wrong files")
	}

	fs := &countingFs{Fs: mem, opened: map[string]int{}}
	next := NewLoader()
	next.Persist(store)
	got, gotDiags := next.Load(ctx, fs, "content", []string{"ja", "ko"})
	if fs.opened["content/ja/cka/a.md"] != 0 || fs.opened["content/series/cka.yaml"] != 0 || fs.opened["content/ja/cka/bad.md"] != 1 {
		t.Errorf("files opened: %v; want only the one in error", fs.opened)
	}
	if fmt.Sprint(gotDiags) != fmt.Sprint(wantDiags) {
		t.Errorf("diagnostics\n%v\nwant\n%v", gotDiags, wantDiags)
	}
	if len(got.Pages) != len(want.Pages) || len(got.Series) != 1 || !reflect.DeepEqual(got.Series[0], want.Series[0]) {
		t.Fatalf("loaded %d pages, %d series", len(got.Pages), len(got.Series))
	}
	for i, p := range got.Pages {
		w := want.Pages[i]
		if p.Path != w.Path || p.Lang != w.Lang || p.Rel != w.Rel || string(p.Src) != string(w.Src) || p.BodyStart != w.BodyStart ||
			!p.ModTime.Equal(w.ModTime) || !reflect.DeepEqual(p.Meta, w.Meta) {
			t.Errorf("%s: %+v\nwant %+v", p.Path, p, w)
		}
		if h := p.Hashed(func(*Page) string { return "computed again" }); h != "hash of "+p.Path {
			t.Errorf("%s: hash %q", p.Path, h)
		}
	}

	// An edit: that file alone is read.
	time.Sleep(time.Millisecond)
	afero.WriteFile(mem, "content/ja/cka/a.md", []byte("---\ntitle: a2\n---\nbody\n"), 0o644)
	clear(fs.opened)
	third := NewLoader()
	third.Persist(store)
	c, _ := third.Load(ctx, fs, "content", []string{"ja", "ko"})
	if fs.opened["content/ja/cka/a.md"] != 1 || fs.opened["content/ja/cka/b.md"] != 0 {
		t.Errorf("after an edit, files opened: %v", fs.opened)
	}
	if c.Pages[0].Meta.Title != "a2" {
		t.Errorf("the edited page's title is %q", c.Pages[0].Meta.Title)
	}
}
