package translation

import (
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// StoreDir is the folder, under the site's cache folder
// (.kakehashi-cache/originals), holding the originals as they were
// marked.
const StoreDir = "originals"

// Store keeps a copy of each original's file as it was when a translation
// of it was marked, as <Dir>/<hash>.md, so that the side-by-side view can
// show which blocks of the original changed since. It is a cache, kept
// out of the repository (.kakehashi-cache/ is git-ignored): a fresh clone,
// another machine or a cleared cache has no copies, and Load then says
// so; the pair view then says the translation is stale without the
// blocks, and points at "git log -p" of the original for its history.
type Store struct {
	Fs  afero.Fs
	Dir string // slash-separated on Fs, e.g. ".kakehashi-cache/originals"
}

func (s Store) file(hash string) string { return path.Join(s.Dir, hash+".md") }

// Save keeps src, the original's file (as loaded: its Src), as the copy
// for hash. A copy that exists is left as it is: the same hash is the
// same translatable content.
func (s Store) Save(hash string, src []byte) error {
	if _, _, err := source.ParseTranslated("2000-01-01 " + hash); err != nil {
		return err
	}
	p := s.file(hash)
	if _, err := s.Fs.Stat(p); err == nil {
		return nil
	}
	if err := s.Fs.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := afero.WriteFile(s.Fs, tmp, src, 0o644); err != nil {
		s.Fs.Remove(tmp)
		return err
	}
	return s.Fs.Rename(tmp, p)
}

// ErrNoCopy is Load's error when the store has no copy of the original
// for a hash.
var ErrNoCopy = errors.New("no copy of the original as marked: it was marked on another machine, or before the cache was cleared")

// Load is the original's page as it was when marked with hash, parsed;
// ErrNoCopy when the store has none, or only one whose content no longer
// has that hash (edited by hand).
func (s Store) Load(hash string) (*source.Page, error) {
	if _, _, err := source.ParseTranslated("2000-01-01 " + hash); err != nil {
		return nil, err
	}
	src, err := afero.ReadFile(s.Fs, s.file(hash))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoCopy
	}
	if err != nil {
		return nil, err
	}
	pg, diags := source.ParsePage(s.file(hash), source.Normalize(src))
	if pg == nil || diags.Err() != nil || Hash(pg) != hash {
		return nil, ErrNoCopy
	}
	return pg, nil
}
