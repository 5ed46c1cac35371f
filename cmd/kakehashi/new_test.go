package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// TestSeriesEdits pins the text of series files edited by "new part":
// every line not about the new part stays as it was written.
func TestSeriesEdits(t *testing.T) {
	titles := []langTitle{{"ja", "三"}, {"ko", "셋"}}
	for _, tc := range []struct {
		name, src, want string
		n               int
		publish         bool
	}{{
		name: "at the end of a file without a final newline",
		src:  "id: s\nparts:\n  - number: 1\n    state: published",
		n:    3,
		want: "id: s\nparts:\n  - number: 1\n    state: published\n  - number: 3\n    title: { ja: \"三\", ko: \"셋\" }\n    state: published\n",
	}, {
		name: "CRLF line endings and no indentation before the dash",
		src:  "id: s\r\nparts:\r\n- number: 5\r\n  state: planned\r\n",
		n:    3,
		want: "id: s\r\nparts:\r\n- number: 3\r\n  title: { ja: \"三\", ko: \"셋\" }\r\n  state: published\r\n- number: 5\r\n  state: planned\r\n",
	}, {
		name: "an empty list",
		src:  "id: s\nparts:\ntitle: {ja: S}\n",
		n:    1,
		want: "id: s\nparts:\n  - number: 1\n    title: { ja: \"三\", ko: \"셋\" }\n    state: published\ntitle: {ja: S}\n",
	}, {
		name:    "a quoted planned state",
		src:     "parts:\n  - {number: 3, state: 'planned'} # later\n",
		n:       3,
		publish: true,
		want:    "parts:\n  - {number: 3, state: published} # later\n",
	}, {
		name:    "a part without a state is planned",
		src:     "parts:\n  - number: 3\n    title:\n      ja: 三\n\n# next\n  - number: 4\n",
		n:       3,
		publish: true,
		want:    "parts:\n  - number: 3\n    title:\n      ja: 三\n    state: published\n\n# next\n  - number: 4\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var got []byte
			var err error
			if tc.publish {
				got, err = publishPart([]byte(tc.src), tc.n)
			} else {
				got, err = insertPart([]byte(tc.src), tc.n, titles)
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSeriesEditRefusesFlowList(t *testing.T) {
	if _, err := insertPart([]byte("parts: [{number: 1}]\n"), 2, nil); err == nil {
		t.Error("a flow-style parts list was edited")
	}
}

func TestVersionLine(t *testing.T) {
	stamped := func(kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "kakehashi 1.2.3 (unknown commit)"},
		{stamped("vcs", "git"), "kakehashi 1.2.3 (unknown commit)"},
		{stamped("vcs.revision", "4f44348abc", "vcs.modified", "false"), "kakehashi 1.2.3 (commit 4f44348abc)"},
		{stamped("vcs.revision", "4f44348abc", "vcs.modified", "true"), "kakehashi 1.2.3 (commit 4f44348abc, modified)"},
	} {
		if got := versionLine("1.2.3", tc.info); got != tc.want {
			t.Errorf("versionLine(%v) = %q, want %q", tc.info, got, tc.want)
		}
	}
}

func TestCheckSlug(t *testing.T) {
	for _, tc := range []struct{ slug, want string }{
		{"scheduling", ""},
		{"ha_cluster-2", ""},
		{"高可用性", ""},
		{"고가용성", ""},
		{"v1.30", ""},
		{strings.Repeat("a", 255), ""},
		{"", "it is empty"},
		{"..", `".." would name a folder above or at the same level`},
		{"two words", `"two words" contains a space: a URL cannot hold one as it is; write "-" instead`},
		{"全角\u3000空白", `contains a space`},
		{" lead", `starts or ends with a space`},
		{"a/b", `"a/b" contains '/': it must be a single name, not a path`},
		{`a\b`, `contains '\\': it must be a single name, not a path`},
		{"what?", `"what?" contains '?': a URL's path ends there`},
		{"no#1", `contains '#': a URL's path ends there`},
		{"100%", `"100%" contains '%': a URL reads it as the start of an escape`},
		{`say"hi"`, `contains '"': a URL segment cannot hold quotes, < or >`},
		{"it's", `contains '\'': a URL segment cannot hold quotes`},
		{"<b>", `contains '<'`},
		{"a:b", `starts with a drive letter`}, {"ab:c", `contains ':', which a file name on Windows cannot hold`},
		{"nul\x00", `contains the control character U+0000`},
		{"tab\tx", `contains the control character U+0009`},
		{"del\x7f", `contains the control character U+007F`},
		{"c1\u0085", `contains the control character U+0085`},
		{"abc\u202egnp.exe", `contains the bidirectional control character U+202E`},
		{"rtl\u200f", `contains the bidirectional control character U+200F`},
		{"iso\u2066x", `contains the bidirectional control character U+2066`},
		{"zero\u200bwidth", `contains the invisible formatting character U+200B`},
		{".hidden", `".hidden" starts with a dot`},
		{"end.", `"end." ends with a dot`},
		{"bad\xffutf8", `is not valid UTF-8`},
		{strings.Repeat("a", 256), `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" is 256 bytes long: a file name or URL segment can be at most 255 bytes`},
		{strings.Repeat("長", 86), `is 258 bytes long`},
	} {
		err := checkSlug(tc.slug)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("checkSlug(%q) = %v, want nil", tc.slug, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("checkSlug(%q) = %v, want %q", tc.slug, err, tc.want)
		}
	}
}

// errDiskFull is what failingFs answers, as a full disk does.
var errDiskFull = syscall.ENOSPC

// failingFs is the OS's filesystem as it is when the disk fills up: from
// its fail-th write on (a folder or file made, bytes written, a file
// synced, closed, renamed or given permissions), every write fails, while
// reading and removing still work.
type failingFs struct {
	afero.Fs
	fail, writes int
}

var _ afero.Fs = (*failingFs)(nil)

// full counts one write and reports whether it fails.
func (f *failingFs) full() bool {
	f.writes++
	return f.writes >= f.fail
}

func (f *failingFs) err(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: errDiskFull}
}

func (f *failingFs) Mkdir(name string, perm os.FileMode) error {
	if f.full() {
		return f.err("mkdir", name)
	}
	return f.Fs.Mkdir(name, perm)
}

func (f *failingFs) MkdirAll(name string, perm os.FileMode) error {
	if f.full() {
		return f.err("mkdir", name)
	}
	return f.Fs.MkdirAll(name, perm)
}

func (f *failingFs) Create(name string) (afero.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (f *failingFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) == 0 {
		return f.Fs.OpenFile(name, flag, perm)
	}
	if f.full() {
		return nil, f.err("open", name)
	}
	file, err := f.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &failingFile{File: file, fs: f}, nil
}

func (f *failingFs) Rename(from, to string) error {
	if f.full() {
		return f.err("rename", from)
	}
	return f.Fs.Rename(from, to)
}

func (f *failingFs) Chmod(name string, mode os.FileMode) error {
	if f.full() {
		return f.err("chmod", name)
	}
	return f.Fs.Chmod(name, mode)
}

// failingFile is a file opened for writing on a failingFs.
type failingFile struct {
	afero.File
	fs *failingFs
}

func (f *failingFile) Write(b []byte) (int, error) {
	if f.fs.full() {
		return 0, f.fs.err("write", f.Name())
	}
	return f.File.Write(b)
}

func (f *failingFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *failingFile) WriteAt(b []byte, off int64) (int, error) {
	if f.fs.full() {
		return 0, f.fs.err("write", f.Name())
	}
	return f.File.WriteAt(b, off)
}

func (f *failingFile) Sync() error {
	if f.fs.full() {
		return f.fs.err("sync", f.Name())
	}
	return f.File.Sync()
}

func (f *failingFile) Close() error {
	err := f.File.Close()
	if f.fs.full() {
		return f.fs.err("close", f.Name())
	}
	return err
}

// allOrNothing runs a command that writes files, with the disk filling
// up at each of its writes in turn: every failure must exit 1, say that
// nothing changed and leave the folder top exactly as it was, and the
// same command run again, with room on the disk, must succeed. It stops
// once the command needs no more writes than the disk allows.
func allOrNothing(t *testing.T, top string, setup func(), cmd func(fsys afero.Fs) (int, string)) {
	t.Helper()
	for n := 1; ; n++ {
		os.RemoveAll(top)
		setup()
		before := tree(t, top)
		fsys := &failingFs{Fs: afero.NewOsFs(), fail: n}
		code, stderr := cmd(fsys)
		if code == 0 {
			if n < 3 {
				t.Fatalf("the command succeeded with the disk full at its write %d", n)
			}
			t.Logf("the command needs %d writes", n-1)
			return
		}
		if code != 1 || !strings.Contains(stderr, "no space left on device") || !strings.Contains(stderr, "nothing changed") {
			t.Fatalf("disk full at write %d: exit %d, stderr:\n%s", n, code, stderr)
		}
		if d := sameTree(tree(t, top), before); d != "" {
			t.Fatalf("disk full at write %d: the failed command left %s\nstderr: %s", n, d, stderr)
		}
		if code, stderr := cmd(afero.NewOsFs()); code != 0 {
			t.Fatalf("disk full at write %d: the command run again: exit %d: %s", n, code, stderr)
		}
		if n > 100 {
			t.Fatal("the command never succeeded")
		}
	}
}

// TestNewPartAllOrNothing: "new part" writes its pages and its series
// edit all together or not at all.
func TestNewPartAllOrNothing(t *testing.T) {
	top := filepath.Join(t.TempDir(), "site")
	series := "id: s\ntitle: {ja: S, ko: S}\nparts:\n  - number: 1\n    state: published\n"
	setup := func() {
		writeFile(t, filepath.Join(top, "kakehashi.toml"), "languages = [\"ja\", \"ko\"]\n")
		writeFile(t, filepath.Join(top, "content", "series", "s.yaml"), series)
		writeFile(t, filepath.Join(top, "content", "ja", "s", "01-one.md"), "---\ntitle: 一\nseries: s\npart: 1\n---\n")
	}
	allOrNothing(t, top, setup, func(fsys afero.Fs) (int, string) {
		var o, e strings.Builder
		code := newPart(context.Background(), &cliEnv{stdout: &o, stderr: &e}, fsys, []string{"-s", top, "s", "2", "two"})
		return code, e.String()
	})
	for _, lang := range []string{"ja", "ko"} {
		if _, err := os.Stat(filepath.Join(top, "content", lang, "s", "02-two.md")); err != nil {
			t.Error(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(top, "content", "series", "s.yaml")); !strings.Contains(string(b), "number: 2") {
		t.Errorf("the series file was not edited:\n%s", b)
	}
}

// TestNewSiteAllOrNothing: "new site" writes the whole starter or
// nothing, not even its folder.
func TestNewSiteAllOrNothing(t *testing.T) {
	top := filepath.Join(t.TempDir(), "top")
	site := filepath.Join(top, "deep", "course")
	allOrNothing(t, top, func() { os.MkdirAll(top, 0o755) }, func(fsys afero.Fs) (int, string) {
		os.RemoveAll(filepath.Join(top, "deep")) // the run again starts afresh too
		var o, e strings.Builder
		code := newSite(context.Background(), &cliEnv{stdout: &o, stderr: &e}, fsys, []string{site})
		return code, e.String()
	})
	if _, err := os.Stat(filepath.Join(site, "kakehashi.toml")); err != nil {
		t.Error(err)
	}
}
