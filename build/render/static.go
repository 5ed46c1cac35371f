package render

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// StaticFile is one file of the theme's static/ folder.
type StaticFile struct {
	// Path is where the file goes in the site, site-absolute:
	// static/css/main.css → "/css/main.css".
	Path string
	// Source is the file's path in the theme's file system, by its
	// origin when the theme is layered (source.Origin).
	Source string
	// Data is the file's content.
	Data []byte
}

// Static returns the theme's static/ files, sorted by Path, to be copied
// into the site root. A theme without static/ has none. A file that
// cannot be read (a symbolic link out of the site among them) or whose
// name cannot be an output path is an error at its path; the error is a
// diag.List of every such file.
func (th *Theme) Static() ([]StaticFile, error) {
	root := path.Join(th.dir, "static")
	if ok, err := afero.DirExists(th.fsys, root); err != nil || !ok {
		if err != nil {
			return nil, diag.List{diag.File(root, "%v", err)}
		}
		return nil, nil
	}
	var files []StaticFile
	var diags diag.List
	err := afero.Walk(th.fsys, root, func(p string, info os.FileInfo, err error) error {
		p = filepath.ToSlash(p)
		at := source.Origin(th.fsys, p) // the file's path in diagnostics
		if err != nil {
			diags = append(diags, diag.File(at, "%v", err))
			return nil
		}
		if info.IsDir() || strings.HasPrefix(info.Name(), ".") {
			return nil
		}
		rel := strings.TrimPrefix(p, root)
		for _, seg := range strings.Split(strings.TrimPrefix(rel, "/"), "/") {
			if err := source.CheckSegment(seg); err != nil {
				diags = append(diags, diag.File(at, "this file name cannot be published: %v", err))
				return nil
			}
		}
		data, err := afero.ReadFile(th.fsys, p)
		if err != nil {
			diags = append(diags, diag.File(at, "%v", err))
			return nil
		}
		files = append(files, StaticFile{Path: "/" + strings.TrimPrefix(rel, "/"), Source: at, Data: data})
		return nil
	})
	if err != nil {
		diags = append(diags, diag.File(root, "%v", err))
	}
	if len(diags) > 0 {
		diags.Sort()
		return nil, diags
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}
