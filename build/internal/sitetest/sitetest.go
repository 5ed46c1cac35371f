// Package sitetest builds whole sites in tests: a site is written as a
// txtar archive holding only its content, laid over the repository's theme
// (themes/), built with the real build.Builder, then edited and rebuilt,
// with fluent assertions on the output and on the diagnostics. The UI
// strings are the ones embedded in the binary, as an author's site has
// them; a test about overriding them writes the site's own i18n/ files. It is the kakehashi counterpart of Hugo's
// hugolib/integrationtest_builder.go:
//
//	s := sitetest.Test(t, `
//	-- content/series/cka.yaml --
//	...
//	-- content/ja/cka/01-intro.md --
//	...
//	`)
//	s.AssertContains("ja/cka/01-intro/index.html", "part-ref planned")
//	s.Replace("content/ja/cka/01-intro.md", "次は", "続きは").Build().AssertFresh()
//
// A file of the archive replaces the repository's file of the same path,
// so a test can override one template. Edits are told to the Builder
// (Invalidate), so every Build after the first is incremental, as in the
// authoring server; AssertFresh compares it with a fresh build.
package sitetest

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Option configures a Site.
type Option func(*config)

type config struct {
	course bool
	disk   bool
	opts   []func(*build.Options)
}

// WithOptions adjusts the build options of every build of the site
// (its base URL, drafts).
func WithOptions(f func(o *build.Options)) Option {
	return func(c *config) { c.opts = append(c.opts, f) }
}

// BaseURL sets the absolute URL the site is published under.
func BaseURL(u string) Option {
	return WithOptions(func(o *build.Options) { o.BaseURL = u })
}

// Course lays the repository's bundled course under the archive too, for
// tests about the real site: its content/ and its own UI strings files
// (i18n/*.toml), as a build at the repository's root reads them.
func Course() Option { return func(c *config) { c.course = true } }

// OnDisk writes the site into a temporary folder instead of memory and
// builds it through the confined reader every command uses, so that a
// server or a command can be pointed at Root. Edits go to the disk.
func OnDisk() Option { return func(c *config) { c.disk = true } }

// Site is a site under test: its input files, the Builder that builds
// them again after each edit, and the result or error of the last build.
// Its methods fail the test on a broken expectation and return the Site,
// so that steps chain.
type Site struct {
	t       testing.TB
	fs      afero.Fs // the site's input, writable
	root    string   // the folder on disk (OnDisk), else ""
	opts    build.Options
	builder *build.Builder
	pending []string // paths edited since the last build

	res *build.Result // the last good build
	err error         // the last build's error
}

// New lays out the site of the txtar archive over the repository's
// theme, without building it.
func New(t testing.TB, archive string, opts ...Option) *Site {
	t.Helper()
	var c config
	for _, o := range opts {
		o(&c)
	}
	s := &Site{t: t}
	for _, f := range c.opts {
		f(&s.opts)
	}
	repo := RepoRoot(t)
	dirs := []string{"themes"}
	if c.course {
		dirs = append(dirs, "content", "i18n")
	}
	if c.disk {
		s.root = t.TempDir()
	} else {
		s.fs = afero.NewMemMapFs()
	}
	for _, d := range dirs {
		err := filepath.WalkDir(filepath.Join(repo, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || filepath.Base(filepath.Dir(p)) == "i18n" && !strings.HasSuffix(p, ".toml") {
				return err // the Go code of i18n/ is no part of the course
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(repo, p)
			return s.write(filepath.ToSlash(rel), data)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range txtar.Parse([]byte(archive)).Files {
		if err := s.write(cleanPath(t, f.Name), f.Data); err != nil {
			t.Fatal(err)
		}
	}
	if c.disk {
		// Read-only, as every command reads it; edits go to the disk.
		in, err := source.SiteFS(s.root)
		if err != nil {
			t.Fatal(err)
		}
		s.fs = in
	}
	s.builder = s.newBuilder()
	return s
}

// Test lays out the site of the txtar archive like New and builds it,
// failing the test when the build fails.
func Test(t testing.TB, archive string, opts ...Option) *Site {
	t.Helper()
	return New(t, archive, opts...).Build()
}

// RepoRoot is the folder of kakehashi's repository, found from this
// file's own place in it.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("sitetest: cannot locate the repository")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("sitetest: no go.mod at %s: %v", root, err)
	}
	return root
}

// cleanPath checks that a path of the archive or of an edit stays inside
// the site.
func cleanPath(t testing.TB, p string) string {
	t.Helper()
	c := path.Clean(strings.TrimPrefix(p, "/"))
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		t.Fatalf("sitetest: path %q is outside the site", p)
	}
	return c
}

func (s *Site) newBuilder() *build.Builder {
	s.t.Helper()
	b, err := build.New(s.fs, s.opts)
	if err != nil {
		s.t.Fatal(err)
	}
	return b
}

// Root is the site folder on disk; it is empty unless the site was made
// OnDisk.
func (s *Site) Root() string { return s.root }

// Fs is the site's input filesystem, as the Builder reads it.
func (s *Site) Fs() afero.Fs { return s.fs }

// Options are the build options every build of the site uses.
func (s *Site) Options() build.Options { return s.opts }

// Read returns an input file of the site.
func (s *Site) Read(p string) string {
	s.t.Helper()
	b, err := afero.ReadFile(s.fs, cleanPath(s.t, p))
	if err != nil {
		s.t.Fatalf("sitetest: %v", err)
	}
	return string(b)
}

// WriteFile writes an input file of the site, making or replacing it.
func (s *Site) WriteFile(p, content string) *Site {
	s.t.Helper()
	p = cleanPath(s.t, p)
	if err := s.write(p, []byte(content)); err != nil {
		s.t.Fatalf("sitetest: %v", err)
	}
	s.pending = append(s.pending, p)
	return s
}

// Replace edits an input file: each pair of arguments is a text of the
// file and what replaces every occurrence of it. A text the file does not
// hold fails the test, so that a fixture that drifted is noticed.
func (s *Site) Replace(p string, oldNew ...string) *Site {
	s.t.Helper()
	if len(oldNew)%2 != 0 {
		s.t.Fatal("sitetest: Replace takes pairs of old and new texts")
	}
	src := s.Read(p)
	for i := 0; i < len(oldNew); i += 2 {
		if !strings.Contains(src, oldNew[i]) {
			s.t.Fatalf("sitetest: %s holds no %q to replace", p, oldNew[i])
		}
		src = strings.ReplaceAll(src, oldNew[i], oldNew[i+1])
	}
	return s.WriteFile(p, src)
}

// Append adds text at the end of an input file.
func (s *Site) Append(p, text string) *Site {
	s.t.Helper()
	return s.WriteFile(p, s.Read(p)+text)
}

// Remove deletes an input file.
func (s *Site) Remove(p string) *Site {
	s.t.Helper()
	p = cleanPath(s.t, p)
	var err error
	if s.root == "" {
		err = s.fs.Remove(p)
	} else {
		err = os.Remove(filepath.Join(s.root, filepath.FromSlash(p)))
	}
	if err != nil {
		s.t.Fatalf("sitetest: %v", err)
	}
	s.pending = append(s.pending, p)
	return s
}

// BuildE tells the Builder which files were edited since the last build
// and builds again, keeping the result when the build succeeds. It
// returns the build's error.
func (s *Site) BuildE() error {
	s.t.Helper()
	s.builder.Invalidate(s.pending...)
	s.pending = nil
	res, err := s.builder.Build(context.Background())
	s.err = err
	if err == nil {
		s.res = res
	}
	return err
}

// Build builds again (incrementally after the first build) and fails the
// test when the build fails.
func (s *Site) Build() *Site {
	s.t.Helper()
	if err := s.BuildE(); err != nil {
		s.t.Fatalf("sitetest: build failed:\n%v", err)
	}
	return s
}

// BuildFails builds and expects the build to fail with exactly these
// diagnostics, each as its header line "path:line:col: message", in the
// order the build reports them (by file, then position).
func (s *Site) BuildFails(want ...string) *Site {
	s.t.Helper()
	err := s.BuildE()
	if err == nil {
		s.t.Fatalf("sitetest: the build succeeded (%d files), want %d errors", s.res.Summary.Files, len(want))
	}
	return s.AssertErrors(want...)
}

// AssertErrors checks that the last build failed with exactly these
// diagnostics, as header lines "path:line:col: message".
func (s *Site) AssertErrors(want ...string) *Site {
	s.t.Helper()
	if s.err == nil {
		s.t.Fatal("sitetest: the last build succeeded")
	}
	got := Headers(s.err)
	if !slices.Equal(got, want) {
		s.t.Errorf("sitetest: build errors:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	return s
}

// AssertErrorText checks that the last build's error, as printed with
// its source lines and carets, holds each of the texts.
func (s *Site) AssertErrorText(texts ...string) *Site {
	s.t.Helper()
	if s.err == nil {
		s.t.Fatal("sitetest: the last build succeeded")
	}
	msg := s.err.Error()
	for _, w := range texts {
		if !strings.Contains(msg, w) {
			s.t.Errorf("sitetest: the build's error does not hold %q:\n%s", w, msg)
		}
	}
	return s
}

// Headers lists the header lines ("path:line:col: message") of the
// diagnostics of a build error, sorted as the build sorts them.
func Headers(err error) []string {
	l := slices.Clone(diag.FromError(err))
	l.Sort()
	var out []string
	for _, d := range l {
		out = append(out, d.Header())
	}
	return out
}

// Err is the error of the last build, nil when it succeeded.
func (s *Site) Err() error { return s.err }

// Result is the last good build.
func (s *Site) Result() *build.Result {
	s.t.Helper()
	if s.res == nil {
		s.t.Fatal("sitetest: no build succeeded yet")
	}
	return s.res
}

// Warnings lists the header lines of the last good build's warnings, but
// those that a translation is not marked (check.Translations): a test
// site's translations seldom are, and a test of marks reads them in
// Result().Summary.Warnings.
func (s *Site) Warnings() []string {
	s.t.Helper()
	var out []string
	for _, d := range s.Result().Summary.Warnings {
		if d.Code != "unmarked-translation" {
			out = append(out, d.Header())
		}
	}
	return out
}

// AssertWarnings checks that the last good build warned exactly these
// diagnostics, as header lines "path:line:col: warning: message".
func (s *Site) AssertWarnings(want ...string) *Site {
	s.t.Helper()
	if got := s.Warnings(); !slices.Equal(got, want) {
		s.t.Errorf("sitetest: warnings:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	return s
}

// File returns an output file of the last good build, failing the test
// when there is none.
func (s *Site) File(p string) string {
	s.t.Helper()
	b, ok := s.Result().Site.Get(p)
	if !ok {
		s.t.Fatalf("sitetest: no output file %s", p)
	}
	return string(b)
}

// AssertExists checks that the last good build wrote each of the paths.
func (s *Site) AssertExists(paths ...string) *Site {
	s.t.Helper()
	for _, p := range paths {
		if _, ok := s.Result().Site.Get(p); !ok {
			s.t.Errorf("sitetest: no output file %s", p)
		}
	}
	return s
}

// AssertAbsent checks that the last good build wrote none of the paths.
func (s *Site) AssertAbsent(paths ...string) *Site {
	s.t.Helper()
	for _, p := range paths {
		if _, ok := s.Result().Site.Get(p); ok {
			s.t.Errorf("sitetest: output file %s exists, want none", p)
		}
	}
	return s
}

// AssertContains checks that an output file holds each of the texts.
func (s *Site) AssertContains(p string, texts ...string) *Site {
	s.t.Helper()
	got := s.File(p)
	for _, w := range texts {
		if !strings.Contains(got, w) {
			s.t.Errorf("sitetest: %s does not hold %q", p, w)
		}
	}
	return s
}

// AssertNotContains checks that an output file holds none of the texts.
func (s *Site) AssertNotContains(p string, texts ...string) *Site {
	s.t.Helper()
	got := s.File(p)
	for _, w := range texts {
		if strings.Contains(got, w) {
			s.t.Errorf("sitetest: %s holds %q, want it not to", p, w)
		}
	}
	return s
}

// AssertEquals checks that an output file is exactly want.
func (s *Site) AssertEquals(p, want string) *Site {
	s.t.Helper()
	if got := s.File(p); got != want {
		s.t.Errorf("sitetest: %s:\n%s\nwant:\n%s", p, got, want)
	}
	return s
}

// AssertChanged checks that the last build reported each path as changed
// since the build before it.
func (s *Site) AssertChanged(paths ...string) *Site {
	s.t.Helper()
	for _, p := range paths {
		if !slices.Contains(s.Result().Changed, p) {
			s.t.Errorf("sitetest: %s not reported changed (changed: %v)", p, s.res.Changed)
		}
	}
	return s
}

// AssertRemoved checks that the last build reported each path as gone
// since the build before it.
func (s *Site) AssertRemoved(paths ...string) *Site {
	s.t.Helper()
	for _, p := range paths {
		if !slices.Contains(s.Result().Removed, p) {
			s.t.Errorf("sitetest: %s not reported removed (removed: %v)", p, s.res.Removed)
		}
	}
	return s
}

// AssertRendered checks that the last build executed the templates of at
// most max pages: an edit re-renders only what it must.
func (s *Site) AssertRendered(max int) *Site {
	s.t.Helper()
	if got := s.Result().Rendered; got > max {
		s.t.Errorf("sitetest: %d pages rendered, want at most %d", got, max)
	}
	return s
}

// Fresh builds the site's current input with a new Builder, as a first
// build would, failing the test when that build fails.
func (s *Site) Fresh() *build.Result {
	s.t.Helper()
	res, err := s.newBuilder().Build(context.Background())
	if err != nil {
		s.t.Fatalf("sitetest: fresh build failed:\n%v", err)
	}
	return res
}

// AssertFresh checks that the last good build equals, file for file and
// byte for byte, a fresh build of the same input: what an incremental
// build must always give.
func (s *Site) AssertFresh() *Site {
	s.t.Helper()
	if d := Diff(s.Result(), s.Fresh()); d != "" {
		s.t.Errorf("sitetest: the build differs from a fresh one: %s", d)
	}
	return s
}

// Diff describes the first difference between the outputs of two builds,
// or is empty when they are the same files with the same bytes.
func Diff(a, b *build.Result) string {
	pa, pb := a.Site.Paths(), b.Site.Paths()
	for _, p := range pa {
		if _, ok := b.Site.Get(p); !ok {
			return p + " is only in the first"
		}
	}
	for _, p := range pb {
		if _, ok := a.Site.Get(p); !ok {
			return p + " is only in the second"
		}
	}
	for _, p := range pa {
		x, _ := a.Site.Get(p)
		y, _ := b.Site.Get(p)
		if !bytes.Equal(x, y) {
			return p + " differs: " + firstLineDiff(x, y)
		}
	}
	return ""
}

// firstLineDiff shows the first line that differs.
func firstLineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "one is longer"
}

// write makes or replaces an input file, in memory or on disk.
func (s *Site) write(p string, data []byte) error {
	if s.root == "" {
		return afero.WriteFile(s.fs, p, data, 0o644)
	}
	full := filepath.Join(s.root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	return os.WriteFile(full, data, 0o644)
}
