package output

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

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
// path relative to it, and every folder below it; on the operating
// system's disk, each folder's stamp too ("" for the folder itself).
type listing struct {
	exists    bool // the folder is there
	files     map[string]Stamp
	dirs      []string
	dirStamps map[string]Stamp
	taken     int64 // when the listing began, unix nanoseconds
	err       error
}

// Hint is what a folder held when an earlier listing found it (Staging's
// Hint, Files and Folders): its files, and its folders with their stamps,
// and when that listing began. A listing given it reads again only the
// folders whose stamps changed since (an entry added or removed changes
// its folder's time), and takes the entries of the others from it; it
// describes every file again all the same, for a file changed in place
// changes no folder.
type Hint struct {
	Files map[string]Stamp
	Dirs  map[string]Stamp // "" is the folder itself
	Taken int64
}

// hintMargin is how much older than the listing that found it a folder's
// time must be for its entries to be taken from a Hint: a filesystem may
// keep times to the second or two, and an entry added within that tick
// would leave the time as it was.
const hintMargin = 3 * time.Second

// listWorkers is how many folders a listing reads at once: each read is
// a few calls to the system that wait on the disk's metadata.
const listWorkers = 4

// list lists the folder dir on fsys. A missing folder holds nothing; a
// symbolic link, even to a folder, is an entry like a file (NotRegular),
// never followed.
func list(fsys afero.Fs, dir string, hint *Hint) listing {
	taken := time.Now().UnixNano()
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
	l := listing{exists: true, files: map[string]Stamp{}, taken: taken}
	if isOS(fsys) {
		l.dirStamps = map[string]Stamp{}
		l.err = listOS(dir, dirStamp(info), &l, hint)
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

// dirStamp is a folder's stamp, as lstat describes it.
func dirStamp(info fs.FileInfo) Stamp {
	return Stamp{Size: info.Size(), MTime: info.ModTime().UnixNano()}
}

// hintDir is what a Hint says a folder holds: its files' names and its
// folders'.
type hintDir struct{ files, dirs []string }

// index sorts a Hint's entries by folder.
func (h *Hint) index() map[string]*hintDir {
	out := make(map[string]*hintDir, len(h.Dirs))
	at := func(d string) *hintDir {
		hd := out[d]
		if hd == nil {
			hd = &hintDir{}
			out[d] = hd
		}
		return hd
	}
	split := func(p string) (string, string) {
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			return p[:i], p[i+1:]
		}
		return "", p
	}
	for p := range h.Files {
		d, name := split(p)
		at(d).files = append(at(d).files, name)
	}
	for p := range h.Dirs {
		if p != "" {
			d, name := split(p)
			at(d).dirs = append(at(d).dirs, name)
		}
	}
	return out
}

// listOS lists root, a folder of the given stamp, on the operating
// system's disk into l, several folders at once; a folder the hint has
// with the same stamp, old enough (hintMargin), is not read again: its
// entries are the hint's, each described anew.
func listOS(root string, rootStamp Stamp, l *listing, hint *Hint) error {
	var kept map[string]*hintDir
	if hint != nil {
		kept = hint.index()
	}
	trusted := func(rel string, s Stamp) (*hintDir, bool) {
		if hint == nil {
			return nil, false
		}
		hs, ok := hint.Dirs[rel]
		if !ok || hs != s || s.MTime > hint.Taken-int64(hintMargin) {
			return nil, false
		}
		hd := kept[rel]
		if hd == nil {
			hd = &hintDir{}
		}
		return hd, true
	}
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, listWorkers)
	var visit func(rel string, s Stamp)
	visit = func(rel string, s Stamp) {
		defer wg.Done()
		sem <- struct{}{}
		full := root
		if rel != "" {
			full = filepath.Join(root, filepath.FromSlash(rel))
		}
		join := func(name string) string {
			if rel == "" {
				return name
			}
			return rel + "/" + name
		}
		files := map[string]Stamp{}
		dirs := map[string]Stamp{}
		add := func(name string, dir bool, s Stamp) {
			if dir {
				dirs[join(name)] = s
			} else {
				files[join(name)] = s
			}
		}
		var err error
		if hd, ok := trusted(rel, s); ok {
			err = describeFolder(full, hd, add)
		} else {
			err = listFolder(full, add)
		}
		<-sem
		mu.Lock()
		if err != nil && first == nil {
			first = err
		}
		l.dirStamps[rel] = s
		for p, s := range files {
			l.files[p] = s
		}
		for p := range dirs {
			l.dirs = append(l.dirs, p)
		}
		mu.Unlock()
		for p, s := range dirs {
			wg.Add(1)
			go visit(p, s)
		}
	}
	wg.Add(1)
	visit("", rootStamp)
	wg.Wait()
	return first
}

// describeFolder describes, in the folder full, the entries a hint says
// it holds (a folder whose time did not change since), calling fn with
// each one's name, whether it is a folder, and its stamp; an entry gone
// since is left out.
func describeFolder(full string, hd *hintDir, fn func(name string, dir bool, s Stamp)) error {
	for _, names := range [][]string{hd.files, hd.dirs} {
		for _, name := range names {
			info, err := os.Lstat(filepath.Join(full, name))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			if info.IsDir() {
				fn(name, true, dirStamp(info))
			} else {
				fn(name, false, stampOf(info))
			}
		}
	}
	return nil
}

// listFolderPortable lists the folder full, calling fn with each entry's
// name, whether it is a folder, and its stamp.
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
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone since the folder was read
		}
		if err != nil {
			return err
		}
		if info.IsDir() {
			fn(e.Name(), true, dirStamp(info))
		} else {
			fn(e.Name(), false, stampOf(info))
		}
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
