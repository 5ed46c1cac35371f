package wasm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// kakehashiModule writes a fake kakehashi source tree with a site inside.
func kakehashiModule(t *testing.T) (root, site string) {
	t.Helper()
	root = fakeModule(t)
	write(t, filepath.Join(root, "go.mod"), "module "+ModulePath+"\n\ngo 1.26\n")
	site = filepath.Join(root, "sites", "mine")
	write(t, filepath.Join(site, "content", "ja", "a.md"), "# a\n")
	return root, site
}

// fakeEmbed is a binary's embedded folder holding tiny modules.
func fakeEmbed() fstest.MapFS {
	return fstest.MapFS{
		"embedded/README.md":      {Data: []byte("placeholder\n")},
		"embedded/calc.wasm":      {Data: []byte("\x00asm\x01\x00\x00\x00embedded")},
		"embedded/calc-x509.wasm": {Data: []byte("\x00asm\x01\x00\x00\x00embedded x509")},
		"embedded/wasm_exec.js":   {Data: []byte("// embedded wasm_exec.js\n")},
	}
}

func TestProvide(t *testing.T) {
	ctx := context.Background()
	noEmbed := fstest.MapFS{"embedded/README.md": {Data: []byte("placeholder\n")}}
	outside := t.TempDir() // no go.mod above it but the system's own, if any

	t.Run("inside the sources the binary was built from, compiled from them", func(t *testing.T) {
		root, site := kakehashiModule(t)
		f := newFake(t, "lib/wasm")
		m, err := Builder{Run: f.run, Go: "go", Embed: fakeEmbed(), Sources: root}.Provide(ctx, site, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if m.Embedded || m.CompileErr != nil || f.count() != 2 {
			t.Errorf("embedded %v (%v), %d compilations; want the sources compiled", m.Embedded, m.CompileErr, f.count())
		}
		for _, dir := range f.ranIn() {
			if dir != root {
				t.Errorf("go ran in %s, not in the sources %s", dir, root)
			}
		}
	})
	t.Run("a site's own go.mod naming kakehashi runs no go", func(t *testing.T) {
		// The go.mod and cmd/calc-wasm of kakehashi's sources, but not
		// the sources this binary was built from.
		_, site := kakehashiModule(t)
		f := newFake(t, "lib/wasm")
		m, err := Builder{Run: f.run, Go: "go", Embed: fakeEmbed()}.Provide(ctx, site, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if !m.Embedded || m.CompileErr != nil || len(f.ranIn()) != 0 {
			t.Errorf("embedded %v (%v), go ran in %v; want the embedded modules and no go", m.Embedded, m.CompileErr, f.ranIn())
		}
	})
	t.Run("a site's own go.mod naming kakehashi, nothing embedded: go runs only in the binary's sources", func(t *testing.T) {
		own, ok := OwnSources()
		if !ok {
			t.Fatal("this test binary records no sources of its own")
		}
		_, site := kakehashiModule(t)
		f := newFake(t, "lib/wasm")
		m, err := Builder{Run: f.run, Go: "go", Embed: noEmbed}.Provide(ctx, site, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if m.Embedded || f.count() != 2 {
			t.Errorf("embedded %v, %d compilations", m.Embedded, f.count())
		}
		for _, dir := range f.ranIn() {
			if dir != own {
				t.Errorf("go ran in %s, not in the binary's sources %s", dir, own)
			}
		}
	})
	t.Run("compiling the sources fails: embedded, saying why", func(t *testing.T) {
		root, site := kakehashiModule(t)
		m, err := Builder{Run: failingGo(t), Go: "go", Embed: fakeEmbed(), Sources: root}.Provide(ctx, site, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if !m.Embedded || !bytes.HasSuffix(m.Calc, []byte("embedded")) {
			t.Fatalf("embedded %v, calc %q; want the embedded modules", m.Embedded, m.Calc)
		}
		if m.CompileErr == nil || !strings.Contains(m.CompileErr.Error(), "syntax error") || !strings.Contains(m.CompileErr.Error(), root) {
			t.Errorf("CompileErr = %v, want the compiler's error and the sources' folder", m.CompileErr)
		}
	})
	t.Run("compiling the sources fails, nothing embedded", func(t *testing.T) {
		root, site := kakehashiModule(t)
		_, err := Builder{Run: failingGo(t), Go: "go", Embed: noEmbed, Sources: root}.Provide(ctx, site, t.TempDir())
		if !errors.Is(err, ErrNoCalculators) || !strings.Contains(err.Error(), "syntax error") || !strings.Contains(err.Error(), "make install") {
			t.Fatalf("got %v, want ErrNoCalculators with the compiler's error", err)
		}
	})
	t.Run("inside the binary's own sources, compiled from them", func(t *testing.T) {
		// The test binary is compiled from this repository: a site in it
		// (the bundled course) is compiled from it.
		own, ok := OwnSources()
		if !ok {
			t.Fatal("this test binary records no sources of its own")
		}
		f := newFake(t, "lib/wasm")
		m, err := Builder{Run: f.run, Go: "go", Embed: fakeEmbed()}.Provide(ctx, filepath.Join(own, "content"), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if m.Embedded || f.count() != 2 {
			t.Errorf("embedded %v, %d compilations", m.Embedded, f.count())
		}
	})
	t.Run("inside another Go module, embedded", func(t *testing.T) {
		f := newFake(t, "lib/wasm")
		m, err := Builder{Run: f.run, Go: "go", Embed: fakeEmbed()}.Provide(ctx, fakeModule(t), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if !m.Embedded || string(m.ExecJS) != "// embedded wasm_exec.js\n" || f.count() != 0 {
			t.Errorf("embedded %v, exec %q, %d compilations", m.Embedded, m.ExecJS, f.count())
		}
	})
	t.Run("no go on PATH, embedded", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		root, site := kakehashiModule(t)
		m, err := Builder{Embed: fakeEmbed(), Sources: root}.Provide(ctx, site, t.TempDir())
		if err != nil || !m.Embedded || m.CalcSize().Raw != len(m.Calc) {
			t.Fatalf("got embedded %v, %v", m.Embedded, err)
		}
	})
	t.Run("no go on PATH, nothing embedded", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := Builder{Embed: noEmbed}.Provide(ctx, outside, t.TempDir())
		if !errors.Is(err, ErrNoCalculators) {
			t.Fatalf("got %v, want ErrNoCalculators", err)
		}
		for _, want := range []string{"no go command on PATH", "make install", "build-time results"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q does not say %q", err, want)
			}
		}
	})
	t.Run("nothing embedded, compiled from the sources the binary was built from", func(t *testing.T) {
		// The test binary is compiled from this repository without
		// -trimpath: Provide finds its sources from anywhere.
		f := newFake(t, "lib/wasm")
		m, err := Builder{Run: f.run, Go: "go", Embed: noEmbed}.Provide(ctx, outside, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if m.Embedded || f.count() != 2 {
			t.Errorf("embedded %v, %d compilations", m.Embedded, f.count())
		}
	})
	t.Run("a partial embed is none", func(t *testing.T) {
		e := fakeEmbed()
		delete(e, "embedded/wasm_exec.js")
		if _, ok := embeddedModules(e); ok {
			t.Error("modules without wasm_exec.js taken as embedded")
		}
	})
}

// TestEmbeddedUnderCI requires the calculators in the binary under CI,
// where make test runs go generate first.
func TestEmbeddedUnderCI(t *testing.T) {
	m, ok := Embedded()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("no calculators embedded: go generate ./build/wasm did not run before the tests")
		}
		t.Skip("no calculators embedded (go generate ./build/wasm not run)")
	}
	if !m.Embedded || m.CalcSize().Raw == 0 || len(m.ExecJS) == 0 {
		t.Errorf("embedded modules %+v", m.CalcSize())
	}
	for i, f := range m.Files(false)[:2] {
		if want := fmt.Sprintf("%x", sha256.Sum256(m.Bytes([]string{CalcName, CalcX509Name}[i]))); f.Sum != want {
			t.Errorf("%s: go generate recorded the sum %q, want %q", f.Path, f.Sum, want)
		}
	}
}

// failingGo is a go command whose builds fail as a syntax error does.
func failingGo(t *testing.T) Runner {
	f := newFake(t, "lib/wasm")
	return func(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
		if args[0] == "build" {
			return nil, errors.New("exit status 1: shortcodes/calc/quorum.go:1:9: syntax error")
		}
		return f.run(ctx, dir, env, name, args...)
	}
}

// TestOwnSources: the test binary records the repository it was
// compiled from, unless it was compiled with -trimpath.
func TestOwnSources(t *testing.T) {
	want, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "-trimpath" && s.Value == "true" {
				want = ""
			}
		}
	}
	got, ok := OwnSources()
	if got != want || ok != (want != "") {
		t.Errorf("OwnSources() = %q, %v; want %q", got, ok, want)
	}
	// A Sources that is not kakehashi's is none.
	if _, ok := (Builder{Sources: fakeModule(t)}).ownSources(); ok {
		t.Error("a module of another name taken as kakehashi's sources")
	}
}

func TestWithin(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b", "ab", "elsewhere"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "elsewhere", "link")
	if err := os.Symlink(filepath.Join(root, "a", "b"), link); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(root, "a")
	for _, c := range []struct {
		dir  string
		want bool
	}{
		{a, true},
		{filepath.Join(a, "b"), true},
		{filepath.Join(a, "b", "..", "..", "ab"), false},
		{filepath.Join(root, "ab"), false}, // a sibling sharing a's name as a prefix
		{root, false},
		{link, true}, // a link into a
		{filepath.Join(root, "elsewhere"), false},
	} {
		if got := within(a, c.dir); got != c.want {
			t.Errorf("within(%s, %s) = %v, want %v", a, c.dir, got, c.want)
		}
	}
}

// TestOnceFallsBackWithOneWarning: when compiling the sources the site
// lies in fails, the build gets the embedded modules and one warning
// saying why, however often it asks.
func TestOnceFallsBackWithOneWarning(t *testing.T) {
	root, site := kakehashiModule(t)
	o := &Once{Root: site, Cache: t.TempDir(), Builder: Builder{Run: failingGo(t), Go: "go", Embed: fakeEmbed(), Sources: root}}
	for range 2 {
		m, warn := o.Modules(context.Background())
		if m == nil || !m.Embedded || o.Compiled() != m {
			t.Fatalf("modules %v; want the embedded ones", m)
		}
		if len(warn) != 1 || warn[0].Severity != diag.Warning {
			t.Fatalf("warnings %v, want one", warn)
		}
		h := warn[0].Header()
		for _, want := range []string{"(kakehashi): warning: the calculators embedded in this binary are used: compiling them from the kakehashi sources in " + root + " failed", "syntax error"} {
			if !strings.Contains(h, want) {
				t.Errorf("%q does not say %q", h, want)
			}
		}
	}
}

// TestEmbeddedSums: the sums go generate records name the embedded
// modules as hashing them would; a sum whose size is not its module's
// (a module replaced by hand) is not taken.
func TestEmbeddedSums(t *testing.T) {
	e := fakeEmbed()
	calc, x509 := e["embedded/calc.wasm"].Data, e["embedded/calc-x509.wasm"].Data
	e["embedded/"+SumsName] = &fstest.MapFile{Data: RecordSums(calc, x509)}
	m, ok := embeddedModules(e)
	if !ok {
		t.Fatal("modules with sums not taken as embedded")
	}
	for i, f := range m.Files(false)[:2] {
		data := [][]byte{calc, x509}[i]
		if want := fmt.Sprintf("%x", sha256.Sum256(data)); f.Sum != want {
			t.Errorf("%s: sum %q, want %q", f.Path, f.Sum, want)
		}
		// Named by their sums, the modules are streamed as written.
		if f.Data != nil || f.Open == nil || f.Size != int64(len(data)) {
			t.Errorf("%s: held in memory (%d bytes) or not streamed (size %d)", f.Path, len(f.Data), f.Size)
		} else if r, err := f.Open(); err != nil {
			t.Error(err)
		} else if got, _ := io.ReadAll(r); !bytes.Equal(got, data) {
			t.Errorf("%s streams %d bytes, not the module's %d", f.Path, len(got), len(data))
		}
		if got := m.Bytes([]string{CalcName, CalcX509Name}[i]); !bytes.Equal(got, data) {
			t.Errorf("Bytes of %s: %d bytes, not the module's %d", f.Path, len(got), len(data))
		}
	}
	if f := m.Files(false)[2]; f.Sum != "" {
		t.Errorf("%s has a recorded sum %q", f.Path, f.Sum)
	}
	// Sums recorded for other modules (of another size) are not this
	// binary's.
	e["embedded/"+SumsName] = &fstest.MapFile{Data: RecordSums(append(calc, 0), x509)}
	m, _ = embeddedModules(e)
	if got := m.Files(false); got[0].Sum != "" || got[1].Sum == "" {
		t.Errorf("sums %q and %q; want none for calc.wasm, whose size changed", got[0].Sum, got[1].Sum)
	} else if !bytes.Equal(got[0].Data, calc) || !bytes.Equal(got[1].Data, x509) {
		t.Error("without the sums of both, the modules are not read to be hashed")
	}
}

// TestEmbeddedGzipSize: the summary's gzipped sizes of streamed modules
// are the ones go generate recorded, which gzip measures; sums of an
// older go generate, without them, still name the modules.
func TestEmbeddedGzipSize(t *testing.T) {
	e := fakeEmbed()
	calc, x509 := e["embedded/calc.wasm"].Data, e["embedded/calc-x509.wasm"].Data
	e["embedded/"+SumsName] = &fstest.MapFile{Data: RecordSums(calc, x509)}
	m, ok := embeddedModules(e)
	if !ok || m.fsys == nil {
		t.Fatal("modules with sums not streamed")
	}
	if got, want := m.CalcSize(), SizeOf(calc); got != want {
		t.Errorf("calc.wasm size %+v, want %+v", got, want)
	}
	if got, want := m.CalcX509Size(), SizeOf(x509); got != want {
		t.Errorf("calc-x509.wasm size %+v, want %+v", got, want)
	}
	// The recorded size is what the summary says: it is not measured again.
	var old strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(RecordSums(calc, x509))), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("sums line %q has no gzipped size", line)
		}
		old.WriteString(strings.Join(f[:3], " ") + "\n")
	}
	e["embedded/"+SumsName] = &fstest.MapFile{Data: []byte(strings.Replace(string(RecordSums(calc, x509)), fmt.Sprintf(" %d\n", SizeOf(calc).Gzip), " 7\n", 1))}
	if m, _ := embeddedModules(e); m.CalcSize().Gzip != 7 {
		t.Errorf("calc.wasm gzipped %d, not the recorded 7", m.CalcSize().Gzip)
	}
	e["embedded/"+SumsName] = &fstest.MapFile{Data: []byte(old.String())}
	m, _ = embeddedModules(e)
	if m.fsys == nil {
		t.Error("sums without gzipped sizes not taken")
	} else if got, want := m.CalcSize(), SizeOf(calc); got != want {
		t.Errorf("without a recorded size, calc.wasm %+v, want %+v", got, want)
	}
}
