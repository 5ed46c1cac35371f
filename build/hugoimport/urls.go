package hugoimport

import (
	"path"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// sanitize is a URL segment or path as Hugo makes it from a name
// (common/paths.Sanitize in Hugo 0.169): letters, digits, marks and
// . / \ _ # + ~ - @ are kept, a run of white space after a kept
// character becomes one "-", anything else is dropped; lowercased unless
// the site disables it.
func (c *hugoConfig) sanitize(s string) string {
	var b strings.Builder
	hyphen, wasHyphen := false, false
	for i, r := range s {
		allowed := r != ' ' && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) ||
			strings.ContainsRune(`./\_#+~-@`, r) ||
			r == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]))
		switch {
		case allowed:
			wasHyphen = r == '-'
			if hyphen && !wasHyphen {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		case b.Len() > 0 && !wasHyphen && unicode.IsSpace(r):
			hyphen = true
		}
	}
	if c.lower {
		return strings.ToLower(b.String())
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// sanitizePath is each segment of p sanitized.
func (c *hugoConfig) sanitizePath(p string) string {
	if p == "" {
		return ""
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = c.sanitize(s)
	}
	return strings.Join(segs, "/")
}

// kakehashiName is a name of the Hugo site (a section, a page's file, a
// slug) as a kakehashi file name or URL segment: sanitized as Hugo makes
// its URLs, without the characters kakehashi refuses in a segment
// (source.CheckSegment). It is "" when nothing is left.
func (c *hugoConfig) kakehashiName(s string) string {
	s = c.sanitize(s)
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`#%?"'<>:*|\`, r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimRight(s, ".")
	if source.CheckSegment(s) != nil {
		return ""
	}
	return s
}

// hugoURL is the URL Hugo publishes a page at (site-absolute, without
// the base URL's path), or "" when the importer cannot tell (a
// permalink pattern it does not know).
func (c *hugoConfig) hugoURL(p *hpage) string {
	prefix := c.langPrefix(p.lang)
	if p.isHome() {
		return "/" + join(prefix) + slashIf(prefix)
	}
	if p.url != "" && !p.branch {
		u := strings.ReplaceAll(p.url, `\`, "/")
		if !strings.HasPrefix(u, "/") && prefix != "" && !strings.HasPrefix(u, prefix+"/") {
			u = prefix + "/" + u
		}
		if strings.Contains(u, "..") {
			u = path.Join("/", u)
		}
		u = "/" + strings.TrimPrefix(u, "/")
		if !strings.HasSuffix(u, "/") && !strings.Contains(path.Base(u), ".") {
			u += "/"
		}
		return u
	}
	if p.branch {
		return "/" + join(prefix, c.sanitizePath(p.dir)) + "/"
	}
	section, _, _ := strings.Cut(p.dir, "/")
	if pattern, ok := c.permalinks[section]; ok && section != "" {
		u, ok := c.expandPermalink(pattern, p)
		if !ok {
			return ""
		}
		return "/" + join(prefix, strings.Trim(u, "/")) + slashIf(u)
	}
	name := p.name
	if p.slug != "" {
		name = p.slug
	}
	if c.ugly && p.bundle == "" {
		return "/" + join(prefix, c.sanitizePath(p.dir), c.sanitize(name)) + ".html"
	}
	return "/" + join(prefix, c.sanitizePath(p.dir), c.sanitize(name)) + "/"
}

// join joins the non-empty segments with "/".
func join(segs ...string) string {
	var out []string
	for _, s := range segs {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}

// slashIf is "/" when s is not empty and does not name a file.
func slashIf(s string) string {
	if s == "" || strings.HasSuffix(s, ".html") {
		return ""
	}
	return "/"
}

// permalinkToken matches a token of a permalink pattern.
var permalinkToken = regexp.MustCompile(`:[a-z]+`)

// expandPermalink fills the pattern of a section's permalinks with the
// page's values, as Hugo's resources/page/permalinks.go does for the
// tokens a course uses; false for another token.
func (c *hugoConfig) expandPermalink(pattern string, p *hpage) (string, bool) {
	ok := true
	section, _, _ := strings.Cut(p.dir, "/")
	urlize := func(s string) string { return c.sanitize(strings.ToLower(s)) }
	slugOr := func(alt string) string {
		if p.slug != "" {
			return urlize(p.slug)
		}
		return alt
	}
	out := permalinkToken.ReplaceAllStringFunc(pattern, func(tok string) string {
		d := p.date
		switch tok {
		case ":year":
			return d.Format("2006")
		case ":month":
			return d.Format("01")
		case ":monthname":
			return strings.ToLower(d.Month().String())
		case ":day":
			return d.Format("02")
		case ":weekday":
			return d.Format("1")
		case ":weekdayname":
			return strings.ToLower(d.Weekday().String())
		case ":yearday":
			return d.Format("002")
		case ":section":
			return c.sanitize(section)
		case ":sections":
			return c.sanitizePath(p.dir)
		case ":title":
			return urlize(p.title)
		case ":slug":
			return slugOr(urlize(p.title))
		case ":filename", ":contentbasename":
			return c.sanitize(p.name)
		case ":slugorfilename", ":slugorcontentbasename":
			return slugOr(c.sanitize(p.name))
		}
		ok = false
		return tok
	})
	if (strings.Contains(pattern, ":year") || strings.Contains(pattern, ":month") || strings.Contains(pattern, ":day")) && p.date.Equal(time.Time{}) {
		ok = false
	}
	return out, ok
}

// hugoAlias is the URL Hugo publishes an alias of the page at (Hugo
// 0.169's pageOutput.Aliases): a relative alias from the folder above the
// page's, an absolute one under the language's folder; a folder's URL
// ends in "/".
func (c *hugoConfig) hugoAlias(p *hpage, pageURL, a string) string {
	a = strings.ReplaceAll(a, `\`, "/")
	var u string
	if strings.HasPrefix(a, "/") {
		u = path.Join("/", c.langPrefix(p.lang), a)
	} else {
		dir := pageURL
		if !strings.HasSuffix(dir, "/") {
			dir = path.Dir(dir)
		}
		u = path.Join(dir, "..", a)
	}
	if !strings.HasSuffix(u, ".html") && !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}
