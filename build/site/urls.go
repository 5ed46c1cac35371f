package site

import "strings"

// Rel returns the link from the page at site-absolute path from to the
// site-absolute path to, relative, so that the site works under any base URL
// and from file://. A folder URL ("/ja/cka/") is a page's location; a file
// URL ("/404.html") lives in its folder.
//
//	Rel("/ja/cka/05-ha-cluster/", "/css/main.css") == "../../../css/main.css"
//	Rel("/ja/cka/05-ha-cluster/", "/ja/cka/02-control-plane/") == "../02-control-plane/"
//	Rel("/", "/ja/") == "ja/"
func Rel(from, to string) string {
	fromDir := from[:strings.LastIndex(from, "/")+1]
	f := strings.Split(strings.Trim(fromDir, "/"), "/")
	if fromDir == "/" {
		f = nil
	}
	frag := ""
	if i := strings.IndexByte(to, '#'); i >= 0 {
		to, frag = to[:i], to[i:]
	}
	t := strings.Split(strings.TrimPrefix(to, "/"), "/")
	i := 0
	for i < len(f) && i < len(t)-1 && f[i] == t[i] {
		i++
	}
	var b strings.Builder
	for range len(f) - i {
		b.WriteString("../")
	}
	b.WriteString(strings.Join(t[i:], "/"))
	if b.Len() == 0 {
		b.WriteString("./")
	}
	return b.String() + frag
}
