package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// renderSynopsis is kakehashi render's usage line.
const renderSynopsis = "kakehashi render [FILE|-] [--lang LANG] [-s DIR]"

// langFromPath is the language of the document at p: the first folder
// of the path that is one of langs, the site's languages; "" for none.
func langFromPath(p string, langs []string) string {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if slices.Contains(langs, part) {
			return part
		}
	}
	return ""
}

// readResult is what reading the document of kakehashi render gave.
type readResult struct {
	data []byte
	err  error
}

// readDoc reads the document of kakehashi render, file or, for "" and
// "-", stdin, with the limit and the message of a content file
// (source.CheckSize, source.ReadLimited). A file that is not a regular
// one is refused by its mode, before it is opened.
func readDoc(stdin io.Reader, file string) ([]byte, error) {
	if file == "" || file == "-" {
		return source.ReadLimited(stdin)
	}
	fi, err := os.Stat(file)
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	var ne *source.NotRegularError
	if errors.As(source.CheckRegular(file, fi), &ne) || fi.IsDir() {
		kind := "a folder"
		if ne != nil {
			kind = ne.Kind()
		}
		return nil, fmt.Errorf("not a regular file (%s): name a markdown file, or - to read standard input", kind)
	}
	if err := source.CheckSize(fi.Size()); err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	defer f.Close()
	return source.ReadLimited(f)
}

// unwrapPathErr drops the operation and path of an *fs.PathError, which
// the message names already.
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
