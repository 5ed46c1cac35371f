// Package watch watches the folders of a site whose edits change it, as
// its build.Layout names them (content, themes, UI strings, and the
// configuration file kakehashi.toml), and hands on, after each burst of
// saves, the input paths that changed. The output and
// cache folders, dot files, editors' temporaries and leftovers are never
// inputs.
package watch

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Options tune a Watcher.
type Options struct {
	// Quiet is how long the folders must stay quiet before a burst of
	// events is handed on; default 4 ms. An editor's save, even as
	// write-temporary-then-rename, delete-then-recreate or
	// truncate-then-write, makes its calls well under a millisecond
	// apart; a save that still came in two bursts would be built twice,
	// the second build having the whole file.
	Quiet time.Duration
	// MaxLatency bounds how long a burst may delay its batch; default
	// 300 ms.
	MaxLatency time.Duration
	// OnError, when set, is told about watch errors (for example the
	// system's limit on watches).
	OnError func(error)
}

// Watcher watches a site's folders (build.Layout.Watched) recursively and
// hands on, after each burst of saves, the input paths (slash-separated,
// relative to the site root) that changed, appeared or disappeared.
// Folders created later are watched too, the watched folders themselves
// included; dot files, dot folders, the layout's output and cache folders
// and editor temporaries are ignored.
type Watcher struct {
	root    string
	layout  build.Layout // Output and Cache filled in
	watched []string     // layout.Watched()
	opts    Options
	fw      *fsnotify.Watcher

	mu    sync.Mutex
	known map[string]bool // files seen, by relative path
	dirs  map[string]bool // folders watched, by relative path
}

// New starts watching the folders of layout in the site folder root.
func New(root string, layout build.Layout, opts Options) (*Watcher, error) {
	if opts.Quiet <= 0 {
		opts.Quiet = 4 * time.Millisecond
	}
	if opts.MaxLatency < opts.Quiet {
		opts.MaxLatency = max(300*time.Millisecond, opts.Quiet)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fw, err := fsnotify.NewBufferedWatcher(1024)
	if err != nil {
		return nil, err
	}
	w := &Watcher{root: abs, layout: withDefaults(layout), watched: layout.Watched(), opts: opts, fw: fw,
		known: map[string]bool{}, dirs: map[string]bool{}}
	// The root itself, so that a watched folder created or renamed into
	// place later is seen.
	if err := fw.Add(abs); err != nil {
		fw.Close()
		return nil, err
	}
	w.addUnder("")
	return w, nil
}

// withDefaults fills the output and cache folders a layout leaves empty.
func withDefaults(l build.Layout) build.Layout {
	d := build.DefaultLayout()
	if l.Output == "" {
		l.Output = d.Output
	}
	if l.Cache == "" {
		l.Cache = d.Cache
	}
	return l
}

// Run delivers batches to onBatch until ctx is done, then closes the
// watcher. onBatch runs on its own goroutine, one batch at a time; events
// arriving while it runs are merged into the next batch.
func (w *Watcher) Run(ctx context.Context, onBatch func(paths []string)) {
	defer w.fw.Close()
	batches := make(chan []string)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for b := range batches {
			onBatch(b)
		}
	}()
	defer wg.Wait()
	defer close(batches)

	pending := map[string]bool{}
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	ready := false
	for {
		var out chan []string
		var batch []string
		if ready && len(pending) > 0 {
			out = batches
			batch = slices.Sorted(maps.Keys(pending))
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			ps := w.handle(ev)
			if len(ps) == 0 {
				continue
			}
			if len(pending) == 0 {
				first = time.Now()
			}
			for _, p := range ps {
				pending[p] = true
			}
			wait := min(w.opts.Quiet, time.Until(first.Add(w.opts.MaxLatency)))
			if wait <= 0 {
				ready = true
				continue
			}
			ready = false
			timer.Reset(wait)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			if w.opts.OnError != nil {
				w.opts.OnError(err)
			}
		case <-timer.C:
			ready = true
		case out <- batch:
			pending = map[string]bool{}
			ready = false
		}
	}
}

// handle turns one event into the input paths it touches, adding watches
// for new folders.
func (w *Watcher) handle(ev fsnotify.Event) []string {
	rel, ok := w.rel(ev.Name)
	if !ok {
		return nil
	}
	if !w.inside(rel) {
		// A folder on the way to a watched one (site/ of site/content):
		// creating it may bring watched folders along, removing it takes
		// them away.
		if !w.holdsWatched(rel) {
			return nil
		}
		switch {
		case ev.Has(fsnotify.Create):
			if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
				return w.addUnder(rel)
			}
		case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
			out := w.forget(rel)
			_ = w.fw.Remove(ev.Name)
			return out
		}
		return nil
	}
	if ignored(w.layout, rel) {
		return nil
	}
	switch {
	case ev.Has(fsnotify.Create):
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			return w.addTree(rel)
		}
		w.mu.Lock()
		w.known[rel] = true
		delete(w.dirs, rel)
		w.mu.Unlock()
		return []string{rel}
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		// A folder that went away takes every file under it along; a
		// file (or an empty folder) is itself the path.
		out := w.forget(rel)
		// Folders stay in w.dirs: inotify reports a watched folder's
		// move twice (from its parent and from itself).
		w.mu.Lock()
		wasDir := w.dirs[rel]
		w.mu.Unlock()
		if len(out) == 0 && !wasDir {
			out = []string{rel}
		}
		_ = w.fw.Remove(ev.Name) // gone already when it was a watched folder
		return out
	case ev.Has(fsnotify.Write):
		w.setKnown(rel, true)
		return []string{rel}
	}
	return nil // Chmod alone
}

// forget drops the files known under the folder rel, and rel itself, and
// returns the files that were under it.
func (w *Watcher) forget(rel string) []string {
	var out []string
	w.mu.Lock()
	defer w.mu.Unlock()
	for k := range w.known {
		if strings.HasPrefix(k, rel+"/") {
			out = append(out, k)
			delete(w.known, k)
		}
	}
	delete(w.known, rel)
	return out
}

// addUnder watches the watched folders inside the folder rel ("" for the
// root) and the folders leading to them, and returns the files found in
// them.
func (w *Watcher) addUnder(rel string) []string {
	var files []string
	for _, d := range w.watched {
		if rel != "" && !strings.HasPrefix(d, rel+"/") {
			continue
		}
		// The folders between rel and d, rel included: fsnotify watches
		// one level only.
		for p := path.Dir(d); p != "."; p = path.Dir(p) {
			if rel != "" && p != rel && !strings.HasPrefix(p, rel+"/") {
				break
			}
			if err := w.fw.Add(filepath.Join(w.root, filepath.FromSlash(p))); err != nil && w.opts.OnError != nil && !errors.Is(err, fs.ErrNotExist) {
				w.opts.OnError(err)
			}
		}
		files = append(files, w.addTree(d)...)
	}
	return files
}

// addTree watches the folder rel and every folder under it, and returns
// the files found in it: they may have been written before the watch was
// in place.
func (w *Watcher) addTree(rel string) []string {
	var files []string
	start := filepath.Join(w.root, filepath.FromSlash(rel))
	_ = filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		r, ok := w.rel(p)
		if !ok {
			return nil
		}
		if r != rel && ignored(w.layout, r) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			w.mu.Lock()
			w.dirs[r] = true
			w.mu.Unlock()
			if err := w.fw.Add(p); err != nil && w.opts.OnError != nil && !errors.Is(err, fs.ErrNotExist) {
				w.opts.OnError(err)
			}
			return nil
		}
		w.setKnown(r, true)
		files = append(files, r)
		return nil
	})
	return files
}

func (w *Watcher) setKnown(rel string, on bool) {
	w.mu.Lock()
	if on {
		w.known[rel] = true
	} else {
		delete(w.known, rel)
	}
	w.mu.Unlock()
}

// rel returns name relative to the site root, slash-separated, when it is
// inside the root.
func (w *Watcher) rel(name string) (string, bool) {
	r, err := filepath.Rel(w.root, name)
	if err != nil {
		return "", false
	}
	r = filepath.ToSlash(r)
	if r == "." || r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	return r, true
}

// inside reports whether rel is one of the watched folders or under one.
func (w *Watcher) inside(rel string) bool {
	for _, d := range w.watched {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// holdsWatched reports whether the folder rel holds a watched folder.
func (w *Watcher) holdsWatched(rel string) bool {
	for _, d := range w.watched {
		if strings.HasPrefix(d, rel+"/") {
			return true
		}
	}
	return false
}

// ignored reports whether a relative input path is never an input of a
// site laid out as l: its output and cache folders, dot files and
// folders, editors' and merges' leftovers, which no build reads
// (source.Leftover: emacs's #*# and .#*, vim's swap files, *~ backups,
// *.orig, .DS_Store), and the files editors make for a moment while
// saving (vim's 4913, *.swp, *.swx and *.swo, *.tmp, JetBrains'
// ___jb_tmp___ and ___jb_old___).
func ignored(l build.Layout, rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" {
			continue
		}
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	l = withDefaults(l)
	for _, d := range []string{l.Output, l.Cache} {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	name := path.Base(rel)
	switch {
	case source.Leftover(name),
		name == "4913",
		strings.HasSuffix(name, ".swp"), strings.HasSuffix(name, ".swx"), strings.HasSuffix(name, ".swo"),
		strings.HasSuffix(name, ".tmp"),
		strings.Contains(name, "___jb_tmp___"), strings.Contains(name, "___jb_old___"):
		return true
	}
	return false
}
