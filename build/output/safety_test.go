package output

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func TestCheckPath(t *testing.T) {
	for _, tc := range []struct {
		p, err string // err: "" when accepted, else a part of the message
	}{
		{"index.html", ""},
		{"ja/cka/05-ha-cluster/index.html", ""},
		{".kakehashi-output", ""},
		{"ja/..cka/x", ""},
		{"ab:c/d", ""},
		{"", "is empty"},
		{"/etc/passwd", "is absolute"},
		{"../escape", `".." segment`},
		{"ja/cka/../../../../escape/index.html", `".." segment`},
		{"ja/..", `".." segment`},
		{"./index.html", `"." segment`},
		{"ja/./index.html", `"." segment`},
		{"ja//index.html", "empty segment"},
		{"ja/", "empty segment"},
		{`ja\..\..\escape`, `contains "\"`},
		{"ja/\x00/index.html", "control character U+0000"},
		{"ja/a\nb", "control character U+000A"},
		{"ja/a\u2028b", "control character U+2028"},
		{"C:/Windows/x", "drive letter"},
		{"ja/c:x", "drive letter"},
		{"ja/\xff", "not valid UTF-8"},
	} {
		err := CheckPath(tc.p)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("CheckPath(%q) = %v, want nil", tc.p, err)
		case tc.err != "" && err == nil:
			t.Errorf("CheckPath(%q) = nil, want an error", tc.p)
		case tc.err != "" && (!strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), strconv.Quote(tc.p))):
			t.Errorf("CheckPath(%q) = %v, want it to name the path and say %q", tc.p, err, tc.err)
		}
	}
}

// listAll lists every path under root on fsys, sorted.
func listAll(t *testing.T, fsys afero.Fs, root string) []string {
	t.Helper()
	var out []string
	afero.Walk(fsys, root, func(p string, info fs.FileInfo, err error) error {
		if err == nil && p != root {
			out = append(out, filepath.ToSlash(strings.TrimPrefix(p, root)))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestEscapingPathRefused(t *testing.T) {
	const bad = "ja/../../../../escape/index.html"
	ctx := context.Background()

	t.Run("Site and Publish", func(t *testing.T) {
		mem := afero.NewMemMapFs()
		s := New()
		s.Put("index.html", []byte("ok"))
		s.Put(bad, []byte("evil"))
		s.PutLazy("../lazy.js", NewLazy(1, func() []byte { return []byte("evil") }))
		if got := strings.Join(s.Paths(), ","); got != "index.html" {
			t.Fatalf("the site stored a refused path: %s", got)
		}
		if err := s.Err(); err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Fatalf("Err() = %v, want it to name %q", err, bad)
		}
		if err := s.Clone().Err(); err == nil {
			t.Fatal("a clone forgot the refused path")
		}
		err := Publish(ctx, mem, "/site/public", s)
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Fatalf("Publish = %v, want an error naming %q", err, bad)
		}
		if got := listAll(t, mem, "/"); len(got) != 0 {
			t.Fatalf("a refused site was written: %v", got)
		}
	})

	t.Run("Staging", func(t *testing.T) {
		dir := t.TempDir()
		disk := afero.NewOsFs()
		st, err := Stage(context.Background(), disk, filepath.Join(dir, "site", "public"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{bad, "/../x", "a/../../x", `..\x`, "a//b", MarkerName} {
			err := st.Put(p, []byte("evil"))
			if err == nil || !strings.Contains(err.Error(), strconv.Quote(strings.TrimPrefix(p, "/"))) {
				t.Errorf("Put(%q) = %v, want an error naming it", p, err)
			}
		}
		if st.Reuse("../../escape", 4, 0) {
			t.Error("Reuse accepted an escaping path")
		}
		if err := st.Put("index.html", []byte("ok")); err != nil {
			t.Fatal(err)
		}
		if err := st.Commit(context.Background()); err == nil || !strings.Contains(err.Error(), `"../../escape"`) {
			t.Fatalf("Commit after a refused Reuse = %v, want an error naming the path", err)
		}
		if got := listAll(t, disk, dir); strings.Join(got, ",") != "/site" {
			t.Fatalf("files written outside the staging folder, or a refused build committed: %v", got)
		}
	})
}

// holdFolder locks dir as a live build would, until the test ends.
func holdFolder(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if ok, err := tryLock(f); !ok || err != nil {
		t.Fatalf("cannot lock %s: %v %v", dir, ok, err)
	}
}

func TestStaleRemovalSparesLiveBuilds(t *testing.T) {
	if !canLockDirs {
		t.Skip("folders cannot be locked here")
	}
	dir := t.TempDir()
	disk := afero.NewOsFs()
	dest := filepath.Join(dir, "public")
	live := filepath.Join(dir, ".kakehashi-tmp-new-public-1-live")
	liveOld := filepath.Join(dir, ".kakehashi-tmp-old-public-1-liveold")
	dead := filepath.Join(dir, ".kakehashi-tmp-new-public-1-dead")
	deadOld := filepath.Join(dir, ".kakehashi-tmp-old-public-1-deadold")
	other := filepath.Join(dir, ".kakehashi-tmp-new-public2-1-x")
	for _, d := range []string{dest, live, liveOld, dead, deadOld, other} {
		if err := os.MkdirAll(filepath.Join(d, "ja"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	holdFolder(t, live)
	holdFolder(t, liveOld)

	// A build in progress in this process too: another Stage must not
	// take its folder.
	first, err := Stage(context.Background(), disk, dest)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Stage(context.Background(), disk, dest)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{live, liveOld, other, first.tmp, second.tmp} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("a live build's folder was removed: %v", err)
		}
	}
	for _, d := range []string{dead, deadOld} {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the folder of a build that is gone was kept: %s", d)
		}
	}
	if err := first.Put("index.html", []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := first.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	second.Abort()
	if b, _ := os.ReadFile(filepath.Join(dest, "index.html")); string(b) != "first" {
		t.Fatalf("index.html = %q", b)
	}
}

func TestSymlinkedDestStaysALink(t *testing.T) {
	for _, missing := range []bool{false, true} {
		t.Run("target missing "+strconv.FormatBool(missing), func(t *testing.T) {
			dir := t.TempDir()
			real := filepath.Join(dir, "srv", "www")
			if !missing {
				os.MkdirAll(real, 0o755)
			}
			link := filepath.Join(dir, "site", "public")
			os.MkdirAll(filepath.Dir(link), 0o755)
			if err := os.Symlink("../srv/www", link); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			disk := afero.NewOsFs()
			for _, body := range []string{"one", "two"} {
				s := New()
				s.Put("ja/index.html", []byte(body))
				if err := Publish(context.Background(), disk, link, s); err != nil {
					t.Fatal(err)
				}
				info, err := os.Lstat(link)
				if err != nil || info.Mode()&fs.ModeSymlink == 0 {
					t.Fatalf("the link was replaced: %v %v", info.Mode(), err)
				}
				if b, _ := os.ReadFile(filepath.Join(real, "ja", "index.html")); string(b) != body {
					t.Fatalf("the link's target holds %q, want %q", b, body)
				}
				if !IsOutput(disk, real) {
					t.Fatal("the target has no marker")
				}
			}
			if got := strings.Join(listAll(t, disk, dir), ","); got != "/site,/site/public,/srv,/srv/www,/srv/www/.kakehashi-output,/srv/www/ja,/srv/www/ja/index.html" {
				t.Fatalf("left behind: %s", got)
			}
		})
	}
}

// killedMidSwap leaves dest as a build killed between the two renames of
// a swap leaves it: the previous site moved aside, the new one complete
// but not moved in, and no process holding either.
func killedMidSwap(t *testing.T, fsys afero.Fs, dest string) {
	t.Helper()
	parent := filepath.Dir(dest)
	if err := fsys.Rename(dest, filepath.Join(parent, ".kakehashi-tmp-old-public-999999999-a1")); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(parent, ".kakehashi-tmp-new-public-999999999-b2")
	fsys.MkdirAll(tmp, 0o755)
	if err := afero.WriteFile(fsys, filepath.Join(tmp, "index.html"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRestoreAfterKillDuringSwap(t *testing.T) {
	for _, name := range []string{"mem", "os"} {
		t.Run(name, func(t *testing.T) {
			var fsys afero.Fs = afero.NewMemMapFs()
			dir := "/site"
			if name == "os" {
				fsys, dir = afero.NewOsFs(), t.TempDir()
			}
			dest := filepath.Join(dir, "public")
			ctx := context.Background()
			s := New()
			s.Put("index.html", []byte("previous"))
			s.Put("ja/index.html", []byte("ja"))
			if err := Publish(ctx, fsys, dest, s); err != nil {
				t.Fatal(err)
			}
			killedMidSwap(t, fsys, dest)

			// A build that fails after it started still leaves the
			// previous site whole.
			st, err := Stage(context.Background(), fsys, dest)
			if err != nil {
				t.Fatal(err)
			}
			st.Abort()
			if got := strings.Join(listAll(t, fsys, dir), ","); got != "/public,/public/.kakehashi-output,/public/index.html,/public/ja,/public/ja/index.html" {
				t.Fatalf("after a kill mid-swap and a failed build: %s", got)
			}
			killedMidSwap(t, fsys, dest)
			s2 := New()
			s2.Put("index.html", []byte("next"))
			if err := Publish(ctx, fsys, dest, s2); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(listAll(t, fsys, dir), ","); got != "/public,/public/.kakehashi-output,/public/index.html" {
				t.Fatalf("after a kill mid-swap and a good build: %s", got)
			}
		})
	}
}

func TestRestoreSparesALiveSwap(t *testing.T) {
	if !canLockDirs {
		t.Skip("folders cannot be locked here")
	}
	dir := t.TempDir()
	old := filepath.Join(dir, ".kakehashi-tmp-old-public-1-live")
	os.MkdirAll(old, 0o755)
	holdFolder(t, old)
	st, err := Stage(context.Background(), afero.NewOsFs(), filepath.Join(dir, "public"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Abort()
	if _, err := os.Stat(old); err != nil {
		t.Fatalf("the previous site of a swap in progress was taken: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "public")); err == nil {
		t.Fatal("a swap in progress was undone")
	}
}

func TestSwap(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "b"), 0o755)
	canExchange := exchange(filepath.Join(dir, "a"), filepath.Join(dir, "b")) == nil
	for _, tc := range []struct {
		name     string
		exchange func(calls *int) func(a, b string) error
	}{
		{"exchange", func(calls *int) func(a, b string) error {
			if !canExchange {
				return nil
			}
			return func(a, b string) error { *calls++; return exchange(a, b) }
		}},
		{"two renames", func(calls *int) func(a, b string) error {
			return func(a, b string) error { *calls++; return errors.New("not supported") }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "exchange" && !canExchange {
				t.Skip("this filesystem cannot exchange two folders")
			}
			dir := t.TempDir()
			disk := afero.NewOsFs()
			dest := filepath.Join(dir, "public")
			s := New()
			s.Put("old.html", []byte("old"))
			if err := Publish(context.Background(), disk, dest, s); err != nil {
				t.Fatal(err)
			}
			st, err := Stage(context.Background(), disk, dest)
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			st.exchange = tc.exchange(&calls)
			if err := st.Put("new.html", []byte("new")); err != nil {
				t.Fatal(err)
			}
			if err := st.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			if calls != 1 {
				t.Errorf("exchange called %d times", calls)
			}
			if got := strings.Join(listAll(t, disk, dir), ","); got != "/public,/public/.kakehashi-output,/public/new.html" {
				t.Fatalf("after the swap: %s", got)
			}
		})
	}
}

func TestMarker(t *testing.T) {
	mem := afero.NewMemMapFs()
	s := New()
	s.Put("index.html", []byte("x"))
	if err := Publish(context.Background(), mem, "/public", s); err != nil {
		t.Fatal(err)
	}
	if !IsOutput(mem, "/public") {
		t.Fatal("the published folder has no marker")
	}
	if b, _ := afero.ReadFile(mem, "/public/"+MarkerName); !strings.Contains(string(b), "kakehashi") {
		t.Fatalf("marker says %q", b)
	}
	if got := strings.Join(s.Paths(), ","); got != "index.html" {
		t.Fatalf("the marker entered the site: %s", got)
	}
	afero.WriteFile(mem, "/mine/notes.txt", []byte("x"), 0o644)
	if IsOutput(mem, "/mine") || IsOutput(mem, "/none") {
		t.Fatal("a folder without the marker counts as an output")
	}
}

func TestCheckDest(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	for _, d := range []string{"content/series", "content/ja", "themes/default", "i18n", "other", "empty", "srv"} {
		if err := os.MkdirAll(filepath.Join(site, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(site, "notes.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(site, "other", "a.txt"), []byte("mine"), 0o644)
	disk := afero.NewOsFs()
	s := New()
	s.Put("index.html", []byte("x"))
	if err := Publish(context.Background(), disk, filepath.Join(site, "public"), s); err != nil {
		t.Fatal(err)
	}
	links := os.Symlink("../content", filepath.Join(site, "srv", "to-content")) == nil &&
		os.Symlink(site, filepath.Join(dir, "site-link")) == nil
	dirs := Dirs{Root: site, Inputs: []string{"content", "themes", "i18n", "static", "layouts"}}
	const sources = "building there would replace the site's sources"
	for _, tc := range []struct {
		dest   string
		force  bool
		link   bool
		reason string // "" when accepted
	}{
		{dest: "public"},
		{dest: "public/"},
		{dest: "new/out"},
		{dest: "empty"},
		{dest: "other", force: true},
		{dest: ".", reason: "it is the site folder itself; " + sources},
		{dest: "./", reason: "it is the site folder itself; " + sources},
		{dest: "..", reason: "it holds the site folder " + site + "; " + sources},
		{dest: "content", reason: "it is the site's content folder; " + sources},
		{dest: "content/", force: true, reason: "it is the site's content folder; " + sources},
		{dest: "content/series", reason: "it is inside the site's content folder; " + sources},
		{dest: "content/new/x", reason: "it is inside the site's content folder; " + sources},
		{dest: "themes/default", reason: "it is inside the site's themes folder; " + sources},
		{dest: "i18n", reason: "it is the site's i18n folder; " + sources},
		{dest: "static/x", reason: "it is inside the site's static folder; " + sources},
		{dest: "public/../content", reason: "it is the site's content folder; " + sources},
		{dest: "notes.txt", force: true, reason: "it is a file, not a folder; building there would replace it"},
		{dest: "other", reason: "it is not empty and was not written by kakehashi; pass --force to replace it"},
		{dest: "srv/to-content", link: true, reason: "it is the site's content folder; " + sources},
		{dest: "srv/to-content/ja", link: true, reason: "it is inside the site's content folder; " + sources},
		{dest: "../site-link", link: true, reason: "it is the site folder itself; " + sources},
		{dest: "../site-link/themes/x", link: true, reason: "it is inside the site's themes folder; " + sources},
	} {
		if tc.link && !links {
			continue
		}
		dest := filepath.Join(site, tc.dest)
		if strings.HasSuffix(tc.dest, "/") {
			dest += "/"
		}
		err := CheckDest(disk, dest, dirs, tc.force)
		var de *DestError
		switch {
		case tc.reason == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.dest, err)
		case tc.reason != "" && !errors.As(err, &de):
			t.Errorf("%s: %v, want a *DestError", tc.dest, err)
		case tc.reason != "" && (de.Reason != tc.reason || de.Path != dest):
			t.Errorf("%s:\n got %q: %q\nwant %q: %q", tc.dest, de.Path, de.Reason, dest, tc.reason)
		}
	}
	// A relative destination is read from the working folder.
	t.Chdir(site)
	if err := CheckDest(disk, "content/series/", Dirs{Root: ".", Inputs: dirs.Inputs}, false); err == nil {
		t.Error("a relative destination in content/ was accepted")
	}
	if err := CheckDest(disk, "public", Dirs{Root: ".", Inputs: dirs.Inputs}, false); err != nil {
		t.Error(err)
	}
}

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "content", "ja"), 0o755)
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	dirs := Dirs{Root: dir, Inputs: []string{"content"}}
	disk := afero.NewOsFs()
	for _, tc := range []struct{ file, reason string }{
		{"course.zip", ""},
		{"out/course.zip", ""},
		{"content/ja/course.zip", "it is inside the site's content folder; writing it would replace the site's sources"},
		{"out", "it is a folder, not a file"},
		{".", "it is the site folder itself; writing it would replace the site's sources"},
	} {
		err := CheckFile(disk, filepath.Join(dir, tc.file), dirs)
		var de *DestError
		switch {
		case tc.reason == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.file, err)
		case tc.reason != "" && (!errors.As(err, &de) || de.Reason != tc.reason):
			t.Errorf("%s: %v, want %q", tc.file, err, tc.reason)
		}
	}
}

func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".kakehashi-cache", "lock")
	ctx := context.Background()
	unlock, err := Lock(ctx, path, func(int) { t.Error("waited for a free lock") })
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Fatalf("lock file holds %q", b)
	}
	if canLockDirs || os.PathSeparator == '\\' {
		waiting := make(chan int, 1)
		got := make(chan error, 1)
		go func() {
			u, err := Lock(ctx, path, func(pid int) { waiting <- pid })
			if err == nil {
				u()
			}
			got <- err
		}()
		if pid := <-waiting; pid != os.Getpid() {
			t.Errorf("onWait(%d), want the holder's PID %d", pid, os.Getpid())
		}
		unlock()
		if err := <-got; err != nil {
			t.Fatal(err)
		}

		// Cancelling stops the wait.
		unlock, err = Lock(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		_, err = Lock(cctx, path, func(int) { cancel() })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a cancelled wait returned %v", err)
		}
	}
	unlock()
	unlock()
}

// TestLegacyOutput: a site written before the marker existed is known by
// its generator tag, so the first build after an upgrade replaces it.
func TestLegacyOutput(t *testing.T) {
	fs := afero.NewMemMapFs()
	afero.WriteFile(fs, "old/index.html", []byte(`<!doctype html><html><head><meta name="generator" content="kakehashi 0.1.0">`), 0o644)
	afero.WriteFile(fs, "mine/index.html", []byte(`<!doctype html><html><head><meta name="generator" content="Hugo 0.111">`), 0o644)
	if !IsOutput(fs, "old") {
		t.Error("an older kakehashi output is not recognised")
	}
	if IsOutput(fs, "mine") {
		t.Error("another generator's output is taken for kakehashi's")
	}
}
