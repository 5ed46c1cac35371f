package i18n

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func TestLoadSiteDefaults(t *testing.T) {
	b, diags := LoadSite(context.Background(), afero.NewMemMapFs(), "i18n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := strings.Join(b.Langs(), ","); got != "ja,ko" {
		t.Fatalf("Langs() = %q, want ja,ko", got)
	}
	if b.T("ja", "toc") == "[ja:toc]" || b.T("ko", "planned") == "[ko:planned]" {
		t.Errorf("embedded strings missing: %q %q", b.T("ja", "toc"), b.T("ko", "planned"))
	}
}

func TestLoadSiteKeyByKey(t *testing.T) {
	fsys := memFs(t, map[string]string{
		"i18n/ko.toml": "toc = \"차례\"\n",
	})
	b, diags := LoadSite(context.Background(), fsys, "i18n")
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
	fsys := memFs(t, map[string]string{"i18n/en.toml": enFile(t, "")})
	b, diags := LoadSite(context.Background(), fsys, "i18n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := strings.Join(b.Langs(), ","); got != "en,ja,ko" {
		t.Errorf("Langs() = %q", got)
	}
	if got := b.T("en", "toc"); got != "en toc" {
		t.Errorf("en toc = %q", got)
	}

	// A key the new language lacks is named where it is missing.
	fsys = memFs(t, map[string]string{"i18n/en.toml": enFile(t, "toc")})
	_, diags = LoadSite(context.Background(), fsys, "i18n")
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Header())
	}
	got := strings.Join(msgs, "\n")
	if len(diags) != 2 || !strings.Contains(got, `(embedded) i18n/ja.toml:`) || !strings.Contains(got, `key "toc" is missing from i18n/en.toml`) {
		t.Errorf("diagnostics:\n%s\nwant the embedded ja.toml and ko.toml naming toc missing from i18n/en.toml", got)
	}
}

func TestLoadSiteErrorsNameTheSiteFile(t *testing.T) {
	fsys := memFs(t, map[string]string{"i18n/ja.toml": "toc = 3\n"})
	_, diags := LoadSite(context.Background(), fsys, "i18n")
	if len(diags) != 1 || diags[0].Header() != `i18n/ja.toml:1:1: key "toc": value must be a string, not int64` {
		t.Errorf("diagnostics %v", diags)
	}
}
