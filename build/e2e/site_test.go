package e2e

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

var (
	builtOnce sync.Once
	builtDir  string
	builtErr  error
)

// builtCourse builds the bundled course once per test binary into a temp
// folder and returns that folder.
func builtCourse(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		root, _ := filepath.Abs("../..")
		dir, err := os.MkdirTemp("", "kakehashi-e2e-")
		if err != nil {
			builtErr = err
			return
		}
		builtDir = filepath.Join(dir, "public")
		b, err := build.New(afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), root)), build.Options{BaseURL: "https://example.org/", WasmRoot: root, WasmCache: filepath.Join(root, ".kakehashi-cache", "wasm")})
		if err != nil {
			builtErr = err
			return
		}
		res, err := b.Build(context.Background())
		if err != nil {
			builtErr = err
			return
		}
		builtErr = output.Publish(context.Background(), afero.NewOsFs(), builtDir, res.Site)
	})
	if builtErr != nil {
		t.Fatalf("building the bundled course: %v", builtErr)
	}
	return builtDir
}

// serve serves dir on 127.0.0.1 for the test's duration.
func serve(t *testing.T, dir string) string {
	t.Helper()
	return serveHandler(t, http.FileServer(http.Dir(dir)))
}

// serveHandler serves h on 127.0.0.1 for the test's duration and returns
// its URL.
func serveHandler(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

var (
	attrRe = regexp.MustCompile(`\s(?:href|src)="([^"]*)"`)
	idRe   = regexp.MustCompile(`\sid="([^"]*)"`)
)

// TestLinksResolve checks every internal link and asset reference in the
// built site: the file exists, and a #fragment names an element of it.
func TestLinksResolve(t *testing.T) {
	dir := builtCourse(t)
	ids := map[string]map[string]bool{}
	idsOf := func(file string) map[string]bool {
		if m, ok := ids[file]; ok {
			return m
		}
		m := map[string]bool{}
		b, _ := os.ReadFile(file)
		for _, g := range idRe.FindAllSubmatch(b, -1) {
			m[string(g[1])] = true
		}
		ids[file] = m
		return m
	}
	checked := 0
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		for _, m := range attrRe.FindAllSubmatch(b, -1) {
			ref := strings.ReplaceAll(string(m[1]), "&amp;", "&")
			u, err := url.Parse(ref)
			if err != nil {
				t.Errorf("%s: unparsable link %q", rel, ref)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				if strings.HasPrefix(ref, "https://example.org/") {
					continue // canonical and alternates under the base URL
				}
				if u.Scheme == "mailto" {
					continue
				}
				t.Errorf("%s: link to another origin %q", rel, ref)
				continue
			}
			if strings.HasPrefix(u.Path, "/") && rel != "404.html" {
				t.Errorf("%s: root-absolute link %q breaks under a base path and file://", rel, ref)
				continue
			}
			target := p
			if u.Path != "" {
				target = filepath.Join(filepath.Dir(p), filepath.FromSlash(u.Path))
				if strings.HasPrefix(u.Path, "/") {
					target = filepath.Join(dir, filepath.FromSlash(u.Path))
				}
				if strings.HasSuffix(u.Path, "/") || u.Path == "." || u.Path == ".." {
					target = filepath.Join(target, "index.html")
				}
			}
			if !strings.HasPrefix(target, dir) {
				t.Errorf("%s: %q leaves the site", rel, ref)
				continue
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: broken link %q", rel, ref)
				continue
			}
			if u.Fragment != "" && path.Ext(target) == ".html" && !idsOf(target)[u.Fragment] {
				t.Errorf("%s: %q names no element with that id", rel, ref)
			}
			checked++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d links checked; the walk found too little", checked)
	}
}
