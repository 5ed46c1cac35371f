package i18n

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func TestLoadSiteDefaults(t *testing.T) {
	b, diags := LoadSite(context.Background(), afero.NewMemMapFs(), "i18n", []string{"ja", "ko"})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := strings.Join(b.Langs(), ","); got != "ja,ko" {
		t.Fatalf("Langs() = %q, want ja,ko", got)
	}
	if got := strings.Join(b.Available(), ","); got != "en,ja,ko" {
		t.Errorf("Available() = %q, want the embedded en,ja,ko", got)
	}
	if b.T("ja", "toc") == "[ja:toc]" || b.T("ko", "planned") == "[ko:planned]" {
		t.Errorf("embedded strings missing: %q %q", b.T("ja", "toc"), b.T("ko", "planned"))
	}
}

func TestLoadSiteKeyByKey(t *testing.T) {
	fsys := memFs(t, map[string]string{
		"i18n/ko.toml": "toc = \"차례\"\n",
	})
	b, diags := LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko"})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	def := realBundle(t)
	if got := b.T("ko", "toc"); got != "차례" {
		t.Errorf("ko toc = %q, want the site's", got)
	}
	for _, c := range []struct{ lang, key string }{{"ko", "planned"}, {"ja", "toc"}, {"ko", "date_format"}} {
		if got, want := b.T(c.lang, c.key), def.T(c.lang, c.key); got != want {
			t.Errorf("%s %s = %q, want the embedded %q", c.lang, c.key, got, want)
		}
	}
}

// enFile is an en.toml holding every key of the embedded ja.toml but skip.
func enFile(t *testing.T, skip string) string {
	t.Helper()
	var b strings.Builder
	for _, k := range sortedKeys(realBundle(t).strings["ja"]) {
		if k != skip {
			b.WriteString(k + " = \"en " + k + "\"\n")
		}
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestLoadSiteAddsALanguage(t *testing.T) {
	fsys := memFs(t, map[string]string{"i18n/fr.toml": enFile(t, "")})
	b, diags := LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko", "fr"})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := strings.Join(b.Langs(), ","); got != "ja,ko,fr" {
		t.Errorf("Langs() = %q, want the site's order", got)
	}
	if got := b.T("fr", "toc"); got != "en toc" {
		t.Errorf("fr toc = %q", got)
	}
	// The other languages name the new one by its own name.
	if got := b.T("ja", "lang_fr"); got != "en lang_name" || !b.Embedded("ja", "lang_fr") {
		t.Errorf("ja lang_fr = %q (embedded %v), want fr's lang_name, not the site's to maintain", got, b.Embedded("ja", "lang_fr"))
	}

	// A key the new language lacks is named where it is missing.
	fsys = memFs(t, map[string]string{"i18n/fr.toml": enFile(t, "toc")})
	_, diags = LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko", "fr"})
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Header())
	}
	got := strings.Join(msgs, "\n")
	if len(diags) != 2 || !strings.Contains(got, `(embedded) i18n/ja.toml:`) || !strings.Contains(got, `key "toc" is missing from i18n/fr.toml`) {
		t.Errorf("diagnostics:\n%s\nwant the embedded ja.toml and ko.toml naming toc missing from i18n/fr.toml", got)
	}
}

// TestLoadSiteOnlyTheSiteLanguages: the strings of a language the site
// does not have are neither read nor checked: a key a ja/ko site adds to
// both its files is no error for want of it in the embedded en.toml, and
// a broken file of another language is not the site's concern.
func TestLoadSiteOnlyTheSiteLanguages(t *testing.T) {
	fsys := memFs(t, map[string]string{
		"i18n/ja.toml": "site_only = \"ja\"\n",
		"i18n/ko.toml": "site_only = \"ko\"\n",
		"i18n/fr.toml": "broken = \n",
	})
	b, diags := LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko"})
	if len(diags) > 0 {
		t.Fatalf("a ja/ko site: %v", diags)
	}
	if got := strings.Join(b.Langs(), ","); got != "ja,ko" {
		t.Errorf("Langs() = %q, want ja,ko", got)
	}
	if got := strings.Join(b.Available(), ","); got != "en,fr,ja,ko" {
		t.Errorf("Available() = %q", got)
	}
	// With en among the site's languages, en lacks the key.
	_, diags = LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko", "en"})
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Header())
	}
	want := []string{
		`i18n/ja.toml:1:1: key "site_only" is missing from (embedded) i18n/en.toml`,
		`i18n/ko.toml:1:1: key "site_only" is missing from (embedded) i18n/en.toml`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("a ja/ko/en site:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	// A language the site has and the binary and the site have no
	// strings for is not in the bundle: the caller reports it.
	b, diags = LoadSite(context.Background(), afero.NewMemMapFs(), "i18n", []string{"ja", "de"})
	if len(diags) > 0 || strings.Join(b.Langs(), ",") != "ja" {
		t.Errorf("ja/de: Langs() = %q, %v", b.Langs(), diags)
	}
}

func TestLoadSiteErrorsNameTheSiteFile(t *testing.T) {
	fsys := memFs(t, map[string]string{"i18n/ja.toml": "toc = 3\n"})
	_, diags := LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko"})
	if len(diags) != 1 || diags[0].Header() != `i18n/ja.toml:1:1: key "toc": value must be a string, not int64` {
		t.Errorf("diagnostics %v", diags)
	}
}

// TestLoadSiteKeepsWhatLoads: with errors, the site's bundle still holds
// every string that could be read, the embedded ones under a file that
// does not decode, so that a build goes on to its other checks; Load's
// is nil.
func TestLoadSiteKeepsWhatLoads(t *testing.T) {
	fsys := memFs(t, map[string]string{
		"i18n/ja.toml": "toc = 3\nextra = \"追加\"\n",
		"i18n/ko.toml": "extra = [\n",
	})
	b, diags := LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko"})
	var got []string
	for _, d := range diags {
		got = append(got, d.Header())
	}
	want := []string{
		`i18n/ja.toml:1:1: key "toc": value must be a string, not int64`,
		`i18n/ja.toml:2:1: key "extra" is missing from (embedded) i18n/ko.toml`,
	}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || !strings.HasPrefix(got[2], "i18n/ko.toml:") {
		t.Errorf("diagnostics:\n\t%s\nwant %s, %s and ko.toml's syntax error", strings.Join(got, "\n\t"), want[0], want[1])
	}
	if b == nil {
		t.Fatal("LoadSite returned no bundle")
	}
	if b.T("ja", "extra") != "追加" || !b.Has("ja", "toc") || !b.Has("ko", "toc") || b.Has("ko", "extra") {
		t.Errorf("ja extra %q, ja toc %v, ko toc %v, ko extra %v", b.T("ja", "extra"), b.Has("ja", "toc"), b.Has("ko", "toc"), b.Has("ko", "extra"))
	}
	if b, _ := Load(context.Background(), fsys, "i18n"); b != nil {
		t.Error("Load returned a bundle despite errors")
	}
}
