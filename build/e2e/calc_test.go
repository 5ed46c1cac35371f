package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/wasm"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/shortcodes"

	"github.com/spf13/afero"
)

// harnessMarkdown holds one of each widget, at the starting values of
// seed 000's incidents (the simulator starts with nothing failed).
const harnessMarkdown = `{{< quorum members=3 failed=1 >}}

{{< san nodeName="cp-1" advertiseAddress="10.0.0.111" dial="10.0.0.120" >}}

{{< ha-sim controlPlanes=3 workers=2 endpoint="node" addrs="cp-1=10.0.0.120,cp-2=10.0.0.121,cp-3=10.0.0.122" >}}
`

// harnessPage is where the harness page sits, three folders deep like an
// article, so calc.js finds the modules beside itself as in a built site.
const harnessPage = "ja/cka/calc"

var (
	harnessOnce sync.Once
	harnessDir  string
	harnessErr  error
)

// calcHarness writes a small site: one page with the three widgets as the
// shortcodes render them, the theme's CSS and calc.js, and the modules
// compiled by build/wasm (also as script modules for file://).
func calcHarness(t *testing.T) string {
	t.Helper()
	harnessOnce.Do(func() { harnessDir, harnessErr = writeHarness() })
	if harnessErr != nil {
		t.Fatalf("calculator harness: %v", harnessErr)
	}
	return harnessDir
}

func writeHarness() (string, error) {
	root, _ := filepath.Abs("../..")
	dir, err := os.MkdirTemp("", "kakehashi-calc-")
	if err != nil {
		return "", err
	}
	cache := filepath.Join(os.TempDir(), "kakehashi-calc-wasm-cache")
	mods, err := wasm.Build(context.Background(), root, cache)
	if err != nil {
		return "", err
	}
	bundle, ds := i18n.Load(context.Background(), afero.NewOsFs(), filepath.Join(root, "i18n"))
	if ds.Err() != nil {
		return "", ds.Err()
	}
	md := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	res := md.Render(context.Background(), markdown.Doc{Path: "calc.md", Src: []byte(harnessMarkdown)}, markdown.Env{
		Lang: "ja", T: func(k string) string { return bundle.T("ja", k) },
	})
	if err := res.Diags.Err(); err != nil {
		return "", err
	}
	page := `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<title>calc</title>
<link rel="stylesheet" href="../../../css/main.css">
<script src="../../../js/calc.js" defer></script>
</head>
<body>
<main id="main">
` + string(res.HTML) + `</main>
</body>
</html>
`
	theme := filepath.Join(root, "themes", "default", "static")
	files := map[string][]byte{
		harnessPage + "/index.html": []byte(page),
		"calc/calc.wasm":            mods.Calc,
		"calc/calc-x509.wasm":       mods.CalcX509,
		"calc/calc.wasm.js":         wasm.ScriptModule(wasm.CalcName, mods.Calc),
		"calc/calc-x509.wasm.js":    wasm.ScriptModule(wasm.CalcX509Name, mods.CalcX509),
		"js/wasm_exec.js":           mods.ExecJS,
	}
	for _, p := range []string{"js/calc.js", "css/main.css", "css/calc.css"} {
		if files[p], err = os.ReadFile(filepath.Join(theme, p)); err != nil {
			return "", err
		}
	}
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// setValue sets a form field as typing would, firing input and change.
func setValue(sel, v string) chromedp.Action[chromedp.Void] {
	eval := chromedp.Evaluate[bool](`(() => {
		const el = document.querySelector(` + quoteJS(sel) + `);
		el.value = ` + quoteJS(v) + `;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	})()`)
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := eval(ctx, t)
		return chromedp.Void{}, err
	}
}

func quoteJS(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

// waitText polls until the element's text contains want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	expr := `(document.querySelector(` + quoteJS(sel) + `)?.textContent || "").includes(` + quoteJS(want) + `) || null`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+quoteJS(sel)+`)?.textContent || "(none)"`))
		t.Fatalf("%s: want text containing %q, have %q (%v)", sel, want, got, err)
	}
}

// clickUntil clicks an idempotent control (sel) until the element waitSel
// shows want. The control is first scrolled to the middle of the window,
// and the click is tried again if nothing happened within a few seconds:
// on a loaded machine the browser can take a click at a place the page
// has just scrolled or laid out away from.
func clickUntil(t *testing.T, ctx context.Context, sel, waitSel, want string) {
	t.Helper()
	expr := `(document.querySelector(` + quoteJS(waitSel) + `)?.textContent || "").includes(` + quoteJS(want) + `) || null`
	for range 3 {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector(`+quoteJS(sel)+`).scrollIntoView({block: "center"}), true)`)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatal(err)
		}
		try, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := chromedp.Run(try, chromedp.Poll[bool](expr))
		cancel()
		if err == nil {
			return
		}
	}
	waitText(t, ctx, waitSel, want) // reports what the element shows
}

// attr returns an attribute of the first element matching sel.
func attr(t *testing.T, ctx context.Context, sel, name string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+quoteJS(sel)+`)?.getAttribute(`+quoteJS(name)+`) ?? "(none)"`))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// waitReady waits until every widget of the page is interactive.
func waitReady(t *testing.T, b *browsertest.Browser, n int) {
	t.Helper()
	ctx := b.Ctx
	expr := `document.querySelectorAll('[data-calc][data-ready="true"]').length === ` + string(rune('0'+n)) + ` || null`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('[data-calc]')].map(e => e.dataset.calc + "=" + e.dataset.ready).join(" ")`))
		t.Fatalf("widgets not ready: %s (%v)\n%s", got, err, strings.Join(b.Console(), "\n"))
	}
}

// TestCalcWidgetsInBrowser drives the three widgets in headless Chromium:
// each becomes ready and answers input.
func TestCalcWidgetsInBrowser(t *testing.T) {
	base := serve(t, calcHarness(t))
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+harnessPage+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-calc="quorum"]`))); err != nil {
		t.Fatal(err)
	}
	waitReady(t, b, 3)

	t.Run("quorum", func(t *testing.T) {
		const q = `[data-calc="quorum"] `
		waitText(t, ctx, q+`[data-out="status"]`, "書き込めます")
		for _, c := range []struct{ members, failed, quorum, status, writable string }{
			{"5", "2", "3", "書き込めます: 5 メンバー中 3 が生存", "true"},
			{"5", "3", "3", "書き込めません: 5 メンバー中、生存は 2 で", "false"},
			{"4", "1", "3", "書き込めます: 4 メンバー中 3", "true"},
			{"2", "1", "2", "書き込めません", "false"},
		} {
			if err := chromedp.Do(ctx, setValue(q+`[name="members"]`, c.members), setValue(q+`[name="failed"]`, c.failed)); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, q+`[data-out="status"]`, c.status)
			waitText(t, ctx, q+`[data-out="quorum"]`, c.quorum)
			if got := attr(t, ctx, q+`[data-out="writable"]`, "data-ok"); got != c.writable {
				t.Errorf("N=%s F=%s: writable %s, want %s", c.members, c.failed, got, c.writable)
			}
		}
		if err := chromedp.Do(ctx, setValue(q+`[name="failed"]`, "7")); err != nil {
			t.Fatal(err)
		}
		waitText(t, ctx, q+`[data-out="error"]`, "停止したメンバー数 (F): メンバー数 2 以下の値を入力してください (7 はメンバー数を超えています)")
	})

	t.Run("san", func(t *testing.T) {
		const s = `[data-calc="san"] `
		waitText(t, ctx, s+`[data-out="status"]`, "10.0.0.120 への接続は TLS 検証で失敗します")
		for _, c := range []struct{ dial, ok, verify string }{
			{"10.0.0.120", "false", "x509: certificate is valid for 10.96.0.1, 10.0.0.111, not 10.0.0.120 — TLS 検証は失敗します"},
			{"10.0.0.111", "true", "検証成功: IP 10.0.0.111"},
			{"https://kubernetes.default.svc:443/api", "true", "kubernetes.default.svc"},
		} {
			if err := chromedp.Do(ctx, setValue(s+`[name="dial"]`, c.dial)); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, s+`[data-out="verify"]`, c.verify)
			if got := attr(t, ctx, s+`[data-out="status"]`, "data-ok"); got != c.ok {
				t.Errorf("dial %s: ok %s, want %s", c.dial, got, c.ok)
			}
		}
		// Adding the new address as a certSAN makes .120 verify.
		if err := chromedp.Do(ctx, setValue(s+`[name="dial"]`, "10.0.0.120:6443"), setValue(s+`[name="certSANs"]`, "10.0.0.120")); err != nil {
			t.Fatal(err)
		}
		waitText(t, ctx, s+`[data-out="ips"]`, "10.0.0.120")
		waitText(t, ctx, s+`[data-out="status"]`, "通ります")
		if err := chromedp.Do(ctx, setValue(s+`[name="controlPlaneEndpoint"]`, "https://10.0.0.100:6443")); err != nil {
			t.Fatal(err)
		}
		waitText(t, ctx, s+`[data-out="error"]`, "スキーム")
		// A pasted PEM loads the x509 module; an unreadable one is an error
		// shown in the widget, not thrown.
		if err := chromedp.Do(ctx, setValue(s+`[name="controlPlaneEndpoint"]`, ""), setValue(s+`[name="pem"]`, "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----")); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`globalThis.kakehashi.calcX509Ready || null`)); err != nil {
			t.Fatalf("the x509 module did not load: %v", err)
		}
		waitText(t, ctx, s+`[data-out="error"]`, "証明書を読み取れません")
	})

	t.Run("ha-sim", func(t *testing.T) {
		const h = `[data-calc="ha-sim"] `
		cp1 := h + `[data-endpoint]:not([hidden]) [data-node="cp-1"]`
		kubectl := func(want string) {
			t.Helper()
			expr := `document.querySelector(` + quoteJS(h+`[data-out="kubectl"]`) + `).dataset.ok === ` + quoteJS(want) + ` || null`
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
				t.Fatalf("kubectl ok %s, want %s (%v)", attr(t, ctx, h+`[data-out="kubectl"]`, "data-ok"), want, err)
			}
		}
		kubectl("true")
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(cp1+` text.name`))); err != nil {
			t.Fatal(err)
		}
		kubectl("false")
		waitText(t, ctx, h+`[data-out="apiservers"]`, "cp-2, cp-3")
		waitText(t, ctx, h+`[data-out="failed"]`, "cp-1")
		if got := attr(t, ctx, cp1, "aria-pressed"); got != "true" {
			t.Errorf("cp-1 aria-pressed %s after the click", got)
		}
		// The same failure behind a load balancer: kubectl works.
		if err := chromedp.Do(ctx, setValue(h+`[name="endpoint"]`, "lb")); err != nil {
			t.Fatal(err)
		}
		kubectl("true")
		if got := attr(t, ctx, cp1, "aria-pressed"); got != "true" {
			t.Errorf("cp-1 is not shown failed in the load balancer drawing (%s)", got)
		}
		// Keyboard: Enter on cp-2 fails it too; etcd loses quorum.
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(h+`[data-endpoint="lb"] [data-node="cp-2"]`)), chromedp.KeyEvent("\r")); err != nil {
			t.Fatal(err)
		}
		if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.getAttribute("data-node") + " " + document.querySelector('[data-calc="ha-sim"] [data-out="failed"]').textContent`)); got != "cp-2 cp-1, cp-2" {
			t.Errorf("after Enter on cp-2: focus and failures %q", got)
		}
		kubectl("false")
		waitText(t, ctx, h+`[data-out="etcd"]`, "クォーラム喪失")
		// Space restores it.
		if err := chromedp.Do(ctx, chromedp.KeyEvent(" ")); err != nil {
			t.Fatal(err)
		}
		kubectl("true")
		clickUntil(t, ctx, h+`[data-reset]`, h+`[data-out="failed"]`, "なし")
	})

	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// TestCalcWidgetsOffline opens the harness from file://, where fetch is
// refused: the modules come from their script versions.
func TestCalcWidgetsOffline(t *testing.T) {
	dir := calcHarness(t)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	u := "file://" + filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(harnessPage), "index.html"))
	if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitVisible(chromedp.CSS(`[data-calc="quorum"]`))); err != nil {
		t.Fatal(err)
	}
	waitReady(t, b, 3)
	if err := chromedp.Do(ctx, setValue(`[data-calc="quorum"] [name="members"]`, "1"), setValue(`[data-calc="quorum"] [name="failed"]`, "0")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, `[data-calc="quorum"] [data-out="advice"]`, "1 メンバーから 2 メンバーに増やすと")
}

// TestCalcWidgetsWithoutJS checks that with JavaScript off each widget
// shows its build-time result.
func TestCalcWidgetsWithoutJS(t *testing.T) {
	base := serve(t, calcHarness(t))
	b := browsertest.New(t, browsertest.Options{DisableJS: true})
	ctx := b.Ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+harnessPage+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-calc="ha-sim"]`))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sel, want string }{
		{`[data-calc="quorum"] [data-out="status"]`, "書き込めます: 3 メンバー中 2 が生存"},
		{`[data-calc="quorum"] [data-out="tolerance"]`, "1"},
		{`[data-calc="san"] [data-out="status"]`, "10.0.0.120 への接続は TLS 検証で失敗します"},
		{`[data-calc="san"] [data-out="ips"]`, "10.96.0.1, 10.0.0.111"},
		{`[data-calc="san"] .calc-notes`, "--upload-certs"},
		{`[data-calc="ha-sim"] [data-out="kubectl"]`, "動作"},
		{`[data-calc="ha-sim"] [data-endpoint="node"]`, "cp-1"},
	} {
		got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(c.sel)))
		if err != nil || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q (%v), want %q", c.sel, got, err, c.want)
		}
	}
	ready, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-ready]").length`))
	if err != nil || ready != 0 {
		t.Errorf("%d widgets marked ready without JavaScript (%v)", ready, err)
	}
}

// TestCalcInCourse checks the widgets of the built course once the build
// ships the modules.
func TestCalcInCourse(t *testing.T) {
	dir := builtCourse(t)
	if _, err := os.Stat(filepath.Join(dir, "calc", "calc.wasm")); err != nil {
		t.Skip("the build does not write calc/calc.wasm yet")
	}
	base := serve(t, dir)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	for _, c := range []struct {
		page    string
		widgets int
	}{{"/ja/cka/05-ha-cluster/", 3}, {"/ko/cka/02-control-plane/", 2}} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+c.page), chromedp.WaitVisible(chromedp.CSS(`main h1`))); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { for (const el of document.querySelectorAll("[data-calc]")) el.scrollIntoView(); return true; })()`)); err != nil {
			t.Fatal(err)
		}
		waitReady(t, b, c.widgets)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}
