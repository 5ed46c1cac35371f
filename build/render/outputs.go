package render

import (
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/search"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// OutputKind is what a generated file is.
type OutputKind string

// The kinds of files a build generates beside the pages.
const (
	OutputSitemap   OutputKind = "sitemap"   // /sitemap.xml
	OutputRobots    OutputKind = "robots"    // /robots.txt
	OutputFeed      OutputKind = "feed"      // /<lang>/index.xml, a language's Atom feed
	OutputSearch    OutputKind = "search"    // /<lang>/search-index.js, a language's search index (its manifest)
	OutputHighlight OutputKind = "highlight" // /css/chroma.css, the code blocks' colours
	// OutputCalc are the calculators' WebAssembly modules and Go's
	// wasm_exec.js, which calc.js loads; written when a page holds a
	// calculator.
	OutputCalc OutputKind = "calc"
	// OutputSearchData is the folder of a language's search shards and
	// its pages' fragments, which its search index names
	// (/<lang>/search-data/).
	OutputSearchData OutputKind = "search-data"
)

// Where the site's own outputs are published; HighlightStylePath before
// its hashed name (Fingerprinted).
const (
	SitemapPath        = "/sitemap.xml"
	RobotsPath         = "/robots.txt"
	HighlightStylePath = "/css/chroma.css"
)

// FeedPath is where the Atom feed of lang is published.
func FeedPath(lang string) string { return "/" + lang + "/index.xml" }

// Output is one file a build generates: neither a page (the root page and
// the 404 page are pages of the site, site.Site.Pages), nor a file of a
// page folder or of static/, nor an alias's redirect.
type Output struct {
	Kind OutputKind
	Lang string // the language of a language's own output; "" for the site's
	// Path is site-absolute, before any hashed name: "/ja/index.xml"; a
	// folder's ends in "/", and the output is the files the build writes
	// in it.
	Path string
}

// Outputs is the registry of the files a build of one site generates,
// made from its languages and what its configuration turns on
// (NewOutputs). Each output is registered here once, and both its writer
// and the link checker read it: Feeds writes the sitemap, robots.txt and
// the feeds it lists, the build the search indexes, the highlight
// stylesheet and the calculators' files at its paths, and a link of a
// page to any of them is a link to a file (package page). It is
// immutable once made.
type Outputs struct {
	list []Output
}

// NewOutputs returns the registry of the outputs of a site of langs: the
// sitemap, robots.txt, a feed per language, a search index and its folder
// of shards and fragments per language unless noSearch, the highlight
// stylesheet, and the calculators' files when calculators are on.
func NewOutputs(langs []string, noSearch, calculators bool) *Outputs {
	o := &Outputs{}
	add := func(k OutputKind, lang, p string) { o.list = append(o.list, Output{Kind: k, Lang: lang, Path: p}) }
	add(OutputSitemap, "", SitemapPath)
	add(OutputRobots, "", RobotsPath)
	for _, l := range langs {
		add(OutputFeed, l, FeedPath(l))
	}
	if !noSearch {
		for _, l := range langs {
			add(OutputSearch, l, search.IndexPath(l))
			add(OutputSearchData, l, search.DataDir(l))
		}
	}
	add(OutputHighlight, "", HighlightStylePath)
	if calculators {
		for _, p := range []string{shortcodes.WasmExecPath, shortcodes.CalcWasmPath, shortcodes.CalcX509WasmPath} {
			add(OutputCalc, "", p)
		}
	}
	return o
}

// All lists every output, in registration order (a copy).
func (o *Outputs) All() []Output { return slices.Clone(o.list) }

// Has reports whether the site-absolute path p is an output's, or a
// file in an output folder.
func (o *Outputs) Has(p string) bool {
	return slices.ContainsFunc(o.list, func(out Output) bool {
		return out.Path == p || strings.HasSuffix(out.Path, "/") && strings.HasPrefix(p, out.Path) && len(p) > len(out.Path)
	})
}

// outputs is the registry of site: Site.Outputs, or for a Site made
// without one (tests, tools) the outputs of its languages.
func (s *Site) outputs() *Outputs {
	if s.Outputs != nil {
		return s.Outputs
	}
	return NewOutputs(s.Langs, s.NoSearch, true)
}

// outPath is an output's path as Feeds keys it: without the leading
// slash, as the output folder names it.
func outPath(p string) string { return strings.TrimPrefix(p, "/") }
