package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// copyCourse copies the bundled course (content, theme, UI strings) into
// a new site folder, with a file of the author's beside them.
func copyCourse(t *testing.T) string {
	t.Helper()
	site := filepath.Join(t.TempDir(), "site")
	for _, d := range []string{"content", "themes", "i18n"} {
		if err := os.CopyFS(filepath.Join(site, d), os.DirFS(filepath.Join("..", "..", d))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(site, "notes.txt"), []byte("the author's notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return site
}

// tree maps every file and folder under dir (relative, slash-separated) to
// its bytes ("/" for a folder, "-> target" for a link).
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			out[rel] = "-> " + to
		case d.IsDir():
			out[rel] = "/"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree reports how two trees differ, or "".
func sameTree(got, want map[string]string) string {
	var diffs []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			diffs = append(diffs, "missing "+p)
		} else if g != w {
			diffs = append(diffs, "changed "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diffs = append(diffs, "extra "+p)
		}
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], "...")
	}
	return strings.Join(diffs, ", ")
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// TestRefusedDestinations: a destination that would take the place of the
// site's own files, or of someone else's, is refused with exit 2 before
// anything is written.
func TestRefusedDestinations(t *testing.T) {
	const sources = "building there would replace the site's sources"
	for _, tc := range []struct {
		name   string
		args   func(site string) []string
		setup  func(t *testing.T, site string)
		reason string // "" when accepted
	}{
		{name: "site root", args: func(s string) []string { return []string{"build", "-s", s, "-d", s} },
			reason: ": it is the site folder itself; " + sources},
		{name: "site root, trailing slash", args: func(s string) []string { return []string{"build", "-s", s, "-d", s + "/"} },
			reason: ": it is the site folder itself; " + sources},
		{name: "parent of the site root", args: func(s string) []string { return []string{"build", "-s", s, "-d", filepath.Dir(s)} },
			reason: ": it holds the site folder "},
		{name: "content", args: func(s string) []string { return []string{"build", "-s", s, "-d", filepath.Join(s, "content")} },
			reason: "/content: it is the site's content folder; " + sources},
		{name: "content/series", args: func(s string) []string {
			return []string{"build", "-s", s, "-d", filepath.Join(s, "content", "series")}
		},
			reason: "/content/series: it is inside the site's content folder; " + sources},
		{name: "themes/default", args: func(s string) []string {
			return []string{"build", "-s", s, "-d", filepath.Join(s, "themes", "default")}
		},
			reason: "/themes/default: it is inside the site's themes folder; " + sources},
		{name: "i18n", args: func(s string) []string { return []string{"build", "-s", s, "-d", filepath.Join(s, "i18n"), "--force"} },
			reason: "/i18n: it is the site's i18n folder; " + sources},
		{name: "a link to content", args: func(s string) []string { return []string{"build", "-s", s, "-d", filepath.Join(s, "public")} },
			setup: func(t *testing.T, s string) {
				if err := os.Symlink("content", filepath.Join(s, "public")); err != nil {
					t.Skip(err)
				}
			},
			reason: "/public: it is the site's content folder; " + sources},
		{name: "an existing file", args: func(s string) []string {
			return []string{"build", "-s", s, "-d", filepath.Join(s, "notes.txt"), "--force"}
		},
			reason: "/notes.txt: it is a file, not a folder; building there would replace it"},
		{name: "a folder of someone else's", args: func(s string) []string { return []string{"build", "-s", s, "-d", filepath.Join(s, "mine")} },
			setup:  func(t *testing.T, s string) { os.MkdirAll(filepath.Join(s, "mine", "drafts"), 0o755) },
			reason: "/mine: it is not empty and was not written by kakehashi; pass --force to replace it"},
		{name: "a folder of someone else's, --force", args: func(s string) []string {
			return []string{"build", "-s", s, "-d", filepath.Join(s, "mine"), "--force"}
		}, setup: func(t *testing.T, s string) { os.MkdirAll(filepath.Join(s, "mine", "drafts"), 0o755) }},
		{name: "a previous output", args: func(s string) []string { return []string{"build", "-s", s, "-d", filepath.Join(s, "out")} },
			setup: func(t *testing.T, s string) {
				if code, _, stderr := runCLI("build", "-s", s, "-d", filepath.Join(s, "out"), "-q"); code != 0 {
					t.Fatalf("first build: %d %s", code, stderr)
				}
			}},
		{name: "export into content", args: func(s string) []string { return []string{"export", "-s", s, "--out", filepath.Join(s, "content")} },
			reason: "/content: it is the site's content folder; " + sources},
		{name: "export into someone else's folder", args: func(s string) []string { return []string{"export", "-s", s, "--out", filepath.Join(s, "mine")} },
			setup:  func(t *testing.T, s string) { os.MkdirAll(filepath.Join(s, "mine", "drafts"), 0o755) },
			reason: "/mine: it is not empty and was not written by kakehashi; pass --force to replace it"},
		{name: "zip inside content", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(s, "content", "course.zip")}
		}, reason: "/content/course.zip: it is inside the site's content folder; writing it would replace the site's sources"},
		{name: "zip onto a folder", args: func(s string) []string { return []string{"export", "-s", s, "--zip", filepath.Join(s, "mine")} },
			setup:  func(t *testing.T, s string) { os.MkdirAll(filepath.Join(s, "mine"), 0o755) },
			reason: "/mine: it is a folder, not a file"},
		{name: "zip onto kakehashi.toml, --force", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(s, "kakehashi.toml"), "--force"}
		}, setup: func(t *testing.T, s string) {
			writeFile(t, filepath.Join(s, "kakehashi.toml"), "languages = [\"ja\", \"ko\"]\n")
		},
			reason: "/kakehashi.toml: it is the site's configuration file kakehashi.toml; writing it would replace the site's sources"},
		{name: "zip onto a link to kakehashi.toml", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(filepath.Dir(s), "link.zip"), "--force"}
		}, setup: func(t *testing.T, s string) {
			writeFile(t, filepath.Join(s, "kakehashi.toml"), "languages = [\"ja\", \"ko\"]\n")
			if err := os.Symlink(filepath.Join(s, "kakehashi.toml"), filepath.Join(filepath.Dir(s), "link.zip")); err != nil {
				t.Skip(err)
			}
		}, reason: "/link.zip: it is the site's configuration file kakehashi.toml"},
		{name: "zip onto the author's notes, --force", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(s, "notes.txt"), "--force"}
		}, reason: "/notes.txt: it is inside the site folder and its name does not end in .zip; there only a .zip file may be written"},
		{name: "zip onto a series file", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(s, "content", "series", "cka.yaml"), "--force"}
		}, reason: "/content/series/cka.yaml: it is inside the site's content folder; writing it would replace the site's sources"},
		{name: "zip onto someone else's zip", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(filepath.Dir(s), "theirs.zip")}
		}, setup: func(t *testing.T, s string) {
			writeFile(t, filepath.Join(filepath.Dir(s), "theirs.zip"), "PK their archive")
		},
			reason: "/theirs.zip: it exists and is not a zip kakehashi wrote; pass --force to replace it"},
		{name: "zip inside the export's folder", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(s, "public-offline", "course.zip")}
		}, reason: "/public-offline/course.zip: it is inside the export's folder "},
		{name: "zip inside the build's folder", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(s, "public", "course.zip")}
		}, reason: "/public/course.zip: it is inside the site's build output "},
		{name: "zip in a folder that does not exist", args: func(s string) []string {
			return []string{"export", "-s", s, "--zip", filepath.Join(s, "dist", "course.zip")}
		}, reason: "/dist/course.zip: its folder "},
		{name: "single-file onto a full export", args: func(s string) []string {
			return []string{"export", "-s", s, "--single-file", "--out", filepath.Join(s, "public-offline")}
		}, setup: func(t *testing.T, s string) { mustRun(t, "export", "-s", s, "-q") },
			reason: "/public-offline: it holds an offline copy of the site (kakehashi export), not a single-file course (kakehashi export --single-file); pass --force to replace it"},
		{name: "single-file onto a build", args: func(s string) []string {
			return []string{"export", "-s", s, "--single-file", "--out", filepath.Join(s, "public")}
		}, setup: func(t *testing.T, s string) { mustRun(t, "build", "-s", s, "-q") },
			reason: "/public: it holds a site kakehashi built, not a single-file course (kakehashi export --single-file); pass --force to replace it"},
		{name: "full export onto a single-file course", args: func(s string) []string {
			return []string{"export", "-s", s, "--out", filepath.Join(s, "public-single")}
		}, setup: func(t *testing.T, s string) { mustRun(t, "export", "-s", s, "-q", "--single-file") },
			reason: "/public-single: it holds a single-file course (kakehashi export --single-file), not an offline copy of the site (kakehashi export); pass --force to replace it"},
		{name: "build onto a full export", args: func(s string) []string {
			return []string{"build", "-s", s, "-d", filepath.Join(s, "public-offline")}
		}, setup: func(t *testing.T, s string) { mustRun(t, "export", "-s", s, "-q") },
			reason: "/public-offline: it holds an offline copy of the site (kakehashi export), not a site kakehashi built; pass --force to replace it"},
		{name: "build onto a single-file course", args: func(s string) []string {
			return []string{"build", "-s", s, "-d", filepath.Join(s, "public-single")}
		}, setup: func(t *testing.T, s string) { mustRun(t, "export", "-s", s, "-q", "--single-file") },
			reason: "/public-single: it holds a single-file course (kakehashi export --single-file), not a site kakehashi built; pass --force to replace it"},
		{name: "single-file after a full export", args: func(s string) []string { return []string{"export", "-s", s, "-q", "--single-file"} },
			setup: func(t *testing.T, s string) { mustRun(t, "export", "-s", s, "-q") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := copyCourse(t)
			if tc.setup != nil {
				tc.setup(t, site)
			}
			top := filepath.Dir(site)
			before := tree(t, top)
			code, _, stderr := runCLI(tc.args(site)...)
			if tc.reason == "" {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				return
			}
			if code != 2 || !strings.Contains(stderr, tc.reason) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, tc.reason)
			}
			if d := sameTree(tree(t, top), before); d != "" {
				t.Fatalf("a refused command changed files: %s", d)
			}
		})
	}
}

// writeFile writes a file of the test's, making its folder.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustRun runs a command that must succeed.
func mustRun(t *testing.T, args ...string) {
	t.Helper()
	if code, _, stderr := runCLI(args...); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
}

// kakehashi finds the command as a separate process: the test binary,
// which TestMain put in $PATH under that name.
func kakehashi(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("kakehashi")
	if err != nil {
		t.Skip("no kakehashi in $PATH:", err)
	}
	return p
}

// reference is what a single build of a fresh copy of the course writes.
func reference(t *testing.T) map[string]string {
	t.Helper()
	site := copyCourse(t)
	if code, _, stderr := runCLI("build", "-s", site, "-q"); code != 0 {
		t.Fatalf("reference build: %d %s", code, stderr)
	}
	return tree(t, filepath.Join(site, "public"))
}

// TestOverlappingBuilds runs two builds of the same site as separate
// processes while a third holds the site's lock: both wait, say so, take
// turns, and leave the whole site, byte for byte a single build's.
func TestOverlappingBuilds(t *testing.T) {
	bin := kakehashi(t)
	want := reference(t)
	site := copyCourse(t)
	lock := filepath.Join(site, ".kakehashi-cache", "lock")
	unlock, err := output.Lock(context.Background(), lock, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitMsg := "kakehashi build: waiting for the build with PID " + strconv.Itoa(os.Getpid()) + " to finish (lock " + lock + ")"
	type result struct {
		err    error
		stderr string
	}
	var results []chan result
	for range 2 {
		cmd := exec.Command(bin, "build", "-s", site, "-q")
		pipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waiting := make(chan bool, 1)
		done := make(chan result, 1)
		go func() {
			var all strings.Builder
			sc := bufio.NewScanner(pipe)
			for sc.Scan() {
				all.WriteString(sc.Text() + "\n")
				if sc.Text() == waitMsg {
					waiting <- true
				}
			}
			io.Copy(io.Discard, pipe)
			done <- result{cmd.Wait(), all.String()}
		}()
		select {
		case <-waiting:
		case r := <-done:
			t.Fatalf("a build did not wait for the lock: %v\n%s", r.err, r.stderr)
		}
		results = append(results, done)
	}
	unlock()
	for _, done := range results {
		if r := <-done; r.err != nil {
			t.Fatalf("build: %v\n%s", r.err, r.stderr)
		}
	}
	if d := sameTree(tree(t, filepath.Join(site, "public")), want); d != "" {
		t.Fatalf("after two overlapping builds, public/ differs from a single build: %s", d)
	}
}

// TestKilledBuildsLeaveTheSiteWhole kills builds with SIGKILL at random
// moments, from their start to past their swap: after each, public/ is
// the whole site, and the next build cleans up what the killed one left.
func TestKilledBuildsLeaveTheSiteWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("kills builds for a few seconds")
	}
	bin := kakehashi(t)
	want := reference(t)
	site := copyCourse(t)
	build := func() *exec.Cmd { return exec.Command(bin, "build", "-s", site, "-q", "--no-cache") }
	start := time.Now()
	if out, err := build().CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	took := time.Since(start)
	for i := range 20 {
		cmd := build()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(took) * 6 / 5)))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if d := sameTree(tree(t, filepath.Join(site, "public")), want); d != "" {
			t.Fatalf("kill %d (%v after the start): public/ is not whole: %s", i, took, d)
		}
	}
	if out, err := build().CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	entries, _ := os.ReadDir(site)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, ","); got != ".kakehashi-cache,content,i18n,notes.txt,public,themes" {
		t.Fatalf("left in the site folder: %s", got)
	}
}
