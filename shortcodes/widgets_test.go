package shortcodes

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// widgetEnv is a page environment with the site's real UI strings.
func widgetEnv(t *testing.T, lang string) markdown.Env {
	t.Helper()
	b, ds := i18n.Load(context.Background(), afero.NewOsFs(), "../i18n")
	if ds.Err() != nil {
		t.Fatalf("loading i18n: %v", ds)
	}
	return markdown.Env{
		Lang: lang,
		T: func(k string) string {
			if !b.Has(lang, k) {
				t.Errorf("UI string %q is missing for %s", k, lang)
			}
			return b.T(lang, k)
		},
	}
}

func renderWidget(t *testing.T, lang, src string) markdown.Result {
	t.Helper()
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
	return r.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src)}, widgetEnv(t, lang))
}

var widgetCases = []struct {
	name, src string
	// want are fragments of the HTML in each language (after unescaping
	// entities); the build-time result of the starting values.
	want map[string][]string
}{
	{
		"quorum", "{{< quorum members=3 failed=1 >}}\n",
		map[string][]string{
			"ja": {`data-calc="quorum"`, `<label for="calc-quorum-1-members">メンバー数 (N)`, `data-out="quorum">2<`,
				`data-out="tolerance">1<`, `data-out="alive">2<`, `書き込めます: 3 メンバー中 2 が生存`, `data-code="quorum.at-limit"`,
				`"members":3`, `"failed":1`},
			"ko": {`data-calc="quorum"`, `<label for="calc-quorum-1-failed">장애 멤버 수 (F)`, `쓰기 가능: 멤버 3개 중 2개가 생존해 있어 쿼럼(2개)을 충족합니다.`},
		},
	},
	{
		"quorum-lost", "{{< quorum 4 2 >}}\n",
		map[string][]string{
			"ja": {`書き込めません`, `data-code="quorum.lost"`, `data-code="quorum.even"`, `data-ok="false">✗ 不可`},
			"ko": {`쓰기 불가: 멤버 4개 중 생존 2개로, 쿼럼(3개)에 못 미칩니다.`, `data-code="quorum.lost"`},
		},
	},
	{
		"san", "{{< san nodeName=\"cp-1\" advertiseAddress=\"10.0.0.111\" dial=\"10.0.0.120\" >}}\n",
		map[string][]string{
			"ja": {`data-calc="san"`, `<label for="calc-san-1-dial">接続先`, `value="10.0.0.120"`, `<code>10.96.0.1</code>, <code>10.0.0.111</code>`,
				`<code>kubernetes.default.svc.cluster.local</code>`, `✗ 10.0.0.120 への接続は TLS 検証で失敗します。`,
				`data-code="sans.per-node-cert"`, `"advertiseAddress":"10.0.0.111"`, `"dial":"10.0.0.120"`},
			"ko": {`✗ 10.0.0.120 접속은 TLS 검증에 실패합니다.`, `x509: certificate is valid for 10.96.0.1, 10.0.0.111, not 10.0.0.120 — TLS 검증은 실패합니다.`},
		},
	},
	{
		"san-ok", "{{< san advertiseAddress=\"10.0.0.120\" controlPlaneEndpoint=\"k8s.example.internal:6443\" certSANs=\"10.0.0.100, *.lab.internal\" dial=\"https://k8s.example.internal:6443\" >}}\n",
		map[string][]string{
			"ja": {`✓ https://k8s.example.internal:6443 への接続は TLS 検証を通ります。`, `<code>*.lab.internal</code>`, `value="10.0.0.100, *.lab.internal"`},
			"ko": {`✓ https://k8s.example.internal:6443 접속은 TLS 검증을 통과합니다.`},
		},
	},
	{
		"san-external", "{{< san kind=\"etcd-server\" etcd=\"external\" >}}\n",
		map[string][]string{
			"ja": {`<option value="external" selected>外部 etcd (etcd.external)</option>`, `data-out="status">外部 etcd では kubeadm はこの証明書を作りません。<`,
				`data-out="dns">なし<`, `data-out="verify">—<`, `data-code="sans.etcd-external"`, `<code>front-proxy-client.crt</code></dd>`, `"etcd":"external"`},
			"ko": {`data-out="status">외부 etcd에서는 kubeadm이 이 인증서를 만들지 않습니다.<`, `data-out="ips">없음<`},
		},
	},
	{
		"ha-node", "{{< ha-sim controlPlanes=3 endpoint=\"node\" addrs=\"cp-1=10.0.0.120,cp-2=10.0.0.121,cp-3=10.0.0.122\" failed=\"cp-1\" >}}\n",
		map[string][]string{
			"ja": {`data-calc="ha-sim"`, `<label for="calc-ha-sim-1-endpoint">controlPlaneEndpoint`, `data-node="cp-1" tabindex="0" role="button" aria-pressed="true"`,
				`<option value="node" selected>cp-1 自身のアドレス (10.0.0.120:6443)</option>`, `data-out="kubectl" data-ok="false">✗ 失敗`,
				`data-out="apiservers">cp-2, cp-3<`, `data-code="ha.direct-dial"`, `data-endpoint="lb" aria-describedby="calc-ha-sim-1-hint" hidden`,
				`"endpoint":{"kind":"node","address":"10.0.0.120:6443"}`, `"failed":["cp-1"]`},
			"ko": {`✗ kubectl과 워커 kubelet이 API에 접근할 수 없습니다.`, `data-out="etcd" data-ok="true">✓ 쓰기 가능 (멤버 3개 중 2개 생존, 쿼럼 2개)`},
		},
	},
	{
		"ha-external", "{{< ha-sim topology=\"external\" etcd=3 failed=\"etcd-1,etcd-2\" >}}\n",
		map[string][]string{
			"ja": {`HA 障害シミュレーター (external etcd)`, `data-node="etcd-2"`, `data-out="etcd" data-ok="false">✗ クォーラム喪失`,
				`data-out="kubectl" data-ok="false">`, `"etcdMembers":[{"name":"etcd-1","ip":"10.0.0.21"}`},
			"ko": {`HA 장애 시뮬레이터 (external etcd)`},
		},
	},
}

func TestWidgetsGolden(t *testing.T) {
	for _, tc := range widgetCases {
		for _, lang := range []string{"ja", "ko"} {
			t.Run(tc.name+"."+lang, func(t *testing.T) {
				res := renderWidget(t, lang, tc.src)
				if len(res.Diags) > 0 {
					t.Fatalf("diagnostics:\n%v", res.Diags)
				}
				got := html.UnescapeString(string(res.HTML))
				for _, w := range tc.want[lang] {
					if !strings.Contains(got, w) {
						t.Errorf("missing %s", w)
					}
				}
				checkWidget(t, string(res.HTML))
				golden(t, "widget-"+tc.name+"."+lang+".html", res.HTML)
			})
		}
	}
}

var (
	inputRe = regexp.MustCompile(`<(?:input|select|textarea) [^>]*id="([^"]+)"`)
	idAttr  = regexp.MustCompile(` id="([^"]+)"`)
)

// checkWidget checks what every widget promises: a labelled control for
// each input, a live output, unique ids, and no module URLs: calc.js finds
// the modules beside itself.
func checkWidget(t *testing.T, h string) {
	t.Helper()
	for _, m := range inputRe.FindAllStringSubmatch(h, -1) {
		if !strings.Contains(h, `<label for="`+m[1]+`"`) {
			t.Errorf("control %s has no label", m[1])
		}
	}
	if !strings.Contains(h, `<output class="calc-status"`) || !strings.Contains(h, `aria-live="polite"`) {
		t.Error("no live output")
	}
	seen := map[string]bool{}
	for _, m := range idAttr.FindAllStringSubmatch(h, -1) {
		if seen[m[1]] {
			t.Errorf("id %q is used twice", m[1])
		}
		seen[m[1]] = true
	}
	if strings.Contains(h, "data-wasm=") {
		t.Error("module URLs in a widget")
	}
}

// TestStaticWidgets makes each widget a still picture, as the single-file
// course shows it: its build-time answers stay, with the note that they
// are for the starting values; nothing promises interaction.
func TestStaticWidgets(t *testing.T) {
	statusRe := regexp.MustCompile(`data-out="status"[^>]*>([^<]*)<`)
	for _, tc := range widgetCases {
		for _, lang := range []string{"ja", "ko"} {
			t.Run(tc.name+"."+lang, func(t *testing.T) {
				env := widgetEnv(t, lang)
				live := string(renderWidget(t, lang, tc.src).HTML)
				still := StaticWidgets(live, env.T("calc_static"))
				for _, bad := range []string{"<form", "<input", "<select", "<textarea", "<button", "tabindex", `role="button"`,
					"aria-pressed", "<noscript", "data-loading", "JavaScript", env.T("calc_loading"), env.T("calc_hint"),
					"data-text=", "data-input=", "-hint\"", `role="group"`} {
					if strings.Contains(still, bad) {
						t.Errorf("the still widget holds %q", bad)
					}
				}
				if want := `<p class="calc-static">` + html.EscapeString(env.T("calc_static")) + `</p>`; !strings.Contains(still, want) {
					t.Errorf("no note %s", want)
				}
				if a, b := statusRe.FindStringSubmatch(live), statusRe.FindStringSubmatch(still); a == nil || b == nil || a[1] != b[1] {
					t.Errorf("the answer changed: %q, then %q", a, b)
				}
				for _, keep := range []string{`data-out="notes"`, `<dl class="calc-facts`, `data-calc="`} {
					if strings.Contains(live, keep) && !strings.Contains(still, keep) {
						t.Errorf("lost %s", keep)
					}
				}
				checkWidget(t, still)
			})
		}
	}
	if got := StaticWidgets("<p>no widget</p>", "x"); got != "<p>no widget</p>" {
		t.Errorf("content without widgets changed: %q", got)
	}
}

// TestWidgetIDs checks that two widgets of a page have ids of their own.
func TestWidgetIDs(t *testing.T) {
	res := renderWidget(t, "ja", "{{< quorum >}}\n\n{{< quorum 5 >}}\n")
	h := string(res.HTML)
	for _, w := range []string{
		`id="calc-quorum-1"`, `id="calc-quorum-2"`, `id="calc-quorum-2-members"`,
	} {
		if !strings.Contains(h, w) {
			t.Errorf("missing %s", w)
		}
	}
}

func TestWidgetErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{{< quorum members=0 >}}\n", "p.md:1:1: quorum: members: enter 1 or more, not 0"},
		{"{{< quorum members=3 failed=4 >}}\n", "p.md:1:1: quorum: failed: enter at most the number of members, 3, not 4"},
		{"{{< quorum members=\"3\" >}}\n", `p.md:1:12: argument "members" of "quorum" must be an integer, got string "3"`},
		{"{{< san advertiseAddress=\"10.0.0.300\" >}}\n", "p.md:1:1: san: advertiseAddress: 10.0.0.300 is not a valid IP address"},
		{"{{< san controlPlaneEndpoint=\"https://lb:6443\" >}}\n", "p.md:1:1: san: controlPlaneEndpoint: https://lb:6443 has a scheme"},
		{"{{< san dial=\"10.0.0.1:99999\" >}}\n", "p.md:1:1: san: dial: 10.0.0.1:99999 has an invalid port"},
		{"{{< san kind=\"etcd\" >}}\n", `argument "kind" of "san" must be one of apiserver, etcd-server, etcd-peer, got "etcd"`},
		{"{{< ha-sim failed=\"cp-9\" >}}\n", "p.md:1:1: ha-sim: failed[0]: cp-9: no node of that name"},
		{"{{< ha-sim controlPlanes=0 >}}\n", "p.md:1:1: ha-sim: controlPlanes must be between 1 and 9, got 0"},
		{"{{< ha-sim endpoint=\"node\" endpointAddr=\"10.0.0.12:6443\" >}}\n", `ha-sim: endpointAddr "10.0.0.12:6443" must be cp-1's address (10.0.0.11)`},
		{"{{< ha-sim addrs=\"cp-7=10.0.0.7\" >}}\n", `ha-sim: addrs: no node "cp-7"`},
		{"{{< ha-sim failed=\"lb\" endpoint=\"node\" >}}\n", "ha-sim: failed[0]: lb: the endpoint is not a load balancer"},
		{"Text {{< quorum >}} inline.\n", `shortcode "quorum" must stand alone on its line`},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			res := renderWidget(t, "ja", tc.src)
			hs := strings.Join(headers(res), "\n")
			if !strings.Contains(hs, tc.want) {
				t.Errorf("diagnostics\n%s\ndo not contain %q", hs, tc.want)
			}
		})
	}
}

// TestWidgetErrorLabel checks that a widget shows an input error with the
// field's visible label, in the page's language, and never the field's
// name in the JS API; the author's diagnostic names the argument.
func TestWidgetErrorLabel(t *testing.T) {
	for _, c := range []struct{ lang, src, want string }{
		{"ja", "{{< quorum members=3 failed=4 >}}\n", "停止したメンバー数 (F): メンバー数 3 以下の値を入力してください (4 はメンバー数を超えています)"},
		{"ko", "{{< quorum members=3 failed=4 >}}\n", "장애 멤버 수 (F): 멤버 수 3 이하의 값을 입력하세요(4는 멤버 수보다 많습니다)"},
		{"ja", "{{< quorum members=0 >}}\n", "メンバー数 (N): 1 以上の値を入力してください (0 は指定できません)"},
		{"ko", "{{< san advertiseAddress=\"10.0.0.300\" >}}\n", "advertise 주소 (localAPIEndpoint.advertiseAddress): 10.0.0.300은 유효한 IP 주소가 아닙니다"},
	} {
		t.Run(c.lang+" "+c.src, func(t *testing.T) {
			res := renderWidget(t, c.lang, c.src)
			m := regexp.MustCompile(`<p class="calc-error" id="[^"]*" data-out="error" role="alert">([^<]*)</p>`).FindStringSubmatch(string(res.HTML))
			if m == nil {
				t.Fatalf("no error shown:\n%s", res.HTML)
			}
			if got := html.UnescapeString(m[1]); got != c.want {
				t.Errorf("error %q, want %q", got, c.want)
			}
			if len(res.Diags) == 0 {
				t.Error("the author is not told")
			}
		})
	}
}

// TestWidgetEscapes checks that argument values cannot break out of
// attributes or text.
func TestWidgetEscapes(t *testing.T) {
	res := renderWidget(t, "ja", "{{< san nodeName=\"a\\\"><script>x</script>\" >}}\n")
	if strings.Contains(string(res.HTML), "<script>") {
		t.Fatalf("unescaped value in\n%s", res.HTML)
	}
	if len(res.Diags) == 0 {
		t.Error("an invalid node name was not reported")
	}
}
