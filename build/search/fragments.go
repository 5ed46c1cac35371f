// A page's fragment: the script a result's title, URL, text and sections
// are read from when it is shown.

package search

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fragments names and makes the fragments of a language's pages.
type Fragments struct {
	lang  string
	names map[string]string // by URL
	opts  Options
}

// NewFragments names the fragments of lang's pages at urls, as Build does:
// by a hash of each URL (pageNames).
func NewFragments(lang string, urls []string, opts Options) *Fragments {
	us := slices.Clone(urls)
	slices.Sort(us)
	names := pageNames(us)
	f := &Fragments{lang: lang, names: make(map[string]string, len(us)), opts: opts}
	for i, u := range us {
		f.names[u] = names[i]
	}
	return f
}

// Path is the site-absolute path of the fragment of the page at url, and
// whether the index holds that page.
func (f *Fragments) Path(url string) (string, bool) {
	n, ok := f.names[url]
	if !ok {
		return "", false
	}
	return fragmentPath(f.lang, n), true
}

// Make makes the fragment of d, a page of the index: the script that
// gives the search box its URL, title, part and text (its prose, then its
// code, each run of white space one space) once it is among the results
// shown. It reports false for a page the index does not hold.
func (f *Fragments) Make(d Doc) (File, bool) {
	n, ok := f.names[d.URL]
	if !ok {
		return File{}, false
	}
	url := d.URL
	if f.opts.ExplicitIndex && strings.HasSuffix(url, "/") {
		url += "index.html"
	}
	text := storedText(d)
	prose := len(collapse(d.Text))
	secs := locateSections(text, prose, d.Headings, d.HeadingIDs)
	if len(secs) > 0 && prose < len(text) {
		// the last section ends where the code begins
		secs = append(secs, sectionAt{off: utf8.RuneCountInString(text[:prose])})
	}
	return File{Path: fragmentPath(f.lang, n), Data: fragmentScript(f.lang, n, url, collapse(d.Title), d.Part, text, secs)}, true
}

// sectionAt is where a section's heading is in a fragment's text, in
// code points (as the search box counts them): its heading's text begins
// at off and is n long.
type sectionAt struct {
	off, n int
	id     string
}

// locateSections finds each of the headings (a Doc's Headings, whose
// ids are the lines of ids), in order, in the first prose bytes of text
// (a fragment's, collapsed): the heading's text, collapsed, as a whole
// run between spaces, after the last one found. A heading that is not
// found (its text differs from what the prose holds) is left out, and
// the one after it is looked for from the same place.
func locateSections(text string, prose int, headings, ids string) []sectionAt {
	var out []sectionAt
	at, runes := 0, 0 // a byte offset in text, and the code points before it
	hs, is := strings.Split(headings, "\n"), strings.Split(ids, "\n")
	for k, line := range hs {
		if k >= len(is) {
			break
		}
		h, id := collapse(line), is[k]
		if h == "" || id == "" {
			continue
		}
		for from := at; from < prose; {
			i := strings.Index(text[from:prose], h)
			if i < 0 {
				break
			}
			i += from
			end := i + len(h)
			if (i == 0 || text[i-1] == ' ') && (end == len(text) || text[end] == ' ') {
				runes += utf8.RuneCountInString(text[at:i])
				out = append(out, sectionAt{off: runes, n: utf8.RuneCountInString(h), id: id})
				at = i
				break
			}
			from = i + 1
		}
	}
	return out
}

// storedText is what a page keeps in its fragment for snippets: its
// prose, then its code, with every run of white space made one space.
func storedText(d Doc) string {
	t, c := collapse(d.Text), collapse(d.Code)
	switch {
	case t == "":
		return c
	case c == "":
		return t
	}
	return t + " " + c
}

// collapse turns every run of white space (unicode.IsSpace) into one
// space and trims, in one pass; invalid UTF-8 becomes U+FFFD.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				space = b.Len() > 0
				i++
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			// Copy the run of ASCII that is not space at once.
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && !asciiSpace[s[j]] {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			i += size
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// asciiSpace is unicode.IsSpace for ASCII.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
