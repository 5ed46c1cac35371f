package output

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// FuzzCheckPath checks that a path CheckPath accepts stays inside the
// folder it is joined to, and that Staging.Put of it writes inside the
// staging folder and nowhere else.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"index.html", "ja/cka/05-ha-cluster/index.html", "../x", "a/../../x", "/etc/passwd", `a\..\..\x`, "C:/x", "a//b", "a/./b", "..", ".", "", "a/\x00b", "ja/..cka"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if CheckPath(p) != nil {
			return
		}
		root := filepath.Join("r", "public")
		full := filepath.Join(root, filepath.FromSlash(p))
		if !strictlyInside(root, full) {
			t.Fatalf("CheckPath accepted %q, which lands at %s, outside %s", p, full, root)
		}
		dir := t.TempDir()
		st, err := Stage(context.Background(), afero.NewOsFs(), filepath.Join(dir, "public"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Abort()
		st.Put(p, []byte("x")) // may fail (a name too long): it must not escape
		filepath.WalkDir(dir, func(q string, d fs.DirEntry, err error) error {
			if err != nil || q == dir || q == st.tmp {
				return nil
			}
			if !strings.HasPrefix(q, st.tmp+string(os.PathSeparator)) {
				t.Fatalf("Put(%q) wrote %s, outside the staging folder %s", p, q, st.tmp)
			}
			return nil
		})
	})
}
