package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/spf13/afero"
	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

var (
	langPagesOnce sync.Once
	langPagesErr  error
)

// calcLangPages adds to the calculator harness the same widgets rendered
// in Japanese and in Korean at <lang>/cka/widgets/, each page linking the
// widgets' stylesheet as a built page does, and returns the harness
// folder.
func calcLangPages(t *testing.T) string {
	t.Helper()
	dir := calcHarness(t)
	langPagesOnce.Do(func() {
		for _, lang := range []string{"ja", "ko"} {
			if langPagesErr = writeLangPage(dir, lang); langPagesErr != nil {
				return
			}
		}
	})
	if langPagesErr != nil {
		t.Fatalf("calculator page in Korean: %v", langPagesErr)
	}
	return dir
}

func writeLangPage(dir, lang string) error {
	root, _ := filepath.Abs("../..")
	bundle, ds := i18n.Load(context.Background(), afero.NewOsFs(), filepath.Join(root, "i18n"))
	if ds.Err() != nil {
		return ds.Err()
	}
	md := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	res := md.Render(context.Background(), markdown.Doc{Path: "calc.md", Src: []byte(harnessMarkdown)}, markdown.Env{
		Lang: lang, T: func(k string) string { return bundle.T(lang, k) },
	})
	if err := res.Diags.Err(); err != nil {
		return err
	}
	page := `<!doctype html>
<html lang="` + lang + `">
<head>
<meta charset="utf-8">
<title>calc</title>
<link rel="stylesheet" href="../../../css/main.css">
<link rel="stylesheet" href="../../../css/calc.css">
<script src="../../../js/calc.js" defer></script>
</head>
<body>
<main id="main">
` + string(res.HTML) + `</main>
</body>
</html>
`
	p := filepath.Join(dir, lang, "cka", "widgets", "index.html")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(page), 0o644)
}

// apiFieldNames are the calculators' field names in the JS API, which a
// reader of a Japanese or Korean page must never see in a message.
var apiFieldNames = []string{"members", "failed", "nodeName", "advertiseAddress", "dial", "integer", "string"}

// visibleText is the text of the first element matching sel, "" when it is
// hidden.
func visibleText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const el = document.querySelector(`+quoteJS(sel)+`); return el && el.checkVisibility() ? el.textContent : ""; })()`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCalcMessagesInBrowser clears and mistypes the widgets' fields on a
// Japanese and a Korean page: a cleared field is a prompt naming its
// visible label (no error shown), a wrong value an error that starts with
// the label and says what to enter, and no field name of the JS API shows.
// The SAN widget's etcd mode shows which certificates kubeadm makes.
func TestCalcMessagesInBrowser(t *testing.T) {
	base := serve(t, calcLangPages(t))
	for _, c := range []struct {
		lang                       string
		members, failed, nodeName  string // the visible labels
		empty, integer, tooMany    string
		noCert                     string
		leftOut                    string // a certificate external etcd leaves out
		failedInvalid, membersZero string
	}{
		{lang: "ja", members: "メンバー数 (N)", failed: "停止したメンバー数 (F)", nodeName: "ノード名 (nodeRegistration.name)",
			empty: "まだ入力されていません", integer: "整数を入力してください",
			tooMany: "メンバー数 3 以下の値を入力してください (7 はメンバー数を超えています)",
			noCert:  "外部 etcd では kubeadm はこの証明書を作りません。", leftOut: "etcd/server.crt",
			membersZero: "1 以上の値を入力してください (0 は指定できません)"},
		{lang: "ko", members: "멤버 수 (N)", failed: "장애 멤버 수 (F)", nodeName: "노드 이름 (nodeRegistration.name)",
			empty: "아직 입력되지 않았습니다", integer: "정수를 입력하세요",
			tooMany: "멤버 수 3 이하의 값을 입력하세요(7은 멤버 수보다 많습니다)",
			noCert:  "외부 etcd에서는 kubeadm이 이 인증서를 만들지 않습니다.", leftOut: "etcd/server.crt",
			membersZero: "1 이상의 값을 입력하세요(0은 지정할 수 없습니다)"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			b := browsertest.New(t, browsertest.Options{})
			ctx := b.Ctx
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+c.lang+"/cka/widgets/"), chromedp.WaitVisible(chromedp.CSS(`[data-calc="quorum"]`))); err != nil {
				t.Fatal(err)
			}
			waitReady(t, b, 3)
			const q = `[data-calc="quorum"] `
			status, errSel := q+`[data-out="status"]`, q+`[data-out="error"]`
			noFieldNames := func(sel string) {
				t.Helper()
				got := visibleText(t, ctx, sel)
				for _, name := range apiFieldNames {
					if strings.Contains(got, name) {
						t.Errorf("%s shows the API's field name %q: %q", sel, name, got)
					}
				}
			}

			// Cleared: a prompt in the status, no error.
			if err := chromedp.Do(ctx, setValue(q+`[name="members"]`, "")); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, status, c.members+": "+c.empty)
			if got := visibleText(t, ctx, errSel); got != "" {
				t.Errorf("a cleared field shows the error %q", got)
			}
			if got := attr(t, ctx, q+`[name="members"]`, "aria-invalid"); got != "(none)" {
				t.Errorf("a cleared field is marked aria-invalid=%s", got)
			}
			noFieldNames(status)

			// Out of range: an error naming the label, the field marked.
			if err := chromedp.Do(ctx, setValue(q+`[name="members"]`, "3"), setValue(q+`[name="failed"]`, "7")); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, errSel, c.failed+": "+c.tooMany)
			if got := attr(t, ctx, q+`[name="failed"]`, "aria-invalid"); got != "true" {
				t.Errorf("the field at fault is not marked aria-invalid (%s)", got)
			}
			noFieldNames(errSel)
			if err := chromedp.Do(ctx, setValue(q+`[name="failed"]`, "1"), setValue(q+`[name="members"]`, "0")); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, errSel, c.members+": "+c.membersZero)
			noFieldNames(errSel)

			// Text the browser cannot read as a number, typed: not an
			// integer.
			if err := chromedp.Do(ctx, setValue(q+`[name="members"]`, ""),
				chromedp.SendKeys(chromedp.CSS(q+`[name="members"]`), "3e")); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, errSel, c.members+": "+c.integer)
			noFieldNames(errSel)
			if err := chromedp.Do(ctx, setValue(q+`[name="members"]`, "3")); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector(`+quoteJS(errSel)+`).hidden || null`)); err != nil {
				t.Errorf("the error stays once the value is right: %q", visibleText(t, ctx, errSel))
			}
			if got := attr(t, ctx, q+`[name="members"]`, "aria-invalid"); got != "(none)" {
				t.Errorf("a right value stays aria-invalid=%s", got)
			}

			// The SAN widget: a cleared node name is a prompt with its label.
			const s = `[data-calc="san"] `
			if err := chromedp.Do(ctx, setValue(s+`[name="node-name"]`, "")); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, s+`[data-out="status"]`, c.nodeName+": "+c.empty)
			noFieldNames(s + `[data-out="status"]`)
			if err := chromedp.Do(ctx, setValue(s+`[name="node-name"]`, "cp-1")); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, s+`[data-out="certs"]`, c.leftOut)

			// External etcd: kubeadm makes no etcd certificate.
			if err := chromedp.Do(ctx, setValue(s+`[name="etcd"]`, "external"), setValue(s+`[name="kind"]`, "etcd-server")); err != nil {
				t.Fatal(err)
			}
			waitText(t, ctx, s+`[data-out="status"]`, c.noCert)
			if got := visibleText(t, ctx, s+`[data-out="certs"]`); strings.Contains(got, c.leftOut) || !strings.Contains(got, "front-proxy-client.crt") {
				t.Errorf("certificates with external etcd: %q", got)
			}
			if got := attr(t, ctx, s+`[data-out="status"]`, "data-ok"); got != "(none)" {
				t.Errorf("no certificate, yet data-ok=%s", got)
			}
			if c := b.Console(); len(c) > 0 {
				t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
			}
		})
	}
}
