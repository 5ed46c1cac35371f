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
		if got, want := sum(base), uint64(0xecc5ef9f1a7ac28d); got != want {
			t.Fatalf("sum %#x, want %#x", got, want)
		}
	}
}
