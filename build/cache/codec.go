package cache

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// The persistent cache is written in a small binary format of its own:
// on a large site it holds tens of megabytes of page text, which
// encoding/gob took a third of a second to write, all of it after the
// pages were done. Strings are a length then their bytes; numbers are
// varints; entries are sorted by path, so equal caches are equal bytes.

// diskMagic starts every cache file; bump its version whenever Data
// or the encoding changes shape, so an old file reads as no cache.
const diskMagic = "kakehashi-cache\x00v2\n"

// ErrUnreadable reports a cache file that is not in this format or is cut
// short; the build that meets one is a cold build.
var ErrUnreadable = errors.New("build cache: unreadable")

type diskWriter struct {
	w       *bufio.Writer
	scratch [binary.MaxVarintLen64]byte
}

func (e *diskWriter) uint(v uint64) {
	n := binary.PutUvarint(e.scratch[:], v)
	e.w.Write(e.scratch[:n])
}

func (e *diskWriter) int(v int64) {
	n := binary.PutVarint(e.scratch[:], v)
	e.w.Write(e.scratch[:n])
}

func (e *diskWriter) str(s string) {
	e.uint(uint64(len(s)))
	e.w.WriteString(s)
}

func (e *diskWriter) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *diskWriter) headings(hs []markdown.Heading) {
	e.uint(uint64(len(hs)))
	for _, h := range hs {
		e.int(int64(h.Level))
		e.str(h.ID)
		e.str(h.Text)
		e.headings(h.Children)
	}
}

func (e *diskWriter) diags(ds diag.List) {
	e.uint(uint64(len(ds)))
	for _, d := range ds {
		e.str(d.Path)
		e.int(int64(d.Line))
		e.int(int64(d.Col))
		e.str(d.Msg)
		e.int(int64(d.Severity))
		e.str(d.Source)
		e.strs(d.Context)
		e.int(int64(d.ContextStart))
	}
}

// Encode writes c to w.
func Encode(w io.Writer, c *Data) error {
	e := &diskWriter{w: bufio.NewWriterSize(w, 256<<10)}
	e.w.WriteString(diskMagic)
	keys := slices.Sorted(maps.Keys(c.MD))
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		m := c.MD[k]
		e.str(k)
		e.uint(m.Gen)
		e.str(m.Text)
		e.str(m.CodeText)
		e.headings(m.TOC)
		e.diags(m.Diags)
		e.int(int64(m.Minutes))
		e.strs(m.Scripts)
	}
	keys = slices.Sorted(maps.Keys(c.Out))
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		o := c.Out[k]
		e.str(k)
		e.uint(o.FP)
		e.int(o.Size)
		e.int(o.MTime)
	}
	return e.w.Flush()
}

// diskReader decodes what diskWriter wrote from one buffer; the first
// problem sticks in err and every later read returns zero values.
type diskReader struct {
	b   []byte
	err error
}

func (d *diskReader) fail() {
	if d.err == nil {
		d.err = ErrUnreadable
	}
	d.b = nil
}

func (d *diskReader) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *diskReader) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// smallInt reads an int that must fit in an int32 (lines, levels, counts
// of minutes).
func (d *diskReader) smallInt() int {
	v := d.int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.fail()
		return 0
	}
	return int(v)
}

// count reads a number of items, each taking at least one byte, so a
// damaged count cannot make a huge allocation.
func (d *diskReader) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *diskReader) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *diskReader) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.str()
	}
	return ss
}

// headings reads a table of contents; depth bounds the nesting a damaged
// file could claim.
func (d *diskReader) headings(depth int) []markdown.Heading {
	n := d.count()
	if n == 0 {
		return nil
	}
	if depth > 8 {
		d.fail()
		return nil
	}
	hs := make([]markdown.Heading, n)
	for i := range hs {
		hs[i].Level = d.smallInt()
		hs[i].ID = d.str()
		hs[i].Text = d.str()
		hs[i].Children = d.headings(depth + 1)
	}
	return hs
}

func (d *diskReader) diags() diag.List {
	n := d.count()
	if n == 0 {
		return nil
	}
	ds := make(diag.List, n)
	for i := range ds {
		ds[i] = diag.Diagnostic{
			Path: d.str(), Line: d.smallInt(), Col: d.smallInt(), Msg: d.str(),
			Severity: diag.Severity(d.smallInt()), Source: d.str(),
			Context: d.strs(), ContextStart: d.smallInt(),
		}
	}
	return ds
}

// Decode reads a cache written by Encode.
func Decode(b []byte) (*Data, error) {
	if len(b) < len(diskMagic) || string(b[:len(diskMagic)]) != diskMagic {
		return nil, ErrUnreadable
	}
	d := &diskReader{b: b[len(diskMagic):]}
	c := &Data{MD: map[string]Markdown{}, Out: map[string]File{}}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		k := d.str()
		c.MD[k] = Markdown{
			Gen: d.uint(), Text: d.str(), CodeText: d.str(), TOC: d.headings(0),
			Diags: d.diags(), Minutes: d.smallInt(), Scripts: d.strs(),
		}
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		k := d.str()
		c.Out[k] = File{FP: d.uint(), Size: d.int(), MTime: d.int()}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail() // trailing bytes: not a file this code wrote
	}
	if d.err != nil {
		return nil, d.err
	}
	return c, nil
}
