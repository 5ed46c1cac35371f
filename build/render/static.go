package render

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/afero"
)

// StaticFile is one file of the theme's static/ folder.
type StaticFile struct {
	// Path is where the file goes in the site, site-absolute:
	// static/css/main.css → "/css/main.css".
	Path string
	// Source is the file's path in the theme's file system.
	Source string
	// Data is the file's content.
	Data []byte
}

// Static returns the theme's static/ files, sorted by Path, to be copied
// into the site root. A theme without static/ has none.
func (th *Theme) Static() ([]StaticFile, error) {
	root := path.Join(th.dir, "static")
	if ok, err := afero.DirExists(th.fsys, root); err != nil || !ok {
		return nil, err
	}
	var files []StaticFile
	err := afero.Walk(th.fsys, root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() || strings.HasPrefix(info.Name(), ".") {
			return nil
		}
		data, err := afero.ReadFile(th.fsys, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(filepath.ToSlash(p), filepath.ToSlash(root))
		files = append(files, StaticFile{Path: "/" + strings.TrimPrefix(rel, "/"), Source: p, Data: data})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}
