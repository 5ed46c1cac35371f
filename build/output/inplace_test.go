package output

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// publish stages files (output path → bytes) into dest and commits them.
func publish(t *testing.T, fs afero.Fs, dest string, files map[string]string) {
	t.Helper()
	st, err := Stage(context.Background(), fs, dest)
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range files {
		if err := st.Put(p, []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// contents is every file under dir but the marker, by slash path, and
// every folder, each with a "/" at its end.
func contents(t *testing.T, fs afero.Fs, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := afero.Walk(fs, dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "." || rel == MarkerName:
		case info.IsDir():
			out[rel+"/"] = ""
		case info.Mode()&os.ModeSymlink != 0:
			out[rel] = "(link)"
		default:
			b, err := afero.ReadFile(fs, p)
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

// stampsOf stamps the files of dir as a listing does.
func stampsOf(t *testing.T, fs afero.Fs, dir string) map[string]Stamp {
	t.Helper()
	l := list(fs, dir, nil)
	if l.err != nil {
		t.Fatal(l.err)
	}
	return l.files
}

// inPlaceSite is the site the tests update: a previous output, and the
// next one, which keeps two pages, changes one, adds one and drops the
// folder of another.
var (
	prevSite = map[string]string{
		"index.html":         "home",
		"ja/a/index.html":    "a",
		"ja/b/index.html":    "b",
		"ja/c/index.html":    "c, to change",
		"ja/gone/index.html": "gone",
		"ja/gone/img/x.png":  "png",
	}
	nextSite = map[string]string{
		"index.html":        "home",
		"ja/a/index.html":   "a",
		"ja/b/index.html":   "b",
		"ja/c/index.html":   "c, changed",
		"ko/new/index.html": "new",
	}
)

// stageNext stages nextSite over dest, reusing from it every file whose
// bytes are the same, and returns the staging unfinished.
func stageNext(t *testing.T, fs afero.Fs, dest string) *Staging {
	t.Helper()
	before := stampsOf(t, fs, dest)
	st, err := Stage(context.Background(), fs, dest)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slices.Sorted(maps.Keys(nextSite)) {
		b := nextSite[p]
		if prevSite[p] == b {
			s := before[p]
			if !st.Reuse(p, s.Size, s.MTime) {
				t.Fatalf("%s not reused", p)
			}
			continue
		}
		if err := st.Put(p, []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// TestCommitInPlace: a site that takes most of its files from the
// destination updates it in place: the files reused are not touched (the
// same inode and time), the files written replace theirs, the files and
// folders that went are removed, a file kakehashi did not write too, and
// Files says what the folder now holds, as a listing finds it.
func TestCommitInPlace(t *testing.T) {
	for _, fsName := range []string{"os", "mem"} {
		t.Run(fsName, func(t *testing.T) {
			fs, dest := afero.Fs(afero.NewOsFs()), filepath.Join(t.TempDir(), "public")
			if fsName == "mem" {
				fs, dest = afero.NewMemMapFs(), "/public"
			}
			publish(t, fs, dest, prevSite)
			afero.WriteFile(fs, filepath.Join(dest, "stray.txt"), []byte("not ours"), 0o644)
			before := stampsOf(t, fs, dest)
			var inode, folder uint64
			if fsName == "os" {
				inode, folder = inodeOf(t, filepath.Join(dest, "ja/a/index.html")), inodeOf(t, dest)
			}
			st := stageNext(t, fs, dest)
			st.mu.Lock()
			_, _, inPlace := st.inPlace()
			st.mu.Unlock()
			if !inPlace {
				t.Fatal("the publication would not be committed in place")
			}
			ran := false
			st.AfterCommit(func() { ran = true })
			if err := st.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !ran {
				t.Error("the AfterCommit function did not run")
			}
			want := map[string]string{"ja/": "", "ja/a/": "", "ja/b/": "", "ja/c/": "", "ko/": "", "ko/new/": ""}
			maps.Copy(want, nextSite)
			if got := contents(t, fs, dest); !maps.Equal(got, want) {
				t.Errorf("the destination holds\n%v\nwant\n%v", got, want)
			}
			after := stampsOf(t, fs, dest)
			for _, p := range []string{"index.html", "ja/a/index.html", "ja/b/index.html", MarkerName} {
				if after[p] != before[p] {
					t.Errorf("%s was touched: %v, before %v", p, after[p], before[p])
				}
			}
			if fsName == "os" && (inodeOf(t, filepath.Join(dest, "ja/a/index.html")) != inode || inodeOf(t, dest) != folder) {
				t.Error("a reused file, or the destination, is not the same file")
			}
			if got := st.Files(); !maps.Equal(got, after) {
				t.Errorf("Files() = %v\nthe folder holds %v", got, after)
			}
			if entries, _ := afero.ReadDir(fs, filepath.Dir(dest)); len(entries) != 1 {
				t.Errorf("%d entries beside the destination; want it alone", len(entries))
			}
		})
	}
}

// TestAbortInPlace: a publication that would have been committed in
// place but is aborted (a build that failed) or whose context is
// cancelled (one interrupted) leaves the destination exactly as it was.
func TestAbortInPlace(t *testing.T) {
	for _, how := range []string{"abort", "cancel"} {
		t.Run(how, func(t *testing.T) {
			fs, dest := afero.NewOsFs(), filepath.Join(t.TempDir(), "public")
			publish(t, fs, dest, prevSite)
			want, stamps := contents(t, fs, dest), stampsOf(t, fs, dest)
			st := stageNext(t, fs, dest)
			if how == "abort" {
				st.Abort()
			} else {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				if err := st.Commit(ctx); err == nil {
					t.Fatal("a cancelled commit succeeded")
				}
			}
			if got := contents(t, fs, dest); !maps.Equal(got, want) {
				t.Errorf("the destination holds\n%v\nwant it as it was\n%v", got, want)
			}
			if got := stampsOf(t, fs, dest); !maps.Equal(got, stamps) {
				t.Error("a file of the destination was touched")
			}
		})
	}
}

// TestRollForward: a build killed in the middle of a commit in place,
// after its journal was written and some of its files were moved, is
// finished by the next Stage: the destination is then the new site,
// whole.
func TestRollForward(t *testing.T) {
	for _, moved := range []int{0, 1, 3} {
		fs, dest := afero.NewOsFs(), filepath.Join(t.TempDir(), "public")
		publish(t, fs, dest, prevSite)
		afero.WriteFile(fs, filepath.Join(dest, "stray.txt"), []byte("not ours"), 0o644)
		st := stageNext(t, fs, dest)
		// The commit, cut short: the journal, the removals and some of
		// the moves; then the build dies (its claim ends with it). Its
		// files are written first, as Commit has them.
		if err := st.Flush(); err != nil {
			t.Fatal(err)
		}
		st.mu.Lock()
		l, ops, ok := st.inPlace()
		if !ok {
			t.Fatal("the publication would not be committed in place")
		}
		keep := map[string]bool{MarkerName: true}
		var written []string
		for p := range st.made {
			keep[p], written = true, append(written, p)
		}
		for p := range st.reuse {
			keep[p] = true
		}
		pl := planInPlace(l, keep, written, true)
		if err := writeJournal(fs, st.tmp, pl); err != nil {
			t.Fatal(err)
		}
		cut := pl
		cut.moves = pl.moves[:min(moved, len(pl.moves))]
		if _, err := cut.apply(ops, st.tmp); err != nil {
			t.Fatal(err)
		}
		ops.close()
		st.own.release()
		st.mu.Unlock()

		next, err := Stage(context.Background(), fs, dest)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"ja/": "", "ja/a/": "", "ja/b/": "", "ja/c/": "", "ko/": "", "ko/new/": ""}
		maps.Copy(want, nextSite)
		if got := contents(t, fs, dest); !maps.Equal(got, want) {
			t.Errorf("%d moved before the kill: the destination holds\n%v\nwant\n%v", moved, got, want)
		}
		next.Abort()
		if entries, _ := afero.ReadDir(fs, filepath.Dir(dest)); len(entries) != 1 {
			t.Errorf("%d moved before the kill: %d entries beside the destination; want it alone", moved, len(entries))
		}
	}
}

// TestInPlaceNeverFollowsLinks: a symbolic link in the destination, in
// place of a folder the new site writes into or of a file it replaces,
// is removed as the stray it is; nothing is written where it leads.
func TestInPlaceNeverFollowsLinks(t *testing.T) {
	fs := afero.NewOsFs()
	root := t.TempDir()
	dest, outside := filepath.Join(root, "public"), filepath.Join(root, "outside")
	publish(t, fs, dest, prevSite)
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(outside, "index.html"), []byte("outside"), 0o644)
	// ko/ (where the new site adds a page) and ja/c/index.html (which it
	// replaces) lead outside.
	if err := os.Symlink(outside, filepath.Join(dest, "ko")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dest, "ja/c/index.html"))
	if err := os.Symlink(filepath.Join(outside, "index.html"), filepath.Join(dest, "ja/c/index.html")); err != nil {
		t.Fatal(err)
	}
	st := stageNext(t, fs, dest)
	if err := st.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, fs, outside); len(got) != 1 || got["index.html"] != "outside" {
		t.Errorf("the folder a link led to holds %v; want it untouched", got)
	}
	want := map[string]string{"ja/": "", "ja/a/": "", "ja/b/": "", "ja/c/": "", "ko/": "", "ko/new/": ""}
	maps.Copy(want, nextSite)
	if got := contents(t, fs, dest); !maps.Equal(got, want) {
		t.Errorf("the destination holds\n%v\nwant\n%v", got, want)
	}
}

// TestSwapWhenMostIsNew: a publication that writes more files than it
// reuses replaces the destination whole, as a first build does; Files
// describes it all the same.
func TestSwapWhenMostIsNew(t *testing.T) {
	fs, dest := afero.NewOsFs(), filepath.Join(t.TempDir(), "public")
	publish(t, fs, dest, prevSite)
	before := stampsOf(t, fs, dest)
	st, err := Stage(context.Background(), fs, dest)
	if err != nil {
		t.Fatal(err)
	}
	if s := before["index.html"]; !st.Reuse("index.html", s.Size, s.MTime) {
		t.Fatal("index.html not reused")
	}
	st.Put("ja/a/index.html", []byte("a2"))
	st.Put("ja/b/index.html", []byte("b2"))
	st.mu.Lock()
	_, _, inPlace := st.inPlace()
	st.mu.Unlock()
	if inPlace {
		t.Error("a publication that is mostly new would be committed in place")
	}
	if err := st.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"index.html": "home", "ja/": "", "ja/a/": "", "ja/b/": "", "ja/a/index.html": "a2", "ja/b/index.html": "b2"}
	if got := contents(t, fs, dest); !maps.Equal(got, want) {
		t.Errorf("the destination holds\n%v\nwant\n%v", got, want)
	}
	if got, after := st.Files(), stampsOf(t, fs, dest); !maps.Equal(got, after) {
		t.Errorf("Files() = %v\nthe folder holds %v", got, after)
	}
}

// TestJournalNamesRefused: no output path may take the name of the
// journal of a commit in place.
func TestJournalNamesRefused(t *testing.T) {
	st, err := Stage(context.Background(), afero.NewMemMapFs(), "/public")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Abort()
	for _, p := range []string{journalName, journalName + ".part", MarkerName} {
		if err := st.Put(p, nil); err == nil || !strings.Contains(err.Error(), "kakehashi keeps") {
			t.Errorf("Put(%q) = %v; want it refused", p, err)
		}
	}
}

// TestHintedListing: a listing given the hint of an earlier one reads
// again only the folders whose stamps changed, taking the others'
// entries from the hint (a hint that leaves a file out of a folder whose
// stamp is the same, old enough, leaves it out of the listing), and
// describes every file again: after files are added, removed, changed in
// place and a folder added, it finds what a listing without a hint
// finds.
func TestHintedListing(t *testing.T) {
	fs := afero.NewOsFs()
	dest := filepath.Join(t.TempDir(), "public")
	publish(t, fs, dest, prevSite)
	// Every folder of the destination an hour old.
	old := time.Now().Add(-time.Hour)
	filepath.Walk(dest, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	full := list(fs, dest, nil)
	if full.err != nil || full.dirStamps["ja/a"] == (Stamp{}) || full.dirStamps[""] == (Stamp{}) {
		t.Fatalf("listing: %v, folders %v", full.err, full.dirStamps)
	}
	hint := &Hint{Files: full.files, Dirs: full.dirStamps, Taken: full.taken}

	// A hint that leaves a file out of a folder it has with its stamp.
	lying := &Hint{Files: maps.Clone(full.files), Dirs: full.dirStamps, Taken: full.taken}
	delete(lying.Files, "ja/a/index.html")
	if l := list(fs, dest, lying); l.err != nil || len(l.files) != len(full.files)-1 {
		t.Errorf("the folder the hint has the same was read again: %d files, the hint %d", len(l.files), len(lying.Files))
	}

	time.Sleep(10 * time.Millisecond)
	afero.WriteFile(fs, filepath.Join(dest, "ja/b/stray.txt"), []byte("x"), 0o644)
	os.Remove(filepath.Join(dest, "ja/gone/img/x.png"))
	afero.WriteFile(fs, filepath.Join(dest, "ja/a/index.html"), []byte("edited in place"), 0o644)
	os.MkdirAll(filepath.Join(dest, "ko/new"), 0o755)
	afero.WriteFile(fs, filepath.Join(dest, "ko/new/index.html"), []byte("new"), 0o644)
	want, got := list(fs, dest, nil), list(fs, dest, hint)
	if got.err != nil || !maps.Equal(got.files, want.files) || !maps.Equal(got.dirStamps, want.dirStamps) {
		t.Errorf("with the hint, the listing found\n%v\n%v\nwithout\n%v\n%v", got.files, got.dirStamps, want.files, want.dirStamps)
	}
	slices.Sort(got.dirs)
	slices.Sort(want.dirs)
	if !slices.Equal(got.dirs, want.dirs) {
		t.Errorf("folders %v, want %v", got.dirs, want.dirs)
	}
	// A folder's time as recent as the hint's listing is not trusted.
	recent := &Hint{Files: lying.Files, Dirs: maps.Clone(full.dirStamps), Taken: full.dirStamps["ja/a"].MTime + int64(time.Second)}
	if l := list(fs, dest, recent); l.files["ja/a/index.html"] == (Stamp{}) {
		t.Error("a folder changed within the margin of the hint's listing was taken from it")
	}
}

// TestFoldersAfterCommit: a commit in place gives the folders of the
// destination as its listing found them, without those it removed; a
// commit that replaced the destination gives none.
func TestFoldersAfterCommit(t *testing.T) {
	fs, dest := afero.NewOsFs(), filepath.Join(t.TempDir(), "public")
	publish(t, fs, dest, prevSite)
	st := stageNext(t, fs, dest)
	if err := st.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	dirs, taken := st.Folders()
	if dirs == nil || taken == 0 {
		t.Fatal("no folders after a commit in place")
	}
	if _, ok := dirs["ja/gone"]; ok {
		t.Error("a folder the commit removed is among the folders")
	}
	if _, ok := dirs["ja/a"]; !ok {
		t.Error("a folder kept is not among the folders")
	}
	other, err := Stage(context.Background(), fs, filepath.Join(t.TempDir(), "new"))
	if err != nil {
		t.Fatal(err)
	}
	other.Put("index.html", []byte("x"))
	if err := other.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if dirs, _ := other.Folders(); dirs != nil {
		t.Errorf("a new destination's folders: %v", dirs)
	}
}
