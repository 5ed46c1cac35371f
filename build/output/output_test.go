package output

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/spf13/afero"
)

func TestPublishSwaps(t *testing.T) {
	for _, name := range []string{"mem", "os"} {
		t.Run(name, func(t *testing.T) {
			var fs afero.Fs = afero.NewMemMapFs()
			dest := "/site/public"
			if name == "os" {
				fs = afero.NewOsFs()
				dest = t.TempDir() + "/public"
			}
			s := New()
			s.Put("index.html", []byte("one"))
			s.Put("ja/cka/a/index.html", []byte("a"))
			if err := Publish(context.Background(), fs, dest, s); err != nil {
				t.Fatal(err)
			}
			s2 := New()
			s2.Put("index.html", []byte("two"))
			if err := Publish(context.Background(), fs, dest, s2); err != nil {
				t.Fatal(err)
			}
			b, _ := afero.ReadFile(fs, dest+"/index.html")
			if string(b) != "two" {
				t.Fatalf("index.html = %q", b)
			}
			if ok, _ := afero.Exists(fs, dest+"/ja/cka/a/index.html"); ok {
				t.Fatal("a file of the previous build survived the swap")
			}
			entries, _ := afero.ReadDir(fs, dest+"/..")
			if len(entries) != 1 {
				t.Fatalf("temporary folders left behind: %d entries", len(entries))
			}
		})
	}
}

// failFs fails every write under the temporary folder.
type failFs struct{ afero.Fs }

func (f failFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&os.O_CREATE != 0 {
		return nil, errors.New("disk full")
	}
	return f.Fs.OpenFile(name, flag, perm)
}

func TestFailedPublishKeepsPrevious(t *testing.T) {
	mem := afero.NewMemMapFs()
	s := New()
	s.Put("index.html", []byte("good"))
	if err := Publish(context.Background(), mem, "/public", s); err != nil {
		t.Fatal(err)
	}
	bad := New()
	bad.Put("index.html", []byte("bad"))
	if err := Publish(context.Background(), failFs{mem}, "/public", bad); err == nil {
		t.Fatal("publish succeeded on a failing disk")
	}
	b, _ := afero.ReadFile(mem, "/public/index.html")
	if string(b) != "good" {
		t.Fatalf("previous output damaged: %q", b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Publish(ctx, mem, "/public", bad); err == nil {
		t.Fatal("publish succeeded after cancellation")
	}
	b, _ = afero.ReadFile(mem, "/public/index.html")
	if string(b) != "good" {
		t.Fatalf("previous output damaged by an interrupted build: %q", b)
	}
	entries, _ := afero.ReadDir(mem, "/")
	if len(entries) != 1 {
		t.Fatalf("temporary folders left behind: %d", len(entries))
	}
}
