// Reading a source file: its size limit, UTF-8 and NFC.

package source

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/afero"
	"golang.org/x/text/unicode/norm"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// MaxFileSize is the largest content file (a page or a series file) a
// build reads: 8 MiB, some hundred times a long article. A larger file is
// an error at its path, reported before it is read, so that no file can
// make a build slow or large.
const MaxFileSize = 8 << 20

func humanSize(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
}

func read(fsys afero.Fs, p string, diags *diag.List) ([]byte, bool) {
	src, err := readLimited(fsys, p)
	if err != nil {
		*diags = append(*diags, diag.File(p, "%v", err))
		return nil, false
	}
	if d, ok := CheckUTF8(p, src); !ok {
		*diags = append(*diags, d)
		return nil, false
	}
	return Normalize(src), true
}

// readLimited reads a content file of at most MaxFileSize bytes; the
// walk checked the size, and this holds even if the file grew since.
func readLimited(fsys afero.Fs, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	var src []byte
	if info, err := f.Stat(); err == nil && info.Size() <= MaxFileSize {
		// Read into a buffer of the file's size (and one byte more, to
		// see the end): io.ReadAll's growing buffer is larger by up to
		// half, and the page holds it for the whole build.
		src, err = readSized(f, info.Size())
	} else {
		src, err = ReadLimited(f)
	}
	if err != nil {
		return nil, unwrapPath(err)
	}
	return src, nil
}

// readSized reads r, a file of size bytes when it was checked; one that
// grew since is read on, within MaxFileSize.
func readSized(r io.Reader, size int64) ([]byte, error) {
	buf := make([]byte, size+1)
	n, err := io.ReadFull(r, buf)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return buf[:n:n], nil
	case err != nil:
		return nil, err
	}
	// Longer than it was: read the rest as a file of unknown size.
	rest, err := ReadLimited(io.MultiReader(bytes.NewReader(buf), r))
	if err != nil {
		return nil, err
	}
	return rest, nil
}

// CheckSize is the error of a content file of size bytes, over
// MaxFileSize, or nil: what every command says of such a file before it
// reads it.
func CheckSize(size int64) error {
	if size > MaxFileSize {
		return fmt.Errorf("the file is %s, over the limit of %s for one content file: split it into several parts", humanSize(size), humanSize(MaxFileSize))
	}
	return nil
}

// ReadLimited reads a content file from r, of at most MaxFileSize bytes:
// more is an error, and no more than one byte past the limit is read.
// It is how every command reads a content file whose size is not known
// beforehand (standard input), or may have grown since it was checked.
func ReadLimited(r io.Reader) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, fmt.Errorf("the file is over the limit of %s for one content file: split it into several parts", humanSize(MaxFileSize))
	}
	return src, nil
}

// CheckUTF8 reports the first invalid UTF-8 sequence of src, if any.
func CheckUTF8(p string, src []byte) (diag.Diagnostic, bool) {
	if utf8.Valid(src) {
		return diag.Diagnostic{}, true
	}
	off := 0
	for off < len(src) {
		r, n := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	d := diag.At(p, src, off, "invalid UTF-8 (byte 0x%02x): save the file as UTF-8", src[off])
	d.Source = strings.ToValidUTF8(d.Source, "\uFFFD")
	for i := range d.Context {
		d.Context[i] = strings.ToValidUTF8(d.Context[i], "\uFFFD")
	}
	return d, false
}

// Normalize returns src in Unicode NFC with a leading byte order mark and
// Windows line endings removed. Korean text saved on macOS arrives
// decomposed (NFD); NFC makes it compare, search and link like any other.
func Normalize(src []byte) []byte {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	if plainNFC(src) || norm.NFC.IsNormal(src) {
		return src
	}
	return norm.NFC.Bytes(src)
}

// plainNFC reports whether src is made only of characters that are in NFC
// and never combine with a neighbour (NFC_QC=Yes, combining class 0), in
// the ranges course text is made of: ASCII, Latin-1, general punctuation,
// CJK punctuation, kana, unified Han and Hangul syllables. Such text is
// NFC; checking it so is several times faster than the general check,
// which is left for the rest (a Hangul syllable followed by a trailing
// jamo, a letter with a combining accent).
func plainNFC(src []byte) bool {
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case 0xA0 <= r && r <= 0xFF, 0x2010 <= r && r <= 0x2027, 0x3000 <= r && r <= 0x3029,
			0x3041 <= r && r <= 0x3096, 0x30A1 <= r && r <= 0x30FA, r == 0x30FC,
			0x4E00 <= r && r <= 0x9FFF, 0xAC00 <= r && r <= 0xD7A3, 0xFF01 <= r && r <= 0xFF5E:
		default:
			return false // includes invalid UTF-8 (U+FFFD)
		}
		i += size
	}
	return true
}
