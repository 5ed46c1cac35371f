package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// TestMarkKeepsEveryOtherByte: marking a translation adds its one
// translated: line and keeps every other byte of the file (trailing
// spaces, CRLF line ends, a body that is not normalised), and its mode;
// the original and its copy in the cache are what the hash says.
func TestMarkKeepsEveryOtherByte(t *testing.T) {
	defer func(f func() time.Time) { markNow = f }(markNow)
	markNow = func() time.Time { return time.Date(2026, 12, 1, 23, 0, 0, 0, time.Local) }
	site := t.TempDir()
	write := func(rel, text string, mode os.FileMode) {
		p := filepath.Join(site, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	const ja = "---\ntitle: 題\n---\n\n本文。\n"
	const ko = "---\r\ntitle: \"제목\"  # 주석\r\ntags: [a, b]\r\n---\r\n\r\n본문.  \r\n\r\n\r\n```\r\n코드\r\n```\r\n"
	write("kakehashi.toml", "languages = [\"ja\", \"ko\"]\n", 0o644)
	write("content/ja/a.md", ja, 0o644)
	write("content/ko/a.md", ko, 0o600)
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"translations", "mark", "-s", site, "--all"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	orig, _ := source.ParsePage("content/ja/a.md", []byte(ja))
	hash := translation.Hash(orig)
	want := strings.Replace(ko, "tags: [a, b]\r\n", "tags: [a, b]\r\ntranslated: 2026-12-01 "+hash+"\r\n", 1)
	p := filepath.Join(site, "content", "ko", "a.md")
	got, _ := os.ReadFile(p)
	if string(got) != want {
		t.Errorf("marked file\n%q\nwant\n%q", got, want)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	if got, _ := os.ReadFile(filepath.Join(site, "content", "ja", "a.md")); string(got) != ja {
		t.Errorf("the original changed: %q", got)
	}
	copy, err := os.ReadFile(filepath.Join(site, ".kakehashi-cache", "originals", hash+".md"))
	if err != nil || string(copy) != ja {
		t.Errorf("copy of the original: %q, %v", copy, err)
	}
	if entries, _ := os.ReadDir(filepath.Join(site, "content", "ko")); len(entries) != 1 {
		t.Errorf("files left beside the translation: %v", entries)
	}
	if !strings.Contains(out.String(), "marked "+filepath.Join(site, "content", "ko", "a.md")+": translated: 2026-12-01 "+hash) {
		t.Errorf("output %q", out.String())
	}
}
