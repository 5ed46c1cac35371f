package watch

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build"
)

// writeFile writes a file under root, making its folders.
func writeFile(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWatcherSavingStyles saves a file the way each kind of editor does
// and checks that one batch arrives holding exactly the input paths that
// changed. A second, sentinel save then must arrive as a batch of its own
// holding only itself: any event of the first save left over would either
// have formed a batch of its own or joined the sentinel's.
func TestWatcherSavingStyles(t *testing.T) {
	const art = "content/ja/cka/01-a.md"
	join := func(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	tests := []struct {
		name     string
		save     func(t *testing.T, root string)
		want     []string
		sentinel string
	}{
		{
			name: "write in place",
			save: func(t *testing.T, root string) {
				f, err := os.OpenFile(join(root, art), os.O_WRONLY|os.O_TRUNC, 0)
				must(t, err)
				f.Write([]byte("---\ntitle: A\n---\n"))
				f.Write([]byte("more\n"))
				must(t, f.Close())
			},
			want:     []string{art},
			sentinel: "content/ko/cka/01-a.md",
		},
		{
			name: "temp file and rename (VS Code, Atom, Sublime)",
			save: func(t *testing.T, root string) {
				writeFile(t, root, art+".tmp", "new\n")
				must(t, os.Rename(join(root, art+".tmp"), join(root, art)))
			},
			want:     []string{art},
			sentinel: "content/ko/cka/01-a.md",
		},
		{
			name: "temp file and rename (JetBrains)",
			save: func(t *testing.T, root string) {
				writeFile(t, root, art+"___jb_tmp___", "new\n")
				must(t, os.Rename(join(root, art), join(root, art+"___jb_old___")))
				must(t, os.Rename(join(root, art+"___jb_tmp___"), join(root, art)))
				must(t, os.Remove(join(root, art+"___jb_old___")))
			},
			want:     []string{art},
			sentinel: "content/ko/cka/01-a.md",
		},
		{
			name: "delete and recreate (vim, backupcopy=no)",
			save: func(t *testing.T, root string) {
				writeFile(t, root, "content/ja/cka/4913", "")
				must(t, os.Remove(join(root, "content/ja/cka/4913")))
				must(t, os.Rename(join(root, art), join(root, art+"~")))
				writeFile(t, root, art, "new\n")
				must(t, os.Remove(join(root, art+"~")))
			},
			want:     []string{art},
			sentinel: "content/ko/cka/01-a.md",
		},
		{
			name: "new folder then a file inside",
			save: func(t *testing.T, root string) {
				must(t, os.Mkdir(join(root, "content/ja/new"), 0o755))
				writeFile(t, root, "content/ja/new/01-x.md", "x\n")
			},
			want: []string{"content/ja/new/01-x.md"},
			// The new folder is watched: a later save in it is seen.
			sentinel: "content/ja/new/02-y.md",
		},
		{
			name: "nested folders created at once",
			save: func(t *testing.T, root string) {
				writeFile(t, root, "themes/default/static/img/deep/a.svg", "<svg/>")
			},
			want:     []string{"themes/default/static/img/deep/a.svg"},
			sentinel: "themes/default/static/img/deep/b.svg",
		},
		{
			name: "folder renamed into place",
			save: func(t *testing.T, root string) {
				must(t, os.Rename(join(root, "content/ja/cka"), join(root, "content/ja/k8s")))
			},
			want:     []string{"content/ja/cka/01-a.md", "content/ja/k8s/01-a.md"},
			sentinel: "content/ja/k8s/01-a.md",
		},
		{
			name: "file deleted",
			save: func(t *testing.T, root string) {
				must(t, os.Remove(join(root, art)))
			},
			want:     []string{art},
			sentinel: "content/ko/cka/01-a.md",
		},
		{
			name: "named pipe saved",
			save: func(t *testing.T, root string) {
				must(t, syscall.Mkfifo(join(root, "content/ja/cka/pipe.md"), 0o644))
			},
			// Seen as any new file, without being opened: the build
			// reports it, and the sentinel's batch comes after.
			want:     []string{"content/ja/cka/pipe.md"},
			sentinel: "content/ko/cka/01-a.md",
		},
		{
			name: "named pipe saved and removed",
			save: func(t *testing.T, root string) {
				must(t, syscall.Mkfifo(join(root, "content/ja/cka/pipe.md"), 0o644))
				must(t, os.Remove(join(root, "content/ja/cka/pipe.md")))
			},
			want:     []string{"content/ja/cka/pipe.md"},
			sentinel: "content/ko/cka/01-a.md",
		},
		{
			name: "ignored files only",
			save: func(t *testing.T, root string) {
				writeFile(t, root, "content/ja/cka/.01-a.md.swp", "x")
				writeFile(t, root, "content/ja/cka/01-a.md.swx", "x")
				writeFile(t, root, "content/ja/cka/.#01-a.md", "x")
				writeFile(t, root, "content/ja/cka/#01-a.md#", "x")
				writeFile(t, root, "content/ja/cka/01-a.md.orig", "x")
				writeFile(t, root, "themes/default/static/.DS_Store", "x")
				writeFile(t, root, "content/.hidden/x.md", "x")
				writeFile(t, root, "public/index.html", "x")
				writeFile(t, root, "README.md", "x")
			},
			want:     nil,
			sentinel: "i18n/ja.toml",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, art, "---\ntitle: A\n---\n")
			writeFile(t, root, "content/ko/cka/01-a.md", "---\ntitle: A\n---\n")
			writeFile(t, root, "themes/default/layouts/base.html", "x")
			writeFile(t, root, "i18n/ja.toml", "x = 'y'\n")
			w, err := New(root, build.Layout{}, Options{Quiet: 150 * time.Millisecond, MaxLatency: 10 * time.Second})
			must(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			batches := make(chan []string, 10)
			done := make(chan struct{})
			go func() {
				defer close(done)
				w.Run(ctx, func(b []string) { batches <- b })
			}()
			defer func() { cancel(); <-done }()

			next := func() []string {
				t.Helper()
				select {
				case b := <-batches:
					return b
				case <-time.After(20 * time.Second):
					t.Fatal("no batch arrived")
					return nil
				}
			}
			tc.save(t, root)
			if tc.want != nil {
				if got := next(); !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("first batch %q, want %q", got, tc.want)
				}
			}
			writeFile(t, root, tc.sentinel, "sentinel\n")
			if got := next(); !reflect.DeepEqual(got, []string{tc.sentinel}) {
				t.Fatalf("after the save, batch %q, want only the sentinel %q", got, tc.sentinel)
			}
		})
	}
}

func TestIgnored(t *testing.T) {
	tests := []struct {
		rel  string
		want bool
	}{
		{"content/ja/cka/05-ha-cluster.md", false},
		{"content/series/cka.yaml", false},
		{"themes/default/static/css/main.css", false},
		{"i18n/ko.toml", false},
		{"content/ja/cka/.05-ha-cluster.md.swp", true},
		{"content/ja/cka/05-ha-cluster.md.swp", true},
		{"content/ja/cka/05-ha-cluster.md.swx", true},
		{"content/ja/cka/05-ha-cluster.md~", true},
		{"content/ja/cka/4913", true},
		{"content/ja/cka/.#05-ha-cluster.md", true},
		{"content/ja/cka/#05-ha-cluster.md#", true},
		{"content/ja/cka/05-ha-cluster.md.tmp", true},
		{"content/ja/cka/05-ha-cluster.md___jb_tmp___", true},
		{"content/ja/cka/05-ha-cluster.md.orig", true},
		{"content/ja/cka/05-ha-cluster/index.md.orig", true},
		{"i18n/ja.toml.orig", true},
		{"content/ja/cka/orig.md", false},
		{"content/.git/HEAD", true},
		{"themes/.DS_Store", true},
		{"public/index.html", true},
		{"content/ja/public/x.md", false},
	}
	for _, tc := range tests {
		if got := ignored(build.Layout{}, tc.rel); got != tc.want {
			t.Errorf("ignored(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}

// TestWatcherLayout watches the folders a layout names: a save in them is
// one batch, a save in the default folders they replace is not seen, and
// a folder several levels down is watched from before it exists.
func TestWatcherLayout(t *testing.T) {
	tests := []struct {
		name   string
		layout build.Layout
		setup  []string // files written before the watcher starts
		save   string   // a file written after it started
		unseen []string // files written after it started, not inputs
		want   []string
	}{
		{
			name:   "content in course/",
			layout: build.Layout{Content: "course"},
			setup:  []string{"course/ja/cka/01-a.md", "content/ja/cka/01-a.md"},
			save:   "course/ja/cka/01-a.md",
			unseen: []string{"content/ja/cka/01-a.md"},
			want:   []string{"course/ja/cka/01-a.md"},
		},
		{
			name:   "nested folders created later",
			layout: build.Layout{Content: "site/course", Theme: "site/themes/plain", I18n: "site/i18n"},
			save:   "site/course/ja/01-a.md",
			unseen: []string{"site/README.md", "content/ja/01-a.md"},
			want:   []string{"site/course/ja/01-a.md"},
		},
		{
			name:   "output and cache inside a watched folder",
			layout: build.Layout{Content: "course", Output: "course/out", Cache: "course/cache"},
			setup:  []string{"course/ja/01-a.md"},
			save:   "course/ja/01-a.md",
			unseen: []string{"course/out/index.html", "course/cache/lock"},
			want:   []string{"course/ja/01-a.md"},
		},
		{
			name:   "the configuration file",
			setup:  []string{"kakehashi.toml"},
			save:   "kakehashi.toml",
			unseen: []string{"README.md", "kakehashi.toml~", ".kakehashi.toml.swp"},
			want:   []string{"kakehashi.toml"},
		},
		{
			name:   "the configuration file created later",
			save:   "kakehashi.toml",
			unseen: []string{"other.toml"},
			want:   []string{"kakehashi.toml"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tc.setup {
				writeFile(t, root, f, "x\n")
			}
			w, err := New(root, tc.layout, Options{Quiet: 150 * time.Millisecond, MaxLatency: 10 * time.Second})
			must(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			batches := make(chan []string, 10)
			done := make(chan struct{})
			go func() {
				defer close(done)
				w.Run(ctx, func(b []string) { batches <- b })
			}()
			defer func() { cancel(); <-done }()

			for _, f := range tc.unseen {
				writeFile(t, root, f, "unseen\n")
			}
			writeFile(t, root, tc.save, "saved\n")
			select {
			case got := <-batches:
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("batch %q, want %q", got, tc.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("no batch arrived")
			}
		})
	}
}

func TestIgnoredLayout(t *testing.T) {
	l := build.Layout{Output: "site/out", Cache: "cache"}
	tests := []struct {
		rel  string
		want bool
	}{
		{"site/out/index.html", true},
		{"site/out", true},
		{"site/output/index.html", false},
		{"cache/lock", true},
		{"public/index.html", false},
		{"content/ja/cka/05-ha-cluster.md", false},
	}
	for _, tc := range tests {
		if got := ignored(l, tc.rel); got != tc.want {
			t.Errorf("ignored(%+v, %q) = %v, want %v", l, tc.rel, got, tc.want)
		}
	}
}
