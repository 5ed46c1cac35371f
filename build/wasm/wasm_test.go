package wasm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeGo stands in for the go command: "go env" prints a version and a
// GOROOT holding wasm_exec.js, "go build" writes a tiny module to -o.
type fakeGo struct {
	mu      sync.Mutex
	version string
	goroot  string
	builds  []string // the -tags of each build, "" for none
	dirs    []string // the folder of every command run
}

func (f *fakeGo) run(_ context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dirs = append(f.dirs, dir)
	switch args[0] {
	case "env":
		return []byte(f.version + "\n" + f.goroot + "\n"), nil
	case "build":
		if strings.Join(env, " ") != "GOOS=js GOARCH=wasm" {
			return nil, errors.New("not a wasm build: " + strings.Join(env, " "))
		}
		tags, out := "", ""
		for i, a := range args {
			switch a {
			case "-tags":
				tags = args[i+1]
			case "-o":
				out = args[i+1]
			}
		}
		if args[len(args)-1] != "./cmd/calc-wasm" || !strings.Contains(strings.Join(args, " "), "-ldflags=-s -w") {
			return nil, errors.New("unexpected build " + strings.Join(args, " "))
		}
		f.builds = append(f.builds, tags)
		return nil, os.WriteFile(out, []byte("\x00asm\x01\x00\x00\x00"+tags), 0o644)
	}
	return nil, errors.New("unexpected go " + strings.Join(args, " "))
}

func (f *fakeGo) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.builds)
}

// ranIn is the folder of every go command run so far.
func (f *fakeGo) ranIn() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.dirs...)
}

// fakeModule writes a module root with the calculator sources' folders.
func fakeModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for p, s := range map[string]string{
		"go.mod":                         "module example.org/site\n",
		"cmd/calc-wasm/main.go":          "package main\n",
		"shortcodes/calc/quorum.go":      "package calc\n",
		"shortcodes/calc/pemcert/pem.go": "package pemcert\n",
		"i18n/particle/particle.go":      "package particle\n",
		"content/ja/a.md":                "# a\n",
	} {
		write(t, filepath.Join(root, p), s)
	}
	return root
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newFake(t *testing.T, execDir string) *fakeGo {
	goroot := t.TempDir()
	write(t, filepath.Join(goroot, execDir, "wasm_exec.js"), "// wasm_exec.js from "+execDir+"\n")
	return &fakeGo{version: "go1.26.8", goroot: goroot}
}

func TestCache(t *testing.T) {
	root := fakeModule(t)
	cache := t.TempDir()
	f := newFake(t, "lib/wasm")
	b := Builder{Run: f.run, Go: "go"}
	ctx := context.Background()

	steps := []struct {
		name       string
		change     func()
		wantBuilds int // compilations so far
	}{
		{"first build compiles both modules", func() {}, 2},
		{"nothing changed", func() {}, 2},
		{"a file outside the sources", func() { write(t, filepath.Join(root, "content/ja/a.md"), "# b\n") }, 2},
		{"a calc source", func() { write(t, filepath.Join(root, "shortcodes/calc/quorum.go"), "package calc // v2\n") }, 4},
		{"a nested source", func() { write(t, filepath.Join(root, "shortcodes/calc/pemcert/pem.go"), "package pemcert // v2\n") }, 6},
		{"a package the calculators import", func() { write(t, filepath.Join(root, "i18n/particle/particle.go"), "package particle // v2\n") }, 8},
		{"a new entry file", func() { write(t, filepath.Join(root, "cmd/calc-wasm/x.go"), "package main\n") }, 10},
		{"a non-Go file in the sources", func() { write(t, filepath.Join(root, "shortcodes/calc/testdata/c.json"), "{}") }, 10},
		{"another Go version", func() { f.version = "go1.27.0" }, 12},
		{"back to a cached state", func() { f.version = "go1.26.8"; os.Remove(filepath.Join(root, "cmd/calc-wasm/x.go")) }, 12},
		{"a cached entry of an older kakehashi, without sums", func() {
			ms, _ := filepath.Glob(filepath.Join(cache, "calc-wasm-*", SumsName))
			for _, m := range ms {
				os.Remove(m)
			}
		}, 12},
	}
	for _, s := range steps {
		s.change()
		before := f.count()
		m, err := b.Build(ctx, filepath.Join(root, "content"), cache)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := f.count(); got != s.wantBuilds {
			t.Errorf("%s: %d compilations so far, want %d", s.name, got, s.wantBuilds)
		}
		if m.Cached != (f.count() == before) {
			t.Errorf("%s: Cached = %v after %d new compilations", s.name, m.Cached, f.count()-before)
		}
		if !bytes.HasPrefix(m.Calc, []byte("\x00asm")) || !bytes.HasSuffix(m.CalcX509, []byte("x509")) || bytes.HasSuffix(m.Calc, []byte("x509")) {
			t.Errorf("%s: modules %q, %q", s.name, m.Calc, m.CalcX509)
		}
		if string(m.ExecJS) != "// wasm_exec.js from lib/wasm\n" || m.CalcSize().Raw != len(m.Calc) || m.CalcSize().Gzip == 0 {
			t.Errorf("%s: exec %q, size %+v", s.name, m.ExecJS, m.CalcSize())
		}
		// A cached entry brings the sums and gzipped sizes recorded when
		// it was compiled: the build neither hashes nor compresses them.
		if m.Cached {
			if len(m.gzips) != 2 || m.CalcX509Size() != SizeOf(m.CalcX509) {
				t.Errorf("%s: recorded gzipped sizes %v, calc-x509 %+v; want %+v", s.name, m.gzips, m.CalcX509Size(), SizeOf(m.CalcX509))
			}
			for i, f := range m.Files(false)[:2] {
				if want := fmt.Sprintf("%x", sha256.Sum256([][]byte{m.Calc, m.CalcX509}[i])); f.Sum != want {
					t.Errorf("%s: %s sum %q, want %q", s.name, f.Path, f.Sum, want)
				}
			}
		}
	}
}

func TestExecJSFromMiscWasm(t *testing.T) {
	f := newFake(t, "misc/wasm")
	m, err := Builder{Run: f.run, Go: "go"}.Build(context.Background(), fakeModule(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if string(m.ExecJS) != "// wasm_exec.js from misc/wasm\n" {
		t.Errorf("exec %q", m.ExecJS)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("no go on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := Build(ctx, fakeModule(t), t.TempDir())
		if !errors.Is(err, ErrNoGo) {
			t.Fatalf("got %v, want ErrNoGo", err)
		}
	})
	t.Run("no go.mod", func(t *testing.T) {
		f := newFake(t, "lib/wasm")
		_, err := Builder{Run: f.run, Go: "go"}.Build(ctx, t.TempDir(), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "no go.mod") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("no wasm_exec.js", func(t *testing.T) {
		f := &fakeGo{version: "go1.26.8", goroot: t.TempDir()}
		_, err := Builder{Run: f.run, Go: "go"}.Build(ctx, fakeModule(t), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "wasm_exec.js not found") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("compiler fails", func(t *testing.T) {
		f := newFake(t, "lib/wasm")
		run := func(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
			if args[0] == "build" {
				return nil, errors.New("exit status 1: syntax error")
			}
			return f.run(ctx, dir, env, name, args...)
		}
		cache := t.TempDir()
		_, err := Builder{Run: run, Go: "go"}.Build(ctx, fakeModule(t), cache)
		if err == nil || !strings.Contains(err.Error(), "syntax error") {
			t.Fatalf("got %v", err)
		}
		if left, _ := os.ReadDir(cache); len(left) != 0 {
			t.Errorf("a failed build left %v in the cache", left)
		}
	})
}

func TestScriptModule(t *testing.T) {
	wasm := []byte("\x00asm\x01\x00\x00\x00\xff\xfe")
	for _, name := range []string{CalcName, CalcX509Name} {
		got := string(ScriptModule(name, wasm))
		prefix := `globalThis.kakehashiWasm=globalThis.kakehashiWasm||{};globalThis.kakehashiWasm["` + name + `"]="`
		if !strings.HasPrefix(got, prefix) || !strings.HasSuffix(got, "\";\n") {
			t.Fatalf("%s: %q", name, got)
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(got, prefix), "\";\n"))
		if err != nil || !bytes.Equal(b, wasm) {
			t.Errorf("%s: decodes to %q (%v)", name, b, err)
		}
	}
	if got := string(ScriptModule(`a"</script>`, nil)); !strings.Contains(got, `["a\"\u003c/script>"]`) {
		t.Errorf("name not quoted: %s", got)
	}
}

func TestSizeString(t *testing.T) {
	for _, c := range []struct {
		s    Size
		want string
	}{
		{Size{2380125, 692184}, "2.38 MB, 692 KB gzipped"},
		{Size{999, 12}, "999 B, 12 B gzipped"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

// TestRealBuild compiles the repository's modules with the real go
// command, then builds again from the cache.
func TestRealBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the WebAssembly modules")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	var mu sync.Mutex
	builds := 0
	run := func(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
		if args[0] == "build" {
			mu.Lock()
			builds++
			mu.Unlock()
		}
		return execRun(ctx, dir, env, name, args...)
	}
	b := Builder{Run: run}
	cache := t.TempDir()
	for i, wantBuilds := range []int{2, 2} {
		m, err := b.Build(context.Background(), "../../content", cache)
		if err != nil {
			t.Fatal(err)
		}
		if builds != wantBuilds || m.Cached != (i == 1) {
			t.Errorf("call %d: %d compilations, cached %v", i+1, builds, m.Cached)
		}
		for name, mod := range map[string][]byte{"calc": m.Calc, "calc-x509": m.CalcX509} {
			if !bytes.HasPrefix(mod, []byte("\x00asm")) {
				t.Errorf("%s does not start with the wasm magic", name)
			}
		}
		if !bytes.Contains(m.ExecJS, []byte("class Go")) && !bytes.Contains(m.ExecJS, []byte("Go = class")) {
			t.Errorf("wasm_exec.js looks wrong: %.80q", m.ExecJS)
		}
		if i == 0 {
			t.Logf("calc.wasm %v; calc-x509.wasm %v", m.CalcSize(), m.CalcX509Size())
		}
	}
}

// TestSourcesCoverImports asks the go command which packages of the
// module the calculators' entry imports, for the target they are built
// for, and checks that sources() names a folder holding each: a change to
// any of them must change the cache key.
func TestSourcesCoverImports(t *testing.T) {
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", "./cmd/calc-wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("the calculators import %s, outside the module: its changes are not in the cache key", dir)
			continue
		}
		covered := false
		for _, s := range sources() {
			if rel == filepath.FromSlash(s) || strings.HasPrefix(rel, filepath.FromSlash(s)+string(filepath.Separator)) {
				covered = true
			}
		}
		if !covered {
			t.Errorf("the calculators import %s, which sources() does not list", filepath.ToSlash(rel))
		}
	}
}
