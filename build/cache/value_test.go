package cache

import (
	"testing"
	"time"
)

// TestValue: Value counts every exported field by name, none tagged out,
// maps whatever their order, and tells apart what prints alike.
func TestValue(t *testing.T) {
	type inner struct {
		Name string
		Tags []string
	}
	type page struct {
		Title    string
		Inner    *inner
		List     []inner
		Params   map[string]any
		Date     time.Time
		Big      string `fingerprint:"-"`
		Feedless string `feed:"-"`
		hidden   string
	}
	sum := func(v any, keys ...string) uint64 {
		h := NewHasher()
		h.Value(v, keys...)
		return h.Sum()
	}
	tokyo := time.FixedZone("JST", 9*3600)
	base := page{Title: "t", Params: map[string]any{"a": 1, "b": "x"}, Date: time.Date(2026, 11, 2, 9, 0, 0, 0, tokyo)}
	differ := map[string]page{}
	for name, edit := range map[string]func(p *page){
		"title":                    func(p *page) { p.Title = "u" },
		"inner set":                func(p *page) { p.Inner = &inner{} },
		"list item":                func(p *page) { p.List = []inner{{}} },
		"tags split":               func(p *page) { p.List = []inner{{Name: "a", Tags: []string{"b"}}} },
		"tags joined":              func(p *page) { p.List = []inner{{Name: "ab"}} },
		"param value":              func(p *page) { p.Params = map[string]any{"a": 1, "b": "y"} },
		"param type":               func(p *page) { p.Params = map[string]any{"a": "1", "b": "x"} },
		"param key":                func(p *page) { p.Params = map[string]any{"a": 1, "c": "x"} },
		"same instant, other zone": func(p *page) { p.Date = p.Date.UTC() },
		"feedless":                 func(p *page) { p.Feedless = "x" },
	} {
		p := base
		edit(&p)
		differ[name] = p
	}
	seen := map[uint64]string{sum(base): "base"}
	for name, p := range differ {
		s := sum(p)
		if other, dup := seen[s]; dup {
			t.Errorf("%s has the sum of %s", name, other)
		}
		seen[s] = name
	}
	same := base
	same.Big, same.hidden = "opted out", "unexported"
	same.Params = map[string]any{}
	for _, k := range []string{"b", "a"} { // another order of insertion
		same.Params[k] = base.Params[k]
	}
	if sum(same) != sum(base) {
		t.Error("an opted-out or unexported field, or the order of a map, changed the sum")
	}
	if f := differ["feedless"]; sum(f, "feed") != sum(base, "feed") {
		t.Error(`a field tagged feed:"-" counts under the key "feed"`)
	}
	// The same in every run, whatever the map order: a pinned sum.
	for range 20 {
		if got, want := sum(base), uint64(0xbc43da4d86be4cff); got != want {
			t.Fatalf("sum %#x, want %#x", got, want)
		}
	}
}

// TestKnow: a pointer whose value is known stands for it by its sum: the
// sum of a value pointing at it changes with the known sum, as with
// what it points at when it is walked, and not with what it points at
// once known.
func TestKnow(t *testing.T) {
	type site struct{ Title string }
	type page struct {
		Site *site
		URL  string
	}
	s := &site{Title: "a"}
	p := page{Site: s, URL: "/ja/"}
	sum := func(pl *Plans) uint64 {
		h := NewHasher()
		h.ValueWith(pl, p)
		return h.Sum()
	}
	walked := sum(nil)
	s.Title = "b"
	if sum(nil) == walked {
		t.Fatal("the site's title does not count when walked")
	}
	var pl Plans
	siteSum := func() uint64 { h := NewHasher(); h.Value(s); return h.Sum() }
	pl.Know(s, siteSum())
	known := sum(&pl)
	s.Title = "c" // not told: the known sum stands
	if sum(&pl) != known {
		t.Error("a known pointer was walked")
	}
	var again Plans
	again.Know(s, siteSum())
	if sum(&again) == known {
		t.Error("another known sum gave the same sum")
	}
	other := page{Site: &site{Title: "c"}, URL: "/ja/"}
	h := NewHasher()
	h.ValueWith(&again, other)
	if h.Sum() == sum(&again) {
		t.Error("another pointer to equal data was taken for the known one")
	}
}
