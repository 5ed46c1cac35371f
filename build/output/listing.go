package output

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/afero"
)

// Stamp is how a file stands, as make and go judge a file: its size and
// modification time (unix nanoseconds). An entry that is not a regular
// file (a symbolic link, a pipe) has the stamp NotRegular.
type Stamp struct {
	Size  int64
	MTime int64
}

// NotRegular is the stamp of a folder's entry that is neither a folder
// nor a regular file: equal to no file's, so that such an entry is never
// taken for one.
var NotRegular = Stamp{Size: -1}

// listing is what a folder holds: every entry but the folders, by slash
// path relative to it, and every folder below it.
type listing struct {
	exists bool // the folder is there
	files  map[string]Stamp
	dirs   []string
	err    error
}

// listWorkers is how many folders a listing reads at once: each read is
// a few calls to the system that wait on the disk's metadata.
const listWorkers = 4

// list lists the folder dir on fsys. A missing folder holds nothing; a
// symbolic link, even to a folder, is an entry like a file (NotRegular),
// never followed.
func list(fsys afero.Fs, dir string) listing {
	info, err := lstat(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return listing{files: map[string]Stamp{}}
	}
	if err != nil {
		return listing{err: err}
	}
	if !info.IsDir() {
		return listing{err: &fs.PathError{Op: "list", Path: dir, Err: errors.New("not a folder")}}
	}
	l := listing{exists: true, files: map[string]Stamp{}}
	if isOS(fsys) {
		l.err = listOS(dir, &l)
		return l
	}
	l.err = afero.Walk(fsys, dir, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if info.IsDir() {
			l.dirs = append(l.dirs, rel)
			return nil
		}
		l.files[rel] = stampOf(info)
		return nil
	})
	return l
}

// stampOf is the stamp of a file as lstat describes it.
func stampOf(info fs.FileInfo) Stamp {
	if !info.Mode().IsRegular() {
		return NotRegular
	}
	return Stamp{Size: info.Size(), MTime: info.ModTime().UnixNano()}
}

// listOS lists root on the operating system's disk into l, several
// folders at once.
func listOS(root string, l *listing) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, listWorkers)
	var visit func(rel string)
	visit = func(rel string) {
		defer wg.Done()
		sem <- struct{}{}
		full := root
		if rel != "" {
			full = filepath.Join(root, filepath.FromSlash(rel))
		}
		files := map[string]Stamp{}
		var dirs []string
		err := listFolder(full, func(name string, dir bool, s Stamp) {
			p := name
			if rel != "" {
				p = rel + "/" + name
			}
			if dir {
				dirs = append(dirs, p)
			} else {
				files[p] = s
			}
		})
		<-sem
		mu.Lock()
		if err != nil && first == nil {
			first = err
		}
		for p, s := range files {
			l.files[p] = s
		}
		l.dirs = append(l.dirs, dirs...)
		mu.Unlock()
		for _, d := range dirs {
			wg.Add(1)
			go visit(d)
		}
	}
	wg.Add(1)
	visit("")
	wg.Wait()
	return first
}

// listFolderPortable lists the folder full, calling fn with each entry's
// name, whether it is a folder, and, when not, its stamp.
func listFolderPortable(full string, fn func(name string, dir bool, s Stamp)) error {
	f, err := os.Open(full)
	if err != nil {
		return err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			fn(e.Name(), true, Stamp{})
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone since the folder was read
		}
		if err != nil {
			return err
		}
		fn(e.Name(), false, stampOf(info))
	}
	return nil
}

// parents calls fn with every folder above the output path p, nearest
// first ("ja/cka/x/index.html": "ja/cka/x", "ja/cka", "ja"), until fn
// reports false.
func parents(p string, fn func(dir string) bool) {
	for d := path.Dir(p); d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if !fn(d) {
			return
		}
	}
}

// depth is the number of segments of a slash path.
func depth(p string) int { return strings.Count(p, "/") + 1 }
