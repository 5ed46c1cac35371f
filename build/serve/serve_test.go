package serve

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"
	"go.uber.org/goleak"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/serve/watch"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

const article = "content/ja/cka/05-ha-cluster.md"

// newTestServer serves a copy of the bundled course through httptest.
func newTestServer(t *testing.T) (*Server, *httptest.Server, string) {
	t.Helper()
	root := copyCourse(t)
	s, err := New(context.Background(), Options{Root: root, Watch: watch.Options{Quiet: 30 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if errs := s.Errors(); errs != nil {
		t.Fatalf("the bundled course does not build:\n%v", errs)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); ts.Close() })
	return s, ts, root
}

// TestEventStream edits files through the watcher and follows the event
// stream: a reload comes only once the new page is served, a CSS edit
// swaps stylesheets, broken front matter gives an error with
// file:line:col while the old page stays served, and the fix reloads.
func TestEventStream(t *testing.T) {
	s, ts, root := newTestServer(t)
	startWatch(t, s)
	c := ts.Client()
	es := openStream(t, c, ts.URL+"/_kakehashi/events")
	if e := es.next(t); e.Name != "ok" || e.payload(t).Version != s.Version() {
		t.Fatalf("first event %+v, want ok with version %s", e, s.Version())
	}
	page := ts.URL + "/ja/cka/05-ha-cluster/"

	// An edited article: the reload comes after the new text is served.
	appendFile(t, root, article, "\n新しい段落 LIVE-EDIT-1 です。\n")
	if e := es.next(t); e.Name != "reload" {
		t.Fatalf("after an edit, event %+v, want reload", e)
	}
	if _, body := get(t, c, page); !strings.Contains(body, "LIVE-EDIT-1") {
		t.Fatal("reload sent before the edited page was served")
	}

	// A stylesheet edit: a css event naming the stylesheet's new hashed
	// name, and the old one it replaces in the pages.
	oldCSS := s.cur.Load().assets["/css/main.css"]
	appendFile(t, root, "themes/default/static/css/main.css", "\n.live-edit-2 { color: red; }\n")
	e := es.next(t)
	newCSS := s.cur.Load().assets["/css/main.css"]
	if p := e.payload(t); e.Name != "css" || newCSS == oldCSS || !slices.Equal(p.Paths, []string{newCSS}) || p.Swap[oldCSS] != newCSS || len(p.Swap) != 1 {
		t.Fatalf("after a CSS edit, event %+v, want css with %s, swapping %s", e, newCSS, oldCSS)
	}
	if _, body := get(t, c, ts.URL+newCSS); !strings.Contains(body, ".live-edit-2") {
		t.Fatal("css event sent before the stylesheet was served")
	}

	// Broken front matter: an error event at file:line:col; the last good
	// page stays served, and a new client gets the error on connect.
	good, err := os.ReadFile(filepath.Join(root, article))
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(good, []byte("part: 5\n"), []byte("part: [5\n"), 1)
	if bytes.Equal(broken, good) {
		t.Fatal("fixture: no part line to break")
	}
	writeFile(t, root, article, string(broken))
	e = es.next(t)
	if e.Name != "error" {
		t.Fatalf("after breaking the front matter, event %+v, want error", e)
	}
	errs := e.payload(t).Errors
	if len(errs) == 0 || errs[0].Path != article || errs[0].Line < 2 || errs[0].Col < 1 {
		t.Fatalf("error event %s: want a diagnostic in %s with line and column", e.Data, article)
	}
	if !strings.HasPrefix(errs[0].Header, article+":") || len(errs[0].Context) == 0 {
		t.Fatalf("diagnostic %+v: want header file:line:col and context lines", errs[0])
	}
	if status, body := get(t, c, page); status != 200 || !strings.Contains(body, "LIVE-EDIT-1") {
		t.Fatalf("while broken: %d, want the last good page", status)
	}
	late := openStream(t, c, ts.URL+"/_kakehashi/events")
	if e := late.next(t); e.Name != "error" || e.payload(t).Errors[0].Header != errs[0].Header {
		t.Fatalf("a client connecting while broken got %+v, want the error", e)
	}

	// The fix: reload, and the error is gone for new clients too.
	writeFile(t, root, article, strings.Replace(string(good), "LIVE-EDIT-1", "LIVE-EDIT-3", 1))
	for _, st := range []*stream{es, late} {
		if e := st.next(t); e.Name != "reload" {
			t.Fatalf("after the fix, event %+v, want reload", e)
		}
	}
	if s.Errors() != nil {
		t.Fatalf("errors after the fix: %v", s.Errors())
	}
	if _, body := get(t, c, page); !strings.Contains(body, "LIVE-EDIT-3") {
		t.Fatal("fixed page not served")
	}
	if e := openStream(t, c, ts.URL+"/_kakehashi/events").next(t); e.Name != "ok" {
		t.Fatalf("a client connecting after the fix got %+v, want ok", e)
	}
}

// TestContentFolderWatched serves a site whose pages are in course/, not
// content/: a save there is watched, rebuilt and reloaded.
func TestContentFolderWatched(t *testing.T) {
	root := copyCourse(t)
	must(t, os.Rename(filepath.Join(root, "content"), filepath.Join(root, "course")))
	s, err := New(context.Background(), Options{Root: root, Build: build.Options{Layout: build.Layout{Content: "course"}},
		Watch: watch.Options{Quiet: 30 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if errs := s.Errors(); errs != nil {
		t.Fatalf("the course in course/ does not build:\n%v", errs)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); ts.Close() })
	startWatch(t, s)
	c := ts.Client()
	es := openStream(t, c, ts.URL+"/_kakehashi/events")
	if e := es.next(t); e.Name != "ok" {
		t.Fatalf("first event %+v, want ok", e)
	}
	appendFile(t, root, "course/ja/cka/05-ha-cluster.md", "\n新しい段落 COURSE-EDIT です。\n")
	if e := es.next(t); e.Name != "reload" {
		t.Fatalf("after an edit in course/, event %+v, want reload", e)
	}
	if _, body := get(t, c, ts.URL+"/ja/cka/05-ha-cluster/"); !strings.Contains(body, "COURSE-EDIT") {
		t.Fatal("the edit in course/ is not served")
	}
}

// TestSameAsFullBuild applies a sequence of edits, rebuilding after each,
// and checks that every served file equals, byte for byte, a fresh full
// build of the same input, and that no other file is served.
func TestSameAsFullBuild(t *testing.T) {
	s, ts, root := newTestServer(t)
	series := "content/series/cka.yaml"
	seriesSrc, err := os.ReadFile(filepath.Join(root, series))
	if err != nil {
		t.Fatal(err)
	}
	newPart := "content/ja/cka/04-kubeadm-install.md"
	steps := []struct {
		name  string
		edit  func()
		paths []string
	}{
		{"edit an article", func() { appendFile(t, root, article, "\n追記した段落。\n") }, []string{article}},
		{"add a part page", func() {
			writeFile(t, root, series, strings.Replace(string(seriesSrc),
				"title: { ja: \"kubeadm クラスターのインストール\", ko: \"kubeadm 클러스터 설치\" }\n    state: planned",
				"title: { ja: \"kubeadm クラスターのインストール\", ko: \"kubeadm 클러스터 설치\" }\n    state: published", 1))
			writeFile(t, root, newPart, "---\ntitle: \"kubeadm クラスターのインストール\"\nseries: cka\npart: 4\ndate: 2026-10-01\n---\n\n本文。#5 へ続きます。\n")
		}, []string{series, newPart}},
		{"delete it", func() {
			must(t, os.Remove(filepath.Join(root, newPart)))
			writeFile(t, root, series, string(seriesSrc))
		}, []string{series, newPart}},
		{"change a template", func() {
			appendFile(t, root, "themes/default/layouts/article.html", "\n{{/* edited */}}\n")
		}, []string{"themes/default/layouts/article.html"}},
		{"change i18n", func() {
			p := filepath.Join(root, "i18n", "ja.toml")
			b, err := os.ReadFile(p)
			must(t, err)
			edited := bytes.Replace(b, []byte(`toc = "目次"`), []byte(`toc = "この記事の目次"`), 1)
			if bytes.Equal(edited, b) {
				t.Fatal("fixture: no toc string in ja.toml")
			}
			must(t, os.WriteFile(p, edited, 0o644))
		}, []string{"i18n/ja.toml"}},
	}
	for _, st := range steps {
		st.edit()
		if err := s.Rebuild(context.Background(), st.paths); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		// As the server builds: the pages' translation notices link to
		// the translator's view, and each search index is one script.
		b, err := build.New(mustSiteFs(t, root), build.Options{PairView: PairView, LazySearch: true})
		must(t, err)
		fresh, err := b.Build(context.Background())
		if err != nil {
			t.Fatalf("%s: fresh build: %v", st.name, err)
		}
		served := s.cur.Load().site
		var servedPaths []string
		for p := range served.files {
			servedPaths = append(servedPaths, p)
		}
		slices.Sort(servedPaths)
		if want := fresh.Site.Paths(); !slices.Equal(servedPaths, want) {
			t.Fatalf("%s: served files\n%q\nwant\n%q", st.name, servedPaths, want)
		}
		for _, p := range fresh.Site.Paths() {
			want, _ := fresh.Site.Get(p)
			resp, err := ts.Client().Get(ts.URL + "/" + p)
			must(t, err)
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			must(t, err)
			if resp.StatusCode != 200 {
				t.Fatalf("%s: /%s: status %d", st.name, p, resp.StatusCode)
			}
			if strings.HasSuffix(p, ".html") {
				if !bytes.Contains(got, []byte(liveTag)) {
					t.Fatalf("%s: /%s: no live-reload script", st.name, p)
				}
				got = bytes.Replace(got, []byte(liveTag), nil, 1)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: /%s differs from a fresh full build", st.name, p)
			}
		}
	}
	if status, _ := get(t, ts.Client(), ts.URL+"/ja/cka/04-kubeadm-install/"); status != 404 {
		t.Fatalf("deleted page: status %d, want 404", status)
	}
}

func mustSiteFs(t *testing.T, root string) afero.Fs {
	t.Helper()
	fs, err := source.SiteFS(root)
	must(t, err)
	return fs
}

// rawGet sends target as is on the request line, so that nothing between
// the test and the server cleans or re-encodes it.
func rawGet(t *testing.T, addr, target string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, "" // the server refused the request line itself
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestNothingOutsideTheSite asks for files outside the site every way a
// path can be bent, with symbolic links in content/ and in the theme
// pointing outside, and checks that no response holds a byte of them.
func TestNothingOutsideTheSite(t *testing.T) {
	s, ts, root := newTestServer(t)
	outside := t.TempDir()
	const secret = "SECRET-OUTSIDE-THE-SITE-7f3a"
	writeFile(t, outside, "secret.md", "---\ntitle: "+secret+"\n---\n"+secret+"\n")
	writeFile(t, outside, "secret.txt", secret)
	links := map[string]string{
		"content/ja/cka/03-leak.md":         filepath.Join(outside, "secret.md"),
		"content/ja/leak":                   outside,
		"themes/default/static/leak.txt":    filepath.Join(outside, "secret.txt"),
		"themes/default/static/leakdir":     outside,
		"themes/default/static/passwd.txt":  "/etc/passwd",
		"content/ko/cka/03-passwd.md":       "/etc/passwd",
		"themes/default/static/js/inner.js": filepath.Join(root, "themes/default/static/js/main.js"),
	}
	var paths []string
	for rel, target := range links {
		must(t, os.Symlink(target, filepath.Join(root, filepath.FromSlash(rel))))
		paths = append(paths, rel)
	}
	err := s.Rebuild(context.Background(), paths)
	if err == nil {
		t.Fatal("a build reading symbolic links out of the site succeeded")
	}
	if !strings.Contains(err.Error(), source.ErrOutside.Error()) {
		t.Fatalf("build error %v, want %q", err, source.ErrOutside)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "root:x:") {
		t.Fatal("the build error quotes the outside file")
	}

	addr := ts.Listener.Addr().String()
	tests := []struct {
		target string
		want   []int
	}{
		{"/../etc/passwd", []int{400}},
		{"/ja/../../etc/passwd", []int{400}},
		{"/%2e%2e/etc/passwd", []int{400}},
		{"/%2E%2E/%2E%2E/etc/passwd", []int{400}},
		{"/ja/%2e%2e/%2e%2e/etc/passwd", []int{400}},
		{"/..%2fetc%2fpasswd", []int{400}},
		{"/ja%2f..%2f..%2fetc%2fpasswd", []int{400}},
		{"/%2fetc%2fpasswd", []int{400}},
		{"/..\\..\\etc\\passwd", []int{400}},
		{"/%5c..%5c..%5cetc%5cpasswd", []int{400}},
		{"/C:/Windows/win.ini", []int{400}},
		{"/c:%5cwindows%5cwin.ini", []int{400}},
		{"//etc/passwd", []int{404}},
		{"/etc/passwd", []int{404}},
		{"/ja/cka/05-ha-cluster/%00", []int{400}},
		{"/ja%00/", []int{400}},
		{"/leak.txt", []int{404}},
		{"/leakdir/secret.txt", []int{404}},
		{"/passwd.txt", []int{404}},
		{"/ja/leak/secret.md", []int{404}},
		{"/ja/cka/03-leak/", []int{404}},
		{"/ko/cka/03-passwd/", []int{404}},
		{"/_pair/../../etc/passwd", []int{400}},
		{"/_pair/%2e%2e/%2e%2e/etc/passwd", []int{400}},
		{"http://localhost/../etc/passwd", []int{400}},
		{"*", []int{400}},
	}
	for _, tc := range tests {
		status, body := rawGet(t, addr, tc.target)
		if strings.Contains(body, secret) || strings.Contains(body, "root:x:0:0") {
			t.Errorf("%s: response holds bytes from outside the site", tc.target)
		}
		if status != 0 && !slices.Contains(tc.want, status) {
			t.Errorf("%s: status %d, want %v", tc.target, status, tc.want)
		}
	}
	// Neither does any file of the site, nor the error event.
	for p := range s.cur.Load().site.files {
		if _, body := get(t, ts.Client(), ts.URL+"/"+p); strings.Contains(body, secret) || strings.Contains(body, "root:x:0:0") {
			t.Errorf("/%s holds bytes from outside the site", p)
		}
	}
	if e := openStream(t, ts.Client(), ts.URL+"/_kakehashi/events").next(t); e.Name != "error" || strings.Contains(e.Data, secret) {
		t.Errorf("event %+v: want an error that does not quote the outside file", e)
	}
}

func TestCleanPath(t *testing.T) {
	tests := []struct {
		decoded, escaped string
		name             string
		slash, bad       bool
	}{
		{"/", "/", "", false, false},
		{"/ja/", "/ja/", "ja", true, false},
		{"/ja/cka/05-ha-cluster/", "/ja/cka/05-ha-cluster/", "ja/cka/05-ha-cluster", true, false},
		{"/css/main.css", "/css/main.css", "css/main.css", false, false},
		{"/ja//cka/./x", "/ja//cka/./x", "ja/cka/x", false, false},
		{"/../x", "/../x", "", false, true},
		{"/a/../x", "/a/../x", "", false, true},
		{"/a/..", "/a/%2e%2e", "", false, true},
		{"/a/b", "/a%2fb", "", false, true},
		{"/a/b", "/a%2Fb", "", false, true},
		{"/a\\b", "/a%5cb", "", false, true},
		{"/a\\b", "/a\\b", "", false, true},
		{"/a\x00b", "/a%00b", "", false, true},
		{"/a\nb", "/a%0ab", "", false, true},
		{"/C:/x", "/C:/x", "", false, true},
		{"x", "x", "", false, true},
		{"/ja/한국어/", "/ja/%ED%95%9C%EA%B5%AD%EC%96%B4/", "ja/한국어", true, false},
	}
	for _, tc := range tests {
		name, slash, err := cleanPath(tc.decoded, tc.escaped)
		if (err != nil) != tc.bad || (!tc.bad && (name != tc.name || slash != tc.slash)) {
			t.Errorf("cleanPath(%q, %q) = %q, %v, %v; want %q, %v, bad=%v", tc.decoded, tc.escaped, name, slash, err, tc.name, tc.slash, tc.bad)
		}
	}
}

// TestResponses checks content types, compression, ETags, folders, 404,
// the language redirect of / and the side-by-side page.
func TestResponses(t *testing.T) {
	s, ts, root := newTestServer(t)
	// A WebAssembly file and a page without translation, as a site may have.
	writeFile(t, root, "themes/default/static/wasm/calc.wasm", "\x00asm\x01\x00\x00\x00")
	writeFile(t, root, "content/ja/cka/02-control-plane.md", strings.Replace(readFile(t, root, "content/ja/cka/02-control-plane.md"), "\n---\n", "\n---\nONLY-JA\n", 1))
	must(t, os.Remove(filepath.Join(root, "content/ko/cka/02-control-plane.md")))
	if err := s.Rebuild(context.Background(), []string{"themes/default/static/wasm/calc.wasm", "content/ko/cka/02-control-plane.md"}); err != nil {
		t.Fatal(err)
	}
	noRedirect := &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer noRedirect.CloseIdleConnections()
	type want struct {
		status   int
		ctype    string
		location string
		encoding string
		contains string
	}
	asset := s.cur.Load().assets.Path
	tests := []struct {
		path    string
		headers map[string]string
		want    want
	}{
		{"/ja/cka/05-ha-cluster/", nil, want{200, "text/html; charset=utf-8", "", "", liveTag}},
		{"/ja/cka/05-ha-cluster/", map[string]string{"Accept-Encoding": "gzip"}, want{200, "text/html; charset=utf-8", "", "gzip", ""}},
		{"/ja/cka/05-ha-cluster/", map[string]string{"Accept-Encoding": "gzip;q=0, br"}, want{200, "text/html; charset=utf-8", "", "", liveTag}},
		{"/ja/cka/05-ha-cluster", nil, want{301, "", "/ja/cka/05-ha-cluster/", "", ""}},
		{asset("/css/main.css"), nil, want{200, "text/css; charset=utf-8", "", "", ""}},
		{asset("/css/main.css"), map[string]string{"Accept-Encoding": "gzip"}, want{200, "text/css; charset=utf-8", "", "gzip", ""}},
		{asset("/js/main.js"), nil, want{200, "text/javascript; charset=utf-8", "", "", ""}},
		{"/css/main.css", nil, want{404, "text/html; charset=utf-8", "", "", ""}},
		{"/favicon.svg", nil, want{200, "image/svg+xml", "", "", ""}},
		{"/sitemap.xml", nil, want{200, "application/xml; charset=utf-8", "", "", ""}},
		{asset("/wasm/calc.wasm"), nil, want{200, "application/wasm", "", "", "\x00asm"}},
		{"/ja/search-index.js", nil, want{200, "text/javascript; charset=utf-8", "", "", ""}},
		{"/nope/", nil, want{404, "text/html; charset=utf-8", "", "", liveTag}},
		{"/", map[string]string{"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5"}, want{302, "", "/ko/", "", ""}},
		{"/", map[string]string{"Accept-Language": "ja,en;q=0.5"}, want{302, "", "/ja/", "", ""}},
		{"/", map[string]string{"Accept-Language": "fr-FR"}, want{302, "", "/ja/", "", ""}},
		{"/", nil, want{302, "", "/ja/", "", ""}},
		{"/index.html", nil, want{200, "text/html; charset=utf-8", "", "", ""}},
		{"/_kakehashi/live.js", nil, want{200, "text/javascript; charset=utf-8", "", "", "EventSource"}},
		{"/_pair/ja/cka/05-ha-cluster/", nil, want{200, "text/html; charset=utf-8", "", "", `<iframe src="/ko/cka/05-ha-cluster/"`}},
		{"/_pair/cka/05-ha-cluster/", nil, want{200, "text/html; charset=utf-8", "", "", `<iframe src="/ja/cka/05-ha-cluster/"`}},
		{"/_pair/ja/cka/02-control-plane/", nil, want{200, "text/html; charset=utf-8", "", "", `<div class="missing" lang="ja" data-state="missing">`}},
		{"/_pair/ko/cka/02-control-plane/", nil, want{200, "text/html; charset=utf-8", "", "", `<iframe src="/ja/cka/02-control-plane/"`}},
		{"/_pair/ja/cka/%3Cscript%3E/", nil, want{200, "text/html; charset=utf-8", "", "", "&lt;script&gt;"}},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest("GET", ts.URL+tc.path, nil)
		for k, v := range tc.headers {
			req.Header.Set(k, v)
		}
		resp, err := noRedirect.Do(req)
		must(t, err)
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := raw
		if resp.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			must(t, err)
			body, err = io.ReadAll(zr)
			must(t, err)
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") && !bytes.Contains(body, []byte(liveTag)) {
				t.Errorf("%s: gzip body does not decode to the page", tc.path)
			}
		}
		got := want{resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Location"), resp.Header.Get("Content-Encoding"), ""}
		if tc.want.ctype == "" {
			got.ctype = ""
		}
		if tc.want.contains != "" && bytes.Contains(body, []byte(tc.want.contains)) {
			got.contains = tc.want.contains
		}
		if got != tc.want {
			t.Errorf("GET %s %v:\n got %+v\nwant %+v", tc.path, tc.headers, got, tc.want)
		}
		// A hashed name never changes: a year, immutable; anything else
		// (HTML, the search indexes, files without a hash) is revalidated.
		cc := "no-cache"
		if s.cur.Load().hashed[strings.TrimPrefix(tc.path, "/")] {
			cc = "public, max-age=31536000, immutable"
		}
		if got.status == 200 && !strings.HasPrefix(tc.path, "/_pair/") && resp.Header.Get("Cache-Control") != cc {
			t.Errorf("GET %s: Cache-Control %q, want %s", tc.path, resp.Header.Get("Cache-Control"), cc)
		}
	}
	// ETag: a matching If-None-Match gives 304; after the file changes the
	// old tag no longer matches.
	etag := func(path, inm, enc string) (int, string) {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		resp, err := noRedirect.Do(req)
		must(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("ETag")
	}
	for _, enc := range []string{"", "gzip"} {
		status, tag := etag("/ja/cka/05-ha-cluster/", "", enc)
		if status != 200 || tag == "" {
			t.Fatalf("%q: no ETag", enc)
		}
		if status, _ := etag("/ja/cka/05-ha-cluster/", tag, enc); status != 304 {
			t.Fatalf("%q: If-None-Match %s: status %d, want 304", enc, tag, status)
		}
		appendFile(t, root, "themes/default/static/css/main.css", "\n.etag-"+enc+"{color:red}\n")
		must(t, s.Rebuild(context.Background(), []string{"themes/default/static/css/main.css"}))
		if status, _ := etag("/ja/cka/05-ha-cluster/", tag, enc); status != 200 {
			t.Fatalf("%q: stale ETag matched after a change: %d", enc, status)
		}
	}
}

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	must(t, err)
	return string(b)
}

// TestConcurrentClientsAndShutdown serves on a real listener: 200 event
// streams and 200 page fetches at once, a rebuild reaching every stream,
// then a cancelled context shutting everything down with no goroutine
// left behind.
func TestConcurrentClientsAndShutdown(t *testing.T) {
	root := copyCourse(t)
	// regexp2 (used by chroma) keeps a clock goroutine of its own once a
	// regexp with a timeout ran, sleeping or on its way there; it is not
	// the server's, wherever in its stack it is caught.
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(), goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := New(ctx, Options{Root: root})
	must(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	runErr := make(chan error, 1)
	go func() { runErr <- s.Run(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	tr := &http.Transport{MaxIdleConnsPerHost: 400}
	c := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()

	const n = 200
	streams := make([]*stream, n)
	var wg sync.WaitGroup
	errs := make(chan string, 2*n)
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			st := openStream(t, c, base+"/_kakehashi/events")
			if e := st.next(t); e.Name != "ok" {
				errs <- "stream: first event " + e.Name
			}
			streams[i] = st
		}()
		go func() {
			defer wg.Done()
			status, body := get(t, c, base+"/ja/cka/05-ha-cluster/")
			if status != 200 || !strings.Contains(body, liveTag) {
				errs <- "page fetch failed"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if got := s.hub.count(); got != n {
		t.Fatalf("%d streams connected, want %d", got, n)
	}
	appendFile(t, root, article, "\nCONCURRENT-EDIT\n")
	must(t, s.Rebuild(ctx, []string{article}))
	for i, st := range streams {
		if e := st.next(t); e.Name != "reload" {
			t.Fatalf("stream %d: %+v, want reload", i, e)
		}
	}

	cancel()
	if err := <-runErr; err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, st := range streams {
		for range st.events { // every stream ends: its reader closes the channel
		}
	}
	if _, err := c.Get(base + "/"); err == nil {
		t.Fatal("the server still answers after shutdown")
	}
	tr.CloseIdleConnections()
}

// TestSnapshotAfterEdits: the files served after each rebuild, taken
// from the last snapshot for the output paths the build did not change,
// are those a fresh server of the same site serves.
func TestSnapshotAfterEdits(t *testing.T) {
	s, _, root := newTestServer(t)
	const art, css = "content/ja/cka/05-ha-cluster.md", "themes/default/static/css/main.css"
	good := readFile(t, root, art)
	steps := []struct {
		name  string
		edit  func()
		paths []string
		fails bool
	}{
		{"an article edited", func() { writeFile(t, root, art, good+"\n追記した段落です。\n") }, []string{art}, false},
		{"a stylesheet edited", func() { writeFile(t, root, css, readFile(t, root, css)+"\n.edited { color: red; }\n") }, []string{css}, false},
		{"a translation removed", func() { must(t, os.Remove(filepath.Join(root, "content/ko/cka/02-control-plane.md"))) },
			[]string{"content/ko/cka/02-control-plane.md"}, false},
		{"front matter broken", func() { writeFile(t, root, art, strings.Replace(good, "title:", "title: [", 1)) }, []string{art}, true},
		{"fixed", func() { writeFile(t, root, art, good) }, []string{art}, false},
		{"nothing changed", func() {}, []string{art}, false},
	}
	for _, st := range steps {
		st.edit()
		if err := s.Rebuild(context.Background(), st.paths); (err != nil) != st.fails {
			t.Fatalf("%s: %v", st.name, err)
		}
		if st.fails {
			continue
		}
		fresh, err := New(context.Background(), Options{Root: root})
		must(t, err)
		got, want := s.cur.Load().site.files, fresh.cur.Load().site.files
		for p, w := range want {
			g := got[p]
			switch {
			case g == nil:
				t.Errorf("%s: %s is not served", st.name, p)
			case (g.lazy == nil) != (w.lazy == nil) || g.lazy != nil && g.lazy.Key() != w.lazy.Key():
				t.Errorf("%s: %s is not made as a fresh server makes it", st.name, p)
			case g.lazy == nil && !bytes.Equal(g.data, w.data):
				t.Errorf("%s: %s differs from a fresh server's", st.name, p)
			}
		}
		for p := range got {
			if want[p] == nil {
				t.Errorf("%s: %s is served, not by a fresh server", st.name, p)
			}
		}
		fresh.Close()
	}
}
