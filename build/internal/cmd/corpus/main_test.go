package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repo is the repository root, seen from this package's folder.
var repo = filepath.Join("..", "..", "..", "..")

func corpusRun(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := run(context.Background(), args, &stderr)
	return code, stderr.String()
}

func TestWritesBothSites(t *testing.T) {
	tmp := t.TempDir()
	site, hugo := filepath.Join(tmp, "site"), filepath.Join(tmp, "hugo")
	if code, msg := corpusRun(t, "-src", repo, "-n", "3", site); code != 0 {
		t.Fatalf("kakehashi site: exit %d: %s", code, msg)
	}
	if code, msg := corpusRun(t, "-src", repo, "-n", "3", "-hugo", hugo); code != 0 {
		t.Fatalf("hugo site: exit %d: %s", code, msg)
	}
	for _, p := range []string{
		filepath.Join(site, "content", "series", "cka.yaml"),
		filepath.Join(site, "themes"),
		filepath.Join(site, "i18n"),
		filepath.Join(hugo, "hugo.toml"),
	} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	for _, dir := range []string{site, hugo} {
		for _, lang := range []string{"ja", "ko"} {
			parts, _ := filepath.Glob(filepath.Join(dir, "content", lang, "cka", "[0-9]*.md"))
			if len(parts) != 3 {
				t.Errorf("%s: %d parts in %s, want 3", dir, len(parts), lang)
			}
		}
	}
}

func TestEmptyDestIsUsed(t *testing.T) {
	dest := t.TempDir()
	if code, msg := corpusRun(t, "-src", repo, "-n", "1", dest); code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
}

func TestRefuses(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "old.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no dest", []string{"-src", repo}, 2, "Usage:"},
		{"two dests", []string{"-src", repo, "a", "b"}, 2, "Usage:"},
		{"zero parts", []string{"-src", repo, "-n", "0", filepath.Join(t.TempDir(), "x")}, 2, "at least 1"},
		{"unknown flag", []string{"-parts", "3", "x"}, 2, "-parts"},
		{"dest with files", []string{"-src", repo, "-n", "1", full}, 1, "remove it first"},
		{"dest a file", []string{"-src", repo, "-n", "1", filepath.Join(full, "old.md")}, 1, "not an empty folder"},
		{"no course", []string{"-src", t.TempDir(), "-n", "1", filepath.Join(t.TempDir(), "x")}, 1, "corpus: open "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, msg := corpusRun(t, tt.args...)
			if code != tt.code || !strings.Contains(msg, tt.msg) {
				t.Errorf("exit %d, %q; want exit %d and %q", code, msg, tt.code, tt.msg)
			}
		})
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("the refused folder now holds %d files, want 1", len(entries))
	}
}

func TestHelp(t *testing.T) {
	if code, msg := corpusRun(t, "-h"); code != 0 || !strings.Contains(msg, "-hugo") {
		t.Errorf("-h: exit %d, %q", code, msg)
	}
}
