package output

import (
	"context"
	"testing"

	"github.com/spf13/afero"
)

// TestOutputKind: a kind recorded with WithKind is read back from the
// published folder, and only from an output folder; the site given to
// WithKind is left without the file.
func TestOutputKind(t *testing.T) {
	fs := afero.NewMemMapFs()
	s := New()
	s.Put("index.html", []byte("x"))
	if err := Publish(context.Background(), fs, "/kind", WithKind(s, "export-single-file")); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(KindName); ok {
		t.Error("WithKind changed the site it was given")
	}
	if got := OutputKind(fs, "/kind"); got != "export-single-file" {
		t.Errorf("OutputKind = %q", got)
	}
	if err := Publish(context.Background(), fs, "/plain", s); err != nil {
		t.Fatal(err)
	}
	if got := OutputKind(fs, "/plain"); got != "" {
		t.Errorf("an output without a kind: OutputKind = %q", got)
	}
	// A kind file in someone else's folder says nothing.
	afero.WriteFile(fs, "/theirs/"+KindName, []byte("export\n"), 0o644)
	if got := OutputKind(fs, "/theirs"); got != "" {
		t.Errorf("a folder without the marker: OutputKind = %q", got)
	}
	// Nor does one too large to be a kind.
	afero.WriteFile(fs, "/big/"+MarkerName, []byte(markerText), 0o644)
	afero.WriteFile(fs, "/big/"+KindName, make([]byte, maxKind+1), 0o644)
	if got := OutputKind(fs, "/big"); got != "" {
		t.Errorf("a large kind file: OutputKind = %q", got)
	}
}
