package cache

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// storeFiles lists the files of dir.
func storeFiles(t *testing.T, fs afero.Fs, dir string) []string {
	t.Helper()
	entries, _ := afero.ReadDir(fs, dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func all(string) bool { return true }

// TestStore: values put and saved come back in the next process's store,
// from the mapped file on the OS's disk or read elsewhere; a save that
// changes a few values appends them, one that keeps nothing new writes
// nothing, and the keys keep refuses are gone.
func TestStore(t *testing.T) {
	for _, fsName := range []string{"os", "mem"} {
		t.Run(fsName, func(t *testing.T) {
			fs, dir := afero.Fs(afero.NewOsFs()), filepath.Join(t.TempDir(), "cache")
			if fsName == "mem" {
				fs, dir = afero.NewMemMapFs(), "/cache"
			}
			s := OpenStore(fs, dir, "content-1")
			if _, ok := s.Get("a"); ok {
				t.Fatal("an empty store has a value")
			}
			for i := range 100 {
				s.Put(fmt.Sprintf("k%02d", i), []byte(strings.Repeat(fmt.Sprint(i), 100)))
			}
			s.Save(all)
			s = OpenStore(fs, dir, "content-1")
			for i := range 100 {
				if v, ok := s.Get(fmt.Sprintf("k%02d", i)); !ok || string(v) != strings.Repeat(fmt.Sprint(i), 100) {
					t.Fatalf("k%02d = %q, %v", i, v, ok)
				}
			}
			dat := func() (string, int64) {
				for _, n := range storeFiles(t, fs, dir) {
					if strings.HasSuffix(n, ".dat") {
						info, _ := fs.Stat(filepath.Join(dir, n))
						return n, info.Size()
					}
				}
				t.Fatal("no data file")
				return "", 0
			}
			name, size := dat()
			// One value changed, one key gone: appended.
			s.Put("k05", []byte("five"))
			s.Save(func(k string) bool { return k != "k07" })
			if n, sz := dat(); n != name || sz != size+4 {
				t.Errorf("one value changed: data file %s of %d bytes; want %s, appended to %d", n, sz, name, size+4)
			}
			s = OpenStore(fs, dir, "content-1")
			if v, _ := s.Get("k05"); string(v) != "five" {
				t.Errorf("k05 = %q after it changed", v)
			}
			if _, ok := s.Get("k07"); ok {
				t.Error("k07 kept though keep refused it")
			}
			if v, _ := s.Get("k06"); string(v) != strings.Repeat("6", 100) {
				t.Errorf("k06 = %q", v)
			}
			// Nothing new: nothing written.
			idx, _ := afero.ReadFile(fs, filepath.Join(dir, "content-1.idx"))
			fs.Remove(filepath.Join(dir, "content-1.idx"))
			afero.WriteFile(fs, filepath.Join(dir, "content-1.idx"), idx, 0o644)
			before, _ := fs.Stat(filepath.Join(dir, "content-1.idx"))
			s.Save(func(k string) bool { return k != "k07" })
			if after, _ := fs.Stat(filepath.Join(dir, "content-1.idx")); !after.ModTime().Equal(before.ModTime()) {
				t.Error("a save with nothing new wrote the index")
			}
		})
	}
}

// TestStoreCompacts: when most of the data file is values no key names,
// a save writes it afresh with the live values only, and removes the old.
func TestStoreCompacts(t *testing.T) {
	fs := afero.NewMemMapFs()
	big := []byte(strings.Repeat("x", 100<<10))
	s := OpenStore(fs, "/c", "s")
	s.Put("a", big)
	s.Put("b", big)
	s.Save(all)
	for i := range 3 {
		s = OpenStore(fs, "/c", "s")
		s.Put("a", []byte(fmt.Sprint("small ", i)))
		s.Save(func(k string) bool { return k == "a" })
	}
	var dats []string
	for _, n := range storeFiles(t, fs, "/c") {
		if strings.HasSuffix(n, ".dat") {
			dats = append(dats, n)
		}
	}
	if len(dats) != 1 {
		t.Fatalf("data files %v; want one", dats)
	}
	if info, _ := fs.Stat("/c/" + dats[0]); info.Size() > 1<<10 {
		t.Errorf("the data file holds %d bytes for a value of 7", info.Size())
	}
	s = OpenStore(fs, "/c", "s")
	if v, _ := s.Get("a"); string(v) != "small 2" {
		t.Errorf("a = %q", v)
	}
	if _, ok := s.Get("b"); ok {
		t.Error("b kept")
	}
}

// TestStoreDamaged: a damaged or cut index, or a data file shorter than
// the index says, opens as an empty store, never as wrong values.
func TestStoreDamaged(t *testing.T) {
	fs := afero.NewMemMapFs()
	s := OpenStore(fs, "/c", "s")
	s.Put("a", []byte("value of a"))
	s.Save(all)
	idx, _ := afero.ReadFile(fs, "/c/s.idx")
	var dat string
	for _, n := range storeFiles(t, fs, "/c") {
		if strings.HasSuffix(n, ".dat") {
			dat = "/c/" + n
		}
	}
	data, _ := afero.ReadFile(fs, dat)
	cases := map[string]func(){
		"index cut":      func() { afero.WriteFile(fs, "/c/s.idx", idx[:len(idx)-3], 0o644) },
		"index changed":  func() { d := []byte(string(idx)); d[len(storeMagic)+3] ^= 1; afero.WriteFile(fs, "/c/s.idx", d, 0o644) },
		"data cut":       func() { afero.WriteFile(fs, dat, data[:3], 0o644) },
		"data missing":   func() { fs.Remove(dat) },
		"another format": func() { afero.WriteFile(fs, "/c/s.idx", []byte("kakehashi-store\x00v0\n"), 0o644) },
	}
	for name, damage := range cases {
		afero.WriteFile(fs, "/c/s.idx", idx, 0o644)
		afero.WriteFile(fs, dat, data, 0o644)
		damage()
		if v, ok := OpenStore(fs, "/c", "s").Get("a"); ok {
			t.Errorf("%s: a = %q", name, v)
		}
	}
}

// TestStoreSaveWith: the values each gives as the store is saved are the
// next process's, like those put, whether the data file is written
// afresh or appended to, but those keep refuses.
func TestStoreSaveWith(t *testing.T) {
	fs := afero.NewMemMapFs()
	s := OpenStore(fs, "/c", "s")
	s.Put("put", []byte("put value"))
	s.SaveWith(all, func(put func(string, []byte)) {
		put("given", []byte("given value"))
		put("other", []byte("x"))
	})
	s = OpenStore(fs, "/c", "s")
	for k, want := range map[string]string{"put": "put value", "given": "given value", "other": "x"} {
		if v, ok := s.Get(k); !ok || string(v) != want {
			t.Errorf("%s = %q, %v; want %q", k, v, ok, want)
		}
	}
	// Appended: one more given, one refused.
	s.SaveWith(func(k string) bool { return k != "refused" }, func(put func(string, []byte)) {
		put("more", []byte("more value"))
		put("refused", []byte("no"))
	})
	s = OpenStore(fs, "/c", "s")
	if v, ok := s.Get("more"); !ok || string(v) != "more value" {
		t.Errorf("more = %q, %v", v, ok)
	}
	if _, ok := s.Get("refused"); ok {
		t.Error("a value keep refused was saved")
	}
	if v, ok := s.Get("given"); !ok || string(v) != "given value" {
		t.Errorf("given, kept from the last save, = %q, %v", v, ok)
	}
}

// TestStoreSpills: a store with no data file yet writes large values into
// its new one as they are put; they read back before Save, the last put
// of a key wins whatever the sizes, and the keys keep refuses are not in
// the next process's store; no temporary file is left.
func TestStoreSpills(t *testing.T) {
	for _, fsName := range []string{"os", "mem"} {
		t.Run(fsName, func(t *testing.T) {
			fs, dir := afero.Fs(afero.NewOsFs()), filepath.Join(t.TempDir(), "cache")
			if fsName == "mem" {
				fs, dir = afero.NewMemMapFs(), "/cache"
			}
			big := func(c string) []byte { return []byte(strings.Repeat(c, 2*minSpill)) }
			s := OpenStore(fs, dir, "build-1")
			s.Put("large", big("a"))
			s.Put("small", []byte("s"))
			s.Put("large then small", big("b"))
			s.Put("large then small", []byte("small after large"))
			s.Put("small then large", []byte("small"))
			s.Put("small then large", big("c"))
			s.Put("dropped", big("d"))
			if s.spill == nil || len(s.spilled) != 4 {
				t.Fatalf("%d values spilled, want 4", len(s.spilled))
			}
			want := map[string]string{"large": string(big("a")), "small": "s", "large then small": "small after large", "small then large": string(big("c"))}
			for k, v := range want {
				if got, ok := s.Get(k); !ok || string(got) != v {
					t.Errorf("before Save, %s = %.20q, %v", k, got, ok)
				}
			}
			s.Save(func(k string) bool { return k != "dropped" })
			s = OpenStore(fs, dir, "build-1")
			for k, v := range want {
				if got, ok := s.Get(k); !ok || string(got) != v {
					t.Errorf("after Save, %s = %.20q, %v", k, got, ok)
				}
			}
			if _, ok := s.Get("dropped"); ok {
				t.Error("a key keep refused was saved")
			}
			for _, n := range storeFiles(t, fs, dir) {
				if strings.HasSuffix(n, ".tmp") {
					t.Errorf("%s left behind", n)
				}
			}

			empty := filepath.Join(dir, "empty")
			s = OpenStore(fs, empty, "build-2")
			s.Put("dropped", big("d"))
			s.Save(func(string) bool { return false })
			if _, ok := OpenStore(fs, empty, "build-2").Get("dropped"); ok {
				t.Error("a key keep refused was saved")
			}
			for _, n := range storeFiles(t, fs, empty) {
				if strings.HasSuffix(n, ".tmp") {
					t.Errorf("%s left behind", n)
				}
			}
		})
	}
}
