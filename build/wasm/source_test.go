package wasm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
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

	t.Run("inside the kakehashi sources, compiled from them", func(t *testing.T) {
		_, site := kakehashiModule(t)
		f := newFake(t, "lib/wasm")
		m, err := Builder{Run: f.run, Go: "go", Embed: fakeEmbed()}.Provide(ctx, site, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if m.Embedded || f.count() != 2 {
			t.Errorf("embedded %v, %d compilations; want the sources compiled", m.Embedded, f.count())
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
		_, site := kakehashiModule(t)
		m, err := Builder{Embed: fakeEmbed()}.Provide(ctx, site, t.TempDir())
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
}
