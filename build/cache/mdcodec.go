package cache

import (
	"math"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// decodeMarkdown reads a page's markdown record as decodeRecord does,
// field by field in Markdown's order, without reflection: a rebuild
// reads thousands of them. It fails where the record is not what the
// encoding (diskWriter.value) writes of a Markdown of these types, and
// the caller then reads it with decodeRecord (a field added to one of
// the types, which the test of this function catches first).
func decodeMarkdown(b []byte) (Markdown, bool) {
	d := &mdReader{diskReader{b: b, alias: true}}
	var m Markdown
	m.Gen = d.uint()
	m.TOC = d.headings(0)
	m.Diags = d.diags()
	m.Minutes = d.int32()
	m.Styles = d.strs()
	m.Scripts = d.strs()
	m.IDs = d.strs()
	if n := d.count(); n > 0 {
		m.Links = make([]markdown.Link, n)
		for i := range m.Links {
			l := &m.Links[i]
			l.Dest, l.Path, l.Fragment = d.str(), d.str(), d.str()
			d.diag(&l.At)
		}
	}
	if n := d.count(); n > 0 {
		m.Outline = make([]markdown.Block, n)
		for i := range m.Outline {
			o := &m.Outline[i]
			o.Kind = markdown.BlockKind(d.int32())
			o.Level = d.int32()
			o.ID, o.Text, o.Info = d.str(), d.str(), d.str()
			o.CodeSum = d.uint()
			o.Line, o.Col = d.int32(), d.int32()
		}
	}
	if d.err != nil || len(d.b) != 0 {
		return Markdown{}, false
	}
	return m, true
}

// mdReader is a diskReader with the readers of Markdown's fields.
type mdReader struct{ diskReader }

// int32 reads an integer that must fit in 32 bits (diskReader.value's
// rule for an int that is not an int64).
func (d *mdReader) int32() int {
	n := d.int()
	if n < math.MinInt32 || n > math.MaxInt32 {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *mdReader) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *mdReader) headings(depth int) []markdown.Heading {
	n := d.count()
	if n == 0 {
		return nil
	}
	if depth >= maxDepth {
		d.fail()
		return nil
	}
	hs := make([]markdown.Heading, n)
	for i := range hs {
		h := &hs[i]
		h.Level = d.int32()
		h.ID, h.Text = d.str(), d.str()
		h.Children = d.headings(depth + 1)
		if d.err != nil {
			return nil
		}
	}
	return hs
}

func (d *mdReader) diags() diag.List {
	n := d.count()
	if n == 0 {
		return nil
	}
	ds := make(diag.List, n)
	for i := range ds {
		d.diag(&ds[i])
	}
	return ds
}

func (d *mdReader) diag(x *diag.Diagnostic) {
	x.Path = d.str()
	x.Line, x.Col = d.int32(), d.int32()
	x.Msg = d.str()
	x.Severity = diag.Severity(d.int32())
	x.Source = d.str()
	x.Context = d.strs()
	x.ContextStart = d.int32()
	x.Code = d.str()
}
