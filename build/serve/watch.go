package serve

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
)

// WatchedDirs returns the folders of a site that are watched, relative to
// its root. The series files live in content/series/.
func WatchedDirs() []string { return []string{"content", "themes", "i18n"} }

// WatchOptions tune a Watcher.
type WatchOptions struct {
	// Quiet is how long the folders must stay quiet before a burst of
	// events is handed on; default 15 ms (an editor's save, even as
	// write-temporary-then-rename or delete-then-recreate, takes well under
	// a millisecond).
	Quiet time.Duration
	// MaxLatency bounds how long a burst may delay its batch; default
	// 300 ms.
	MaxLatency time.Duration
	// OnError, when set, is told about watch errors (for example the
	// system's limit on watches).
	OnError func(error)
}

// Watcher watches a site's content/, themes/ and i18n/ folders
// recursively and hands on, after each burst of saves, the input paths
// (slash-separated, relative to the site root) that changed, appeared or
// disappeared. Folders created later are watched too; dot files, dot
// folders and editor temporaries are ignored.
type Watcher struct {
	root string
	opts WatchOptions
	fw   *fsnotify.Watcher

	mu    sync.Mutex
	known map[string]bool // files seen, by relative path
	dirs  map[string]bool // folders watched, by relative path
}

// NewWatcher starts watching the site folder root.
func NewWatcher(root string, opts WatchOptions) (*Watcher, error) {
	if opts.Quiet <= 0 {
		opts.Quiet = 15 * time.Millisecond
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
	w := &Watcher{root: abs, opts: opts, fw: fw, known: map[string]bool{}, dirs: map[string]bool{}}
	// The root itself, so that a watched folder created or renamed into
	// place later is seen.
	if err := fw.Add(abs); err != nil {
		fw.Close()
		return nil, err
	}
	for _, d := range WatchedDirs() {
		w.addTree(d)
	}
	return w, nil
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
	if !ok || Ignored(rel) {
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
		var out []string
		w.mu.Lock()
		for k := range w.known {
			if strings.HasPrefix(k, rel+"/") {
				out = append(out, k)
				delete(w.known, k)
			}
		}
		delete(w.known, rel)
		// Folders stay in w.dirs: inotify reports a watched folder's
		// move twice (from its parent and from itself).
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
		if r != rel && Ignored(r) {
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
// inside one of the watched folders.
func (w *Watcher) rel(name string) (string, bool) {
	r, err := filepath.Rel(w.root, name)
	if err != nil {
		return "", false
	}
	r = filepath.ToSlash(r)
	top, _, _ := strings.Cut(r, "/")
	for _, d := range WatchedDirs() {
		if top == d {
			return r, true
		}
	}
	return "", false
}

// Ignored reports whether a relative input path is never an input: the
// output folder, dot files and folders, and editors' temporary files
// (vim's *.swp, *.swx and 4913, emacs's .#* and #*#, *~ backups, *.tmp,
// JetBrains' ___jb_tmp___).
func Ignored(rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" {
			continue
		}
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	if top, _, _ := strings.Cut(rel, "/"); top == "public" {
		return true
	}
	name := path.Base(rel)
	switch {
	case name == "4913",
		strings.HasSuffix(name, "~"),
		strings.HasSuffix(name, ".swp"), strings.HasSuffix(name, ".swx"), strings.HasSuffix(name, ".swo"),
		strings.HasSuffix(name, ".tmp"),
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),
		strings.Contains(name, "___jb_tmp___"), strings.Contains(name, "___jb_old___"):
		return true
	}
	return false
}
