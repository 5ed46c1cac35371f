package site

import (
	"path"
	"sort"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// File is a file of a page folder (content/ja/cka/03-scheduling/diagram.png),
// published in its page's output folder under the same relative name
// (/ja/cka/03-scheduling/diagram.png, or under the page's slug).
type File struct {
	Source source.File
	URL    string // site-absolute
	Page   *Page
}

// OutPath is the file the copy is written to, relative to the output
// root.
func (f *File) OutPath() string { return strings.TrimPrefix(f.URL, "/") }

// File returns the file of a page folder at rel under the content root
// ("ja/cka/03-scheduling/diagram.png"), or nil.
func (s *Site) File(rel string) *File { return s.files[rel] }

// addFiles gives every file inside a page folder its URL beside the page.
// A folder holds one page: another markdown file inside a page folder,
// and a file name that cannot be published or that would overwrite the
// page, is an error at its path. Files outside page folders are not
// published.
func (s *Site) addFiles(c *source.Content) diag.List {
	var diags diag.List
	bundles := map[string]*Page{} // by folder under the content root
	for _, p := range s.Pages {
		if p.Bundle != "" {
			bundles[p.Bundle] = p
		}
	}
	if len(bundles) == 0 {
		return nil
	}
	// bundleOf finds the page folder holding rel, the nearest first.
	bundleOf := func(rel string) (*Page, string) {
		for dir := path.Dir(rel); dir != "." && strings.Contains(dir, "/"); dir = path.Dir(dir) {
			if p := bundles[dir]; p != nil {
				return p, strings.TrimPrefix(rel, dir+"/")
			}
		}
		return nil, ""
	}
	for _, sp := range c.Pages {
		dir := path.Dir(sp.Lang + "/" + sp.Rel)
		if sp.IsBundle() {
			dir = path.Dir(dir) // its own folder is its page folder
		}
		if p, _ := bundleOf(dir + "/x"); p != nil {
			diags = append(diags, diag.File(sp.Path, "a page folder holds one page, index.md: this page is inside the folder of %s; move it beside that folder", p.Source.Path))
		}
	}
	s.files = map[string]*File{}
	for _, f := range c.Files {
		key := f.Lang + "/" + f.Rel
		p, rel := bundleOf(key)
		if p == nil {
			continue
		}
		if f.BadName != nil {
			diags = append(diags, diag.File(f.Path, "this file name cannot be published: %v", f.BadName))
			continue
		}
		if rel == "index.html" {
			diags = append(diags, diag.File(f.Path, "a page folder cannot hold index.html: the page %s is published there", p.Source.Path))
			continue
		}
		file := &File{Source: f, URL: p.URL + rel, Page: p}
		s.files[key] = file
		s.Files = append(s.Files, *file)
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].URL < s.Files[j].URL })
	return diags
}
