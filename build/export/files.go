package export

import (
	"path/filepath"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// The folders an export writes to by default, in the site folder: the
// offline copy and the single-file course each have their own, so that
// neither replaces the other.
const (
	Dir       = "public-offline"
	SingleDir = "public-single"
)

// DefaultOut is the folder an export of the site folder src writes to
// when none is named: Dir, or SingleDir for the single-file course.
func DefaultOut(src string, single bool) string {
	if single {
		return filepath.Join(src, SingleDir)
	}
	return filepath.Join(src, Dir)
}

// Files are what an export of the course writes: the offline copy of its
// built site (Site) or, single, one self-contained course-LANG.html per
// language (SingleFile).
func Files(c Course, single bool) (*output.Site, error) {
	if !single {
		return Site(c.Site), nil
	}
	docs, err := SingleFile(c)
	if err != nil {
		return nil, err
	}
	site := output.New()
	for lang, doc := range docs {
		site.Put("course-"+lang+".html", doc)
	}
	return site, nil
}
