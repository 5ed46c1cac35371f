package render

import (
	"net/url"
	"strings"
)

// Rel turns the site-absolute path target ("/css/main.css") into a URL
// relative to the page at the site-absolute path from ("/ja/cka/05-ha-cluster/"),
// so that the site works under any base URL and from file://. A page path
// ending in "/" is a folder (its index.html); any other is a file in its
// folder. A target ending in "/" stays a folder link, and a query or fragment
// is kept. Targets that are not site-absolute (a fragment, a relative path,
// a URL with a scheme, a protocol-relative URL) come back unchanged.
//
//	Rel("/ja/cka/05-ha-cluster/", "/css/main.css") == "../../../css/main.css"
//	Rel("/ja/cka/05-ha-cluster/", "/ko/cka/05-ha-cluster/") == "../../../ko/cka/05-ha-cluster/"
//	Rel("/", "/ja/") == "ja/"
//	Rel("/ja/", "/") == "../"
func Rel(from, target string) string {
	if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") {
		return target
	}
	up := strings.Repeat("../", relDepth(from))
	rest := strings.TrimPrefix(target, "/")
	switch {
	case up+rest == "":
		return "./"
	case up == "" && (strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "?")):
		return "./" + rest
	}
	return up + rest
}

// relDepth is how many folders deep the page at the site-absolute path
// from is: how many "../" lead from it to the site's root. Rel's paths
// depend on from by it alone.
func relDepth(from string) int {
	dir := from
	if i := strings.IndexAny(dir, "?#"); i >= 0 {
		dir = dir[:i]
	}
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[:i+1]
	} else {
		dir = "/"
	}
	depth := strings.Count(dir, "/") - 1
	// Collapse empty segments ("//") so they do not count as folders.
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		if seg == "" && depth > 0 {
			depth--
		}
	}
	return max(depth, 0)
}

// Abs turns the site-absolute path p into an absolute URL under baseURL
// ("https://example.org/course/" + "ja/"). An empty baseURL leaves p as is;
// a URL with a scheme comes back unchanged.
func Abs(baseURL, p string) string {
	if strings.Contains(p, "://") || baseURL == "" {
		return p
	}
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	return baseURL + strings.TrimPrefix(p, "/")
}

// Link is Rel(from, target), and with explicit the URL of a folder names
// its index.html (ExplicitIndex): the form of every link between pages of
// a copy opened from file://, which has no folder index.
func Link(from, target string, explicit bool) string {
	r := Rel(from, target)
	if explicit {
		r = ExplicitIndex(r)
	}
	return r
}

// ExplicitIndex appends index.html to a relative URL that names a folder.
// Absolute URLs, root-relative paths, fragments and file links are left
// alone. Only URLs that are navigated to get the suffix: a folder that
// scripts join paths to (the search box's data-base) must stay a folder.
func ExplicitIndex(ref string) string {
	if ref == "" || strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, "/") {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return ref
	}
	p, rest := ref, ""
	if i := strings.IndexAny(ref, "?#"); i >= 0 {
		p, rest = ref[:i], ref[i:]
	}
	switch {
	case p == "." || p == "..":
		p += "/index.html"
	case strings.HasSuffix(p, "/"):
		p += "index.html"
	}
	return p + rest
}
