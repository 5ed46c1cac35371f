package hugoimport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// readFile reads a text file of the Hugo site (configuration, a page, an
// i18n file): a regular file of at most source.MaxFileSize bytes,
// normalised as kakehashi reads every content file (source.Normalize).
func readFile(fsys afero.Fs, p string) ([]byte, error) {
	info, err := fsys.Stat(p)
	if err != nil {
		return nil, unwrap(err)
	}
	if err := source.CheckRegular(p, info); err != nil || info.IsDir() {
		if err == nil {
			err = fmt.Errorf("is a folder")
		}
		return nil, err
	}
	if err := source.CheckSize(info.Size()); err != nil {
		return nil, err
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, unwrap(err)
	}
	defer f.Close()
	src, err := source.ReadLimited(f)
	if err != nil {
		return nil, unwrap(err)
	}
	if _, ok := source.CheckUTF8(p, src); !ok {
		return nil, errors.New("invalid UTF-8: save the file as UTF-8")
	}
	return source.Normalize(src), nil
}

// unwrap drops a path error's path, which the message names already.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// found is one file found under a folder of the Hugo site.
type found struct {
	path string // from the site root: "static/img/a.png"
	rel  string // under the folder walked: "img/a.png"
	size int64
}

// walkFiles lists the regular files under dir (slash-separated, from the
// site root), by path, skipping hidden files and folders and editors'
// leftovers (source.Leftover). A missing dir has none. A file that is no
// regular one (a pipe, a socket, a device) is reported in bad and not
// listed.
func walkFiles(ctx context.Context, fsys afero.Fs, dir string) (files []found, bad []error, err error) {
	err = afero.Walk(fsys, dir, func(p string, info fs.FileInfo, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, `\`, "/")), "/")
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			bad = append(bad, fmt.Errorf("%s: %v", p, unwrap(err)))
			if info != nil && info.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := info.Name()
		if p != dir && (strings.HasPrefix(name, ".") || source.Leftover(name)) {
			if info.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if info.IsDir() {
			return nil
		}
		if err := source.CheckRegular(p, info); err != nil {
			bad = append(bad, err)
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		files = append(files, found{path: p, rel: rel, size: info.Size()})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	return files, bad, err
}
