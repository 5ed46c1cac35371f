package source

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Field is one front matter field kakehashi reads. Each is declared once,
// in the table Fields returns; from it come the decoder (which assigns
// the value to its FrontMatter field after its checks), the warning about
// any other name (with the nearest of these as "did you mean"), the
// positions recorded for the messages of later stages (FrontMatter.Pos,
// by Name), and the fields of the templates' data copied from the front
// matter (FrontMatter.Fill).
type Field struct {
	// Name is the field as the front matter writes it: "title".
	Name string
	// Go is the FrontMatter field its value fills: "Title".
	Go string
	// Value is what the value must be and how it is checked.
	Value Value
	// Data is the field of the templates' data that shows the value as it
	// is ("Title"), filled by FrontMatter.Fill; "" when templates see
	// only what other stages make of it (a URL, a part's place).
	Data string
	// Use says where the value is used.
	Use string
	// Example is a value as the front matter writes it, in YAML.
	Example string
}

// fields is the table of front matter fields (see Field); Fields hands
// out a copy.
var fields = [...]Field{
	{Name: "title", Go: "Title", Value: text, Data: "Title", Example: `"クォーラム"`,
		Use: "the page's <title> and heading, its entry in listings, feeds, the sitemap and the language switcher; a home page's is the site's title in its language"},
	{Name: "description", Go: "Description", Value: text, Data: "Description", Example: `"etcd の過半数"`,
		Use: "the page's meta description; in listings and feeds when it has no summary"},
	{Name: "summary", Go: "Summary", Value: text, Data: "Summary", Example: `"要点"`,
		Use: "stands for the page in listings and feeds instead of its description"},
	{Name: "series", Go: "Series", Value: text, Example: `"cka"`,
		Use: "the series an article is a part of, when it is not its folder's (site)"},
	{Name: "part", Go: "Part", Value: positive, Example: `3`,
		Use: "an article's part number in its series: its place in the series list, its previous and next parts, #N links (site, page)"},
	{Name: "date", Go: "Date", Value: date, Data: "Date", Example: `2026-11-02`,
		Use: "when the page was published: shown on the article, listings newest first, feeds"},
	{Name: "lastmod", Go: "Lastmod", Value: date, Data: "Lastmod", Example: `2026-11-03`,
		Use: "when the page last changed in substance: \"updated\" on the article, the feeds' and the sitemap's update time, stale translation notices (translation)"},
	{Name: "tags", Go: "Tags", Value: list("a list of strings", "tag %q cannot be a URL segment: %v", checkTag), Data: "Tags", Example: `[Kubernetes, etcd]`,
		Use: "the article's tags: its tag links, a page per tag and the tag index (site), feeds"},
	{Name: "draft", Go: "Draft", Value: flag, Example: `true`,
		Use: "a draft is published only with --drafts (site)"},
	{Name: "slug", Go: "Slug", Value: segment, Example: `quorum`,
		Use: "the page's URL segment instead of its file name (site)"},
	{Name: "aliases", Go: "Aliases", Value: list("a list of URL paths", "alias %q cannot be published: %v", CheckAlias), Example: `[/ja/old/]`,
		Use: "the page's old URLs, each published as a redirect to it (site, render)"},
	{Name: "params", Go: "Params", Value: mapping, Data: "Params", Example: `{layout: wide}`,
		Use: "free for the theme: the templates' .Params"},
	{Name: "translated", Go: "Translated", Value: mark, Example: `2026-12-01 3f2a1c9e7b0d`,
		Use: "the day a translation was marked up to date with its original, and the original's hash then: stale translation notices (translation, check)"},
	{Name: "translationOf", Go: "TranslationOf", Value: langCode, Example: `ko`,
		Use: "the language of the page's original when it is not the site's first language (site, translation)"},
}

// Fields is the table of the front matter fields kakehashi reads, in the
// order of FrontMatter's.
func Fields() []Field { return slices.Clone(fields[:]) }

// fieldNamed is the field of the table called name.
func fieldNamed(name string) (Field, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// fieldNames are the names of the table's fields, for "did you mean".
func fieldNames() []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return names
}

// Value is the kind of a field's value: what it must be, and how it is
// read from what YAML, TOML or JSON decoded and checked.
type Value struct {
	// Want is what a value of another type is told it must be: "a string".
	Want string
	// read returns the value as its FrontMatter field holds it, or false
	// after reporting why not (r.bad for a value of another type).
	read func(r *reader) (any, bool)
}

// reader reads one field's value, collecting the messages about it.
type reader struct {
	p     string
	src   []byte
	f     field
	want  string
	diags diag.List
}

// bad reports a value of the wrong type.
func (r *reader) bad() {
	r.at(r.f.valOff, "front matter field %q must be %s, got %s", r.f.key, r.want, describe(r.f.value))
}

// at reports a problem at byte offset off of the file.
func (r *reader) at(off int, format string, args ...any) {
	r.diags = append(r.diags, diag.At(r.p, r.src, off, format, args...))
}

// str is the value as a string, reporting any other type.
func (r *reader) str() (string, bool) {
	s, ok := r.f.value.(string)
	if !ok {
		r.bad()
	}
	return s, ok
}

// The kinds of values of the table's fields.
var (
	// text is any string.
	text = Value{Want: "a string", read: func(r *reader) (any, bool) { return r.str() }}
	// segment is a string that is one URL segment (CheckSegment).
	segment = Value{Want: "a string", read: func(r *reader) (any, bool) {
		s, ok := r.str()
		if !ok {
			return nil, false
		}
		if err := CheckSegment(s); err != nil {
			r.at(r.f.valOff, "front matter field %q cannot be a URL segment: %v", r.f.key, err)
			return nil, false
		}
		return s, true
	}}
	// positive is a whole number from 1.
	positive = Value{Want: "a positive whole number", read: func(r *reader) (any, bool) {
		n, ok := asInt(r.f.value)
		if !ok || n < 1 {
			r.bad()
			return nil, false
		}
		return n, true
	}}
	// flag is true or false.
	flag = Value{Want: "true or false", read: func(r *reader) (any, bool) {
		b, ok := r.f.value.(bool)
		if !ok {
			r.bad()
		}
		return b, ok
	}}
	// date is a day or a time, as a time.Time.
	date = Value{Want: "a date like 2026-11-02 or 2026-11-02T09:00:00+09:00", read: func(r *reader) (any, bool) {
		s, _ := r.f.value.(string)
		t, ok := parseDate(s)
		if !ok {
			r.bad()
			return nil, false
		}
		return t, true
	}}
	// mapping is a mapping of names to any values.
	mapping = Value{Want: "a mapping of names to values", read: func(r *reader) (any, bool) {
		m, ok := r.f.value.(map[string]any)
		if !ok {
			r.bad()
		}
		return m, ok
	}}
	// langCode is a language code, like ko or zh-hant.
	langCode = Value{Want: "the language code of the page's original, like ko", read: func(r *reader) (any, bool) {
		s, ok := r.f.value.(string)
		if !ok || !langCodeRe.MatchString(s) {
			r.bad()
			return nil, false
		}
		return s, true
	}}
	// mark is a "translated:" value: a day and a hash (ParseTranslated).
	mark = Value{Want: "the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d", read: func(r *reader) (any, bool) {
		s, ok := r.str()
		if !ok {
			return nil, false
		}
		t, off, err := ParseTranslated(s)
		if err != nil {
			r.at(valueOff(r.src, r.f, s, off), "front matter field %q: %v", r.f.key, err)
			return nil, false
		}
		return t, true
	}}
)

// list is a list of strings (numbers are taken as written), want saying so
// to a value of another type, each item passing check; an item it refuses
// is reported at its position with msg (%q the item, %v the reason).
func list(want, msg string, check func(string) error) Value {
	return Value{Want: want, read: func(r *reader) (any, bool) {
		list, ok := asStrings(r.f.value)
		if !ok {
			r.bad()
			return nil, false
		}
		n := len(r.diags)
		for i, it := range list {
			if err := check(it); err != nil {
				r.at(itemOff(r.f, i), msg, it, err)
			}
		}
		return list, len(r.diags) == n
	}}
}

// checkTag is why tag cannot be one: its page's URL segment fails
// CheckSegment.
func checkTag(tag string) error { return CheckSegment(TagSlug(tag)) }

// Fill sets, in the struct dst points to (the templates' data), each
// field a Field names as its Data to the value of its FrontMatter field.
// A table naming a field dst lacks, or of another type, is a mistake of
// the program, caught by the tests: Fill panics.
func (fm *FrontMatter) Fill(dst any) {
	from, to := reflect.ValueOf(fm).Elem(), reflect.ValueOf(dst).Elem()
	for _, f := range fields {
		if f.Data == "" {
			continue
		}
		d := to.FieldByName(f.Data)
		if !d.IsValid() {
			panic(fmt.Sprintf("source: front matter field %q fills %s.%s, which does not exist", f.Name, to.Type(), f.Data))
		}
		d.Set(from.FieldByName(f.Go))
	}
}
