package cache

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// Stamp is how a file stood when a build read or wrote it, as make and
// go judge a file: its size and modification time (unix nanoseconds).
// It is the output folder's (output.Stamp), so that what a staging
// folder lists and leaves (output.Staging.Listing, Files) is stamped
// alike.
type Stamp = output.Stamp

// Manifest is what a build read and wrote, each file by its stamp, and
// what it reported. When the next build with the same key (the same
// program, theme, strings and options) finds every input and every
// output file as stamped, and no other, the output folder already is
// its result: it has nothing to make, and reports what this one did.
type Manifest struct {
	In      map[string]Stamp // every file under the site's inputs, by slash path from the site root
	Out     map[string]Stamp // every file of the output folder, by slash path in it
	Summary Summary
}

// Summary is what a build reported, for a build that finds nothing to do
// to report again (its warnings above all: --strict fails on them).
type Summary struct {
	Pages, Articles              map[string]int
	PartsPublished, PartsPlanned int
	Files                        int
	Bytes                        int64
	SearchBytes                  map[string]int
	Overrides                    []string
	Warnings                     diag.List
}

// manifestMagic starts every manifest file; bump its version whenever
// the encoding changes (the shape of Summary is checked apart). After it
// come the shape of Summary, the stamps of In and of Out (appendStamps),
// and the Summary in the cache's encoding (encodeRecord).
const manifestMagic = "kakehashi-manifest\x00v2\n"

// manifestFile is the manifest of the cache named key in dir.
func manifestFile(dir string, key uint64) string {
	return filepath.Join(dir, fmt.Sprintf("build-%016x.manifest", key))
}

// ReadManifest reads the manifest the last build with key left in dir on
// fsys; false when there is none or it cannot be read (the build then
// does its work).
func ReadManifest(fsys afero.Fs, dir string, key uint64) (*Manifest, bool) {
	b, err := afero.ReadFile(fsys, manifestFile(dir, key))
	if err != nil {
		return nil, false
	}
	m, err := decodeManifest(b)
	return m, err == nil
}

// WriteManifest leaves m in dir on fsys for the next build with key, and
// removes the manifests of other keys. Failing to write is no error: the
// next build does its work.
func WriteManifest(fsys afero.Fs, dir string, key uint64, m *Manifest) {
	writeReplacing(fsys, dir, manifestFile(dir, key), ".manifest", func(w io.Writer) error {
		b, err := encodeManifest(m)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}

var summaryType = reflect.TypeFor[Summary]()

// encodeManifest writes m as manifestMagic says: its stamps by hand, a
// build's inputs and outputs are thousands of them.
func encodeManifest(m *Manifest) ([]byte, error) {
	shape, err := shapeOf(summaryType)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(manifestMagic)+stampsSize(m.In)+stampsSize(m.Out)+4096)
	b = append(b, manifestMagic...)
	b = binary.AppendUvarint(b, shape)
	b = appendStamps(b, m.In)
	b = appendStamps(b, m.Out)
	return append(b, encodeRecord(&m.Summary)...), nil
}

// stampsSize is about what appendStamps writes of stamps.
func stampsSize(stamps map[string]Stamp) int {
	n := 8
	for p := range stamps {
		n += len(p) + 20
	}
	return n
}

// appendStamps writes stamps: 0 for nil, else 1, a count, and each path,
// in no order (readStamps makes the same map), with its size and time.
func appendStamps(b []byte, stamps map[string]Stamp) []byte {
	if stamps == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(stamps)))
	for p, s := range stamps {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = binary.AppendVarint(b, s.Size)
		b = binary.AppendVarint(b, s.MTime)
	}
	return b
}

// readStamps reads what appendStamps wrote.
func readStamps(d *diskReader) (map[string]Stamp, bool) {
	switch d.uint() {
	case 0:
		return nil, d.err == nil
	case 1:
	default:
		return nil, false
	}
	n := d.count()
	stamps := make(map[string]Stamp, n)
	for range n {
		p := d.str()
		stamps[p] = Stamp{Size: d.int(), MTime: d.int()}
	}
	return stamps, d.err == nil
}

// decodeManifest reads what encodeManifest wrote.
func decodeManifest(b []byte) (*Manifest, error) {
	if !strings.HasPrefix(string(b), manifestMagic) {
		return nil, ErrUnreadable
	}
	shape, err := shapeOf(summaryType)
	if err != nil {
		return nil, err
	}
	d := &diskReader{b: b[len(manifestMagic):]}
	if d.uint() != shape {
		return nil, ErrUnreadable
	}
	m := &Manifest{}
	var ok1, ok2 bool
	m.In, ok1 = readStamps(d)
	m.Out, ok2 = readStamps(d)
	if !ok1 || !ok2 {
		return nil, ErrUnreadable
	}
	if err := decodeRecord(d.b, &m.Summary); err != nil {
		return nil, err
	}
	return m, nil
}

// hintMagic starts every file of a destination's hint (WriteHint).
const hintMagic = "kakehashi-listing\x00v1\n"

// hintFile is the file of dest's hint in dir: one per destination, by
// its path.
func hintFile(dir, dest string) string {
	if abs, err := filepath.Abs(dest); err == nil {
		dest = abs
	}
	h := NewHasher()
	h.Str(dest)
	return filepath.Join(dir, fmt.Sprintf("dest-%016x.hint", h.Sum()))
}

// WriteHint leaves in dir on fsys the hint of the next listing of the
// destination dest (output.Hint: what it holds as this build left it);
// nil removes it. Failing to write is no error: the next listing reads
// every folder.
func WriteHint(fsys afero.Fs, dir, dest string, h *output.Hint) {
	f := hintFile(dir, dest)
	if h == nil {
		fsys.Remove(f)
		return
	}
	b := make([]byte, 0, len(hintMagic)+stampsSize(h.Dirs)+stampsSize(h.Files)+16)
	b = append(b, hintMagic...)
	b = binary.AppendVarint(b, h.Taken)
	b = appendStamps(b, h.Dirs)
	b = appendStamps(b, h.Files)
	if fsys.MkdirAll(dir, 0o755) == nil {
		writeFileReplacing(fsys, f, b)
	}
}

// ReadHint reads the hint WriteHint left for dest; nil for none.
func ReadHint(fsys afero.Fs, dir, dest string) *output.Hint {
	b, err := afero.ReadFile(fsys, hintFile(dir, dest))
	if err != nil || !strings.HasPrefix(string(b), hintMagic) {
		return nil
	}
	d := &diskReader{b: b[len(hintMagic):]}
	h := &output.Hint{Taken: d.int()}
	var ok1, ok2 bool
	h.Dirs, ok1 = readStamps(d)
	h.Files, ok2 = readStamps(d)
	if !ok1 || !ok2 || len(d.b) != 0 || h.Dirs == nil || h.Files == nil {
		return nil
	}
	return h
}

// RemoveManifest removes the manifest of key in dir, so that the next
// build does its work (a build that changed the output, before its new
// manifest is written).
func RemoveManifest(fsys afero.Fs, dir string, key uint64) {
	fsys.Remove(manifestFile(dir, key))
}

// StampFolder stamps every file in the folder dir on fsys (an operating
// system path), by slash path relative to it, as StampTree does.
func StampFolder(ctx context.Context, fsys afero.Fs, dir string) (map[string]Stamp, error) {
	all, err := StampTree(ctx, fsys, dir)
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(dir)), "/") + "/"
	out := make(map[string]Stamp, len(all))
	for p, s := range all {
		out[strings.TrimPrefix(p, prefix)] = s
	}
	return out, nil
}

// Extra reports whether files holds a file this build did not write or
// reuse (a stray file in the output folder), but the names in skip.
func (c *Cache) Extra(files map[string]Stamp, skip ...string) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range files {
		if _, ok := c.next[p]; !ok && !slices.Contains(skip, p) {
			return true
		}
	}
	return false
}

// Same reports whether in and out are exactly m's inputs and outputs.
func (m *Manifest) Same(in, out map[string]Stamp) bool {
	return m != nil && m.In != nil && m.Out != nil && maps.Equal(m.In, in) && maps.Equal(m.Out, out)
}

// errLinkedFolder: a symbolic link to a folder is not followed, so what
// it holds cannot be stamped (nor can a loop of links hang the walk).
var errLinkedFolder = errors.New("a link to a folder: its files are not stamped")

// StampTree stamps every file under the paths roots (folders or files)
// on fsys, by slash path as walked; a missing root has none. Symbolic
// links to files are followed (fsys.Stat), so an edit to what one leads
// to counts; a link to a folder is an error, as is any other that stops
// the walk (the build then does its work). It stops when ctx is
// cancelled.
func StampTree(ctx context.Context, fsys afero.Fs, roots ...string) (map[string]Stamp, error) {
	out := map[string]Stamp{}
	for _, root := range roots {
		err := afero.Walk(fsys, root, func(p string, info fs.FileInfo, err error) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if info.IsDir() {
				return nil
			}
			if info.Mode()&fs.ModeSymlink != 0 {
				if info, err = fsys.Stat(p); err != nil {
					return err
				}
				if info.IsDir() {
					return fmt.Errorf("%s: %w", p, errLinkedFolder)
				}
			}
			out[path.Clean(filepath.ToSlash(p))] = Stamp{Size: info.Size(), MTime: info.ModTime().UnixNano()}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
