package hugoimport

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"go.yaml.in/yaml/v3"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// kpage is a page of the kakehashi site being made from a Hugo page.
type kpage struct {
	h    *hpage
	out  string // its file: "content/ja/course/01-one.md"
	url  string // its URL in the kakehashi site: "/ja/course/01-one/"
	slug string // its kakehashi slug, "" for none
	tags []string
}

// frontMatterFields says what becomes of a Hugo front matter field (in
// lower case) that has no kakehashi field of the same meaning, or that
// the importer reads for itself: "" for a field whose fate the
// conversion decides (title, date, weight …), else the kind and the
// report's message for a field that is not kept or is kept in params.
var frontMatterFields = map[string]struct {
	kind Kind
	msg  string
}{
	"expirydate":     {NotConverted, "expiryDate: kakehashi does not unpublish pages"},
	"unpublishdate":  {NotConverted, "unpublishdate: kakehashi does not unpublish pages"},
	"headless":       {NotConverted, "headless: kakehashi publishes every page that is not a draft"},
	"build":          {NotConverted, "build options (list, render, publishResources) have no equivalent in kakehashi"},
	"_build":         {NotConverted, "build options (list, render, publishResources) have no equivalent in kakehashi"},
	"cascade":        {NotConverted, "cascade: the pages below do not get these fields"},
	"outputs":        {NotConverted, "outputs: kakehashi writes one HTML page"},
	"resources":      {NotConverted, "resources metadata (names, titles, params of the bundle's files) has no equivalent in kakehashi"},
	"markup":         {NotConverted, "markup: kakehashi reads markdown only"},
	"sitemap":        {NotConverted, "sitemap settings: kakehashi lists every page in the sitemap"},
	"iscjklanguage":  {Approximated, "isCJKLanguage: kakehashi counts reading time and breaks lines per script by itself"},
	"translationkey": {Converted, "translationKey pairs the page with its translations, under one file name"},
}

// convertPages makes the kakehashi pages of every group, their front
// matter, the files of their page folders and the series files.
func (cv *converter) convertPages(set *contentSet) {
	langs := cv.cfg.codes()
	var pages []*kpage
	for _, g := range set.groups {
		for _, l := range langs {
			p := g.pages[l]
			if p == nil {
				continue
			}
			k := &kpage{h: p}
			switch {
			case p.isHome():
				k.out, k.url = path.Join("content", l, "_index.md"), "/"+l+"/"
			case p.branch:
				k.out, k.url = path.Join("content", l, g.out, "_index.md"), "/"+l+"/"+g.out+"/"
			default:
				k.out = path.Join("content", l, g.out+".md")
				if p.bundle != "" {
					k.out = path.Join("content", l, g.out, source.BundleIndex)
				}
				name := path.Base(g.out)
				if p.slug != "" {
					if s := cv.cfg.kakehashiName(p.slug); s != "" {
						k.slug, name = s, s
					}
				}
				k.url = "/" + path.Join(l, path.Dir(g.out), name) + "/"
				k.tags = cv.tags(p)
			}
			pages = append(pages, k)
			cv.taken[k.url] = p.src
			if g.files == nil {
				g.files = map[string]string{}
			}
			g.files[l] = k.out
		}
	}
	// The pages kakehashi makes itself have their URLs too.
	cv.taken["/"], cv.taken["/404.html"] = "kakehashi's root page", "kakehashi's 404 page"
	for _, l := range langs {
		cv.taken["/"+l+"/"] = "the " + l + " home page"
		for _, s := range set.series {
			u := "/" + l + "/" + s.id + "/"
			if cv.taken[u] == "" {
				cv.taken[u] = "the " + l + " index of series " + s.id
			}
		}
	}
	for _, k := range pages {
		for _, t := range k.tags {
			u := "/" + k.h.lang + "/tags/" + source.TagSlug(t) + "/"
			if cv.taken[u] == "" {
				cv.taken[u] = "the " + k.h.lang + " page of tag " + t
			}
		}
		if len(k.tags) > 0 && cv.taken["/"+k.h.lang+"/tags/"] == "" {
			cv.taken["/"+k.h.lang+"/tags/"] = "the " + k.h.lang + " tag index"
		}
	}
	for _, k := range pages {
		cv.writePage(k)
	}
	cv.report.Pages = len(pages)
}

// tags are the page's tags that kakehashi can publish a page for; the
// others are reported.
func (cv *converter) tags(p *hpage) []string {
	if p.fm == nil {
		return nil
	}
	v, ok := lookup(p.fm.vals, "tags")
	if !ok {
		return nil
	}
	var out []string
	for i, t := range stringList(v) {
		if err := source.CheckSegment(source.TagSlug(t)); err != nil {
			line, col := p.fm.at(fmt.Sprintf("tags[%d]", i))
			cv.report.addAt(NotConverted, p.src, line, col, "tag %q cannot be a kakehashi tag, whose page's URL segment would be %v: dropped", t, err)
			continue
		}
		out = append(out, t)
	}
	return out
}

// writePage converts one page: its front matter into kakehashi's, its
// Hugo URLs into aliases, and writes it with its body as it is.
func (cv *converter) writePage(k *kpage) {
	p := k.h
	g := p.group
	fields := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) {
		fields.Content = append(fields.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	}
	at := func(key string) (int, int) {
		if p.fm == nil {
			return 0, 0
		}
		return p.fm.at(key)
	}
	note := func(kind Kind, key, format string, args ...any) {
		line, col := at(key)
		cv.report.addAt(kind, p.src, line, col, format, args...)
	}
	var vals map[string]any
	if p.fm != nil {
		vals = p.fm.vals
	}
	get := func(key string) (any, bool) { return lookup(vals, key) }
	spelled := func(key string) string { return spelling(vals, key) }
	for _, key := range []string{"title", "description", "summary"} {
		if v, ok := get(key); ok {
			if s, ok := scalarString(v); ok {
				add(key, str(s))
			} else {
				note(NotConverted, key, "%s must be text, not %s: dropped", spelled(key), describe(v))
			}
		}
	}
	dateKey := ""
	for _, key := range []string{"date", "publishdate", "pubdate", "published"} {
		v, ok := get(key)
		if !ok {
			continue
		}
		_, s, ok := parseHugoDate(v)
		switch {
		case !ok:
			note(NotConverted, key, "%s %s is no date kakehashi reads: dropped", spelled(key), describe(v))
		case dateKey == "":
			dateKey = key
			add("date", date(s))
			if key != "date" {
				note(Converted, key, "%s is kakehashi's date", spelled(key))
			}
		default:
			note(NotConverted, key, "%s: kakehashi publishes a page that is no draft at once; its date is %s", spelled(key), spelled(dateKey))
		}
	}
	lastmod := false
	for _, key := range []string{"lastmod", "modified"} {
		v, ok := get(key)
		if !ok {
			continue
		}
		_, s, ok := parseHugoDate(v)
		switch {
		case !ok:
			note(NotConverted, key, "%s %s is no date kakehashi reads: dropped", spelled(key), describe(v))
		case !lastmod:
			lastmod = true
			add("lastmod", date(s))
		}
	}
	if len(k.tags) > 0 {
		add("tags", flowList(k.tags))
	}
	if v, ok := get("draft"); ok {
		if b, ok := v.(bool); ok {
			if b {
				add("draft", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
				if g.series != nil {
					note(Approximated, "draft", "a draft: the series lists part %d as published, so a build without --drafts warns that it has no page in %s", g.part, p.lang)
				}
			}
		} else {
			note(NotConverted, "draft", "draft must be true or false, not %s: dropped", describe(v))
		}
	}
	if v, ok := get("slug"); ok {
		switch {
		case p.branch:
			note(NotConverted, "slug", "slug %s of a section's page: its folder's name is its URL, in Hugo as in kakehashi", describe(v))
		case k.slug != "":
			add("slug", str(k.slug))
			if k.slug != p.slug {
				note(Approximated, "slug", "slug %q is %q, as Hugo publishes it", p.slug, k.slug)
			}
		default:
			note(NotConverted, "slug", "slug %s cannot be a kakehashi URL segment: the page is at %s", describe(v), k.url)
		}
	}
	if g.series != nil {
		add("part", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(g.part)})
	}
	if aliases := cv.aliases(k, note); len(aliases) > 0 {
		add("aliases", flowList(aliases))
	}
	params := cv.params(p, vals, note)
	if len(params) > 0 {
		var n yaml.Node
		if err := n.Encode(plainValue(params)); err == nil {
			add("params", &n)
		}
	}

	var b bytes.Buffer
	if len(fields.Content) > 0 {
		b.WriteString("---\n")
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{fields}}
		if err := enc.Encode(doc); err != nil {
			cv.report.addAt(NotConverted, p.src, 0, 0, "its front matter cannot be written: %v", err)
			return
		}
		enc.Close()
		b.WriteString("---\n")
	}
	newBody := bytes.Count(b.Bytes(), []byte("\n")) + 1
	oldBody, _ := diag.Position(p.text, p.body)
	b.Write(cv.rewriteBody(k))
	cv.origins[k.out] = Origin{Path: p.src, Shift: newBody - oldBody, Body: newBody}
	cv.write(k.out, b.Bytes())

	what := "the " + p.lang + " page"
	switch {
	case p.isHome():
		what = "the " + p.lang + " home page"
	case p.branch && g.series == nil && g.dir != "" && cv.seriesOf(g.dir) != nil:
		what = "the " + p.lang + " index page of series " + cv.seriesOf(g.dir).id
	case p.branch:
		what = "the " + p.lang + " page of section " + g.dir
	case g.series != nil:
		order := fmt.Sprintf("weight %d", p.weight)
		if g.series.byDate || p.weight == 0 {
			order = "by date"
		}
		what = fmt.Sprintf("part %d of series %s (%s) in %s", g.part, g.series.id, order, p.lang)
	}
	cv.report.addAt(Converted, p.src, 0, 0, "%s is %s, %s", what, k.out, k.url)
}

// seriesOf is the series made of the Hugo section dir, or nil.
func (cv *converter) seriesOf(dir string) *hseries {
	for _, s := range cv.set.series {
		if s.section == dir {
			return s
		}
	}
	return nil
}

// aliases are the kakehashi aliases of a page: its Hugo URL when it is
// not the kakehashi one, and its Hugo aliases, each as Hugo publishes it.
// An alias that is a page's URL or another page's alias is reported and
// left out.
func (cv *converter) aliases(k *kpage, note func(Kind, string, string, ...any)) []string {
	p := k.h
	type cand struct {
		url, key string
		from     string // what the alias keeps, for messages
	}
	var cands []cand
	hugoURL := cv.cfg.hugoURL(p)
	switch {
	case hugoURL == "":
		note(NotConverted, "", "its Hugo URL cannot be worked out (the permalink pattern of its section): it is not kept as an alias")
	case hugoURL != k.url && !p.isHome():
		key := ""
		if p.url != "" && !p.branch {
			key = "url"
		}
		cands = append(cands, cand{hugoURL, key, "its Hugo URL"})
	}
	if v, ok := lookup(vals(p), "aliases"); ok && hugoURL != "" {
		for i, a := range stringList(v) {
			key := fmt.Sprintf("aliases[%d]", i)
			if strings.Contains(a, "://") {
				note(NotConverted, key, "alias %q is a URL with a scheme: kakehashi's aliases are paths of the site", a)
				continue
			}
			cands = append(cands, cand{cv.cfg.hugoAlias(p, hugoURL, a), key, fmt.Sprintf("alias %q", a)})
		}
	}
	var out []string
	for _, c := range cands {
		switch {
		case c.url == k.url || slices.Contains(out, c.url):
			continue
		case source.CheckAlias(c.url) != nil:
			note(NotConverted, c.key, "%s, %s, cannot be a kakehashi alias: %v", c.from, c.url, source.CheckAlias(c.url))
		case cv.taken[c.url] != "":
			note(NotConverted, c.key, "%s, %s, is also the URL of %s in kakehashi: it is not kept as an alias", c.from, c.url, cv.taken[c.url])
		case cv.aliased[c.url] != "":
			note(NotConverted, c.key, "%s, %s, is also an alias of %s: it is kept there only", c.from, c.url, cv.aliased[c.url])
		default:
			cv.aliased[c.url] = p.src
			out = append(out, c.url)
			if c.key == "url" {
				note(Approximated, "url", "url %q: kakehashi names a page by its file; the page is at %s and %s is an alias redirecting to it", p.url, k.url, c.url)
			} else if c.key == "" {
				note(Converted, "", "its Hugo URL %s is an alias redirecting to %s", c.url, k.url)
			}
		}
	}
	return out
}

// spelling is the key of m that is key whatever the case of its
// letters, as m spells it.
func spelling(m map[string]any, key string) string {
	if _, ok := m[key]; ok {
		return key
	}
	for _, k := range sortedKeys(m) {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	return key
}

// vals are the page's front matter values (nil without front matter).
func vals(p *hpage) map[string]any {
	if p.fm == nil {
		return nil
	}
	return p.fm.vals
}

// params are the page's kakehashi params: its Hugo params and every
// field kakehashi has no field for, reported.
func (cv *converter) params(p *hpage, vals map[string]any, note func(Kind, string, string, ...any)) map[string]any {
	out := map[string]any{}
	if v, ok := lookup(vals, "params"); ok {
		if m, ok := v.(map[string]any); ok {
			for k, v := range m {
				out[k] = v
			}
			note(Converted, "params", "params are kakehashi's params (.Params in templates)")
		} else {
			note(NotConverted, "params", "params must be a mapping, not %s: dropped", describe(v))
		}
	}
	for _, key := range sortedKeys(vals) {
		lk := strings.ToLower(key)
		switch lk {
		case "title", "description", "summary", "date", "publishdate", "pubdate", "published",
			"lastmod", "modified", "tags", "draft", "slug", "url", "aliases", "params":
			continue
		case "weight":
			if p.group.series != nil {
				continue
			}
		}
		if info, ok := frontMatterFields[lk]; ok {
			note(info.kind, lk, "%s", info.msg)
			continue
		}
		if _, dup := out[key]; dup {
			note(NotConverted, lk, "%s is also in the page's params, whose value is kept", key)
			continue
		}
		out[key] = vals[key]
		switch {
		case lk == "weight":
			note(Approximated, lk, "weight orders no series here: kept in params (.Params.%s)", key)
		case lk == "series" || lk == "part" || lk == "translated" || lk == "translationof":
			note(Approximated, lk, "%s means something else in kakehashi: kept in params (.Params.%s)", key, key)
		case lk == "categories" || slices.Contains(cv.taxonomies, lk):
			note(Approximated, lk, "%s is a Hugo taxonomy; kakehashi has tags only: kept in params (.Params.%s)", key, key)
		case lk == "menu" || lk == "menus":
			note(Approximated, lk, "page menus are kept in params (.Params.%s): kakehashi's theme shows no menus", key)
		case lk == "layout" || lk == "type":
			note(Approximated, lk, "%s chooses a Hugo template; kakehashi's theme renders the page: kept in params (.Params.%s)", key, key)
		default:
			note(Approximated, lk, "%s has no kakehashi field: kept in params (.Params.%s)", key, key)
		}
	}
	return out
}

// str is a YAML string.
func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// date is a YAML date as written by parseHugoDate.
func date(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: s}
	if !strings.HasSuffix(s, "Z") && strings.Contains(s, "T") && !strings.ContainsAny(s[strings.Index(s, "T"):], "+-") {
		n.Tag = "!!str" // a time without a zone is no YAML timestamp
	}
	return n
}

// flowList is a YAML list of strings on one line.
func flowList(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range items {
		n.Content = append(n.Content, str(s))
	}
	return n
}

// plainValue is v with TOML's local dates and times as the strings they
// are written as, and every table a map, for encoding into YAML or TOML.
func plainValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != nil {
				out[k] = plainValue(e)
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(v))
		for _, e := range v {
			if e != nil {
				out = append(out, plainValue(e))
			}
		}
		return out
	case toml.LocalDate:
		return v.String()
	case toml.LocalDateTime:
		return v.String()
	case toml.LocalTime:
		return v.String()
	case time.Time:
		return v
	}
	return v
}
