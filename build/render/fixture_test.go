package render

import (
	"context"
	"html/template"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/spf13/afero"
)

// repoRoot is the module root, found from this file's place.
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// repoFs is the repository, read-only, rooted at the module root.
func repoFs(t testing.TB) afero.Fs {
	t.Helper()
	return afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), repoRoot(t)))
}

// loadDefault loads the real UI strings and the default theme.
func loadDefault(t testing.TB) *Theme {
	t.Helper()
	fsys := repoFs(t)
	b, diags := i18n.Load(context.Background(), fsys, "i18n")
	if len(diags) > 0 {
		t.Fatalf("i18n.Load: %v", diags)
	}
	th, diags := Load(context.Background(), fsys, "themes/default", b)
	if len(diags) > 0 {
		t.Fatalf("Load: %v", diags)
	}
	return th
}

func testSite() *Site {
	return &Site{
		Title:     map[string]string{"ja": "かけはし CKA 講座", "ko": "카케하시 CKA 강좌"},
		BaseURL:   "https://example.org/course/",
		Langs:     []string{"ja", "ko"},
		Generator: "kakehashi test",
	}
}

var partTitles = map[string][]string{
	"ja": {"", "", "コントロールプレーンの構成要素", "", "kubeadm クラスターのインストール", "HA クラスター", "アップグレード"},
	"ko": {"", "", "컨트롤 플레인 구성 요소", "", "kubeadm 클러스터 설치", "HA 클러스터", "업그레이드"},
}

// testSeries is the CKA series as lang sees it, with part cur current.
// Parts 2 and 5 are published; 4 and 6 are planned.
func testSeries(lang string, cur int) *Series {
	s := &Series{ID: "cka", Title: map[string]string{"ja": "CKA 講座", "ko": "CKA 강좌"}[lang], URL: "/" + lang + "/cka/",
		Description: map[string]string{"ja": "管理者の講座", "ko": "관리자 강좌"}[lang], Published: 2, Total: 4}
	for _, n := range []int{2, 4, 5, 6} {
		p := PartRef{Number: n, Title: partTitles[lang][n], Current: n == cur}
		switch n {
		case 2:
			p.URL, p.Published = "/"+lang+"/cka/02-control-plane/", true
		case 5:
			p.URL, p.Published = "/"+lang+"/cka/05-ha-cluster/", true
		}
		s.Parts = append(s.Parts, p)
	}
	return s
}

// testContent is realistic rendered markdown: a heading with its anchor, a
// #N link, a planned #N mark, a table and a code figure.
const testContentJA = `<p><a class="part-ref" href="../04-kubeadm/" title="kubeadm クラスターのインストール">#4</a> で単一 control plane クラスターを作りました。<span class="part-ref planned" title="アップグレード">#6<span class="planned-mark">準備中</span></span> で続きを扱います。</p>
<h2 id="spof">単一 control plane の単一障害点 <a class="anchor" href="#spof">#</a></h2>
<p>control plane ノードが 1 台しかないため、そのノードが死ぬと <code>kube-apiserver</code> も etcd も一緒に消えてしまいます。</p>
<aside class="callout note"><p class="callout-title">メモ</p><p>etcd のクォーラムは ⌊N/2⌋+1 です。</p></aside>
<h2 id="topology">stacked etcd と external etcd <a class="anchor" href="#topology">#</a></h2>
<h3 id="quorum">クォーラム <a class="anchor" href="#quorum">#</a></h3>
<div class="table-wrap"><table>
<thead><tr><th>メンバー数</th><th>クォーラム</th><th>許容できる障害</th></tr></thead>
<tbody><tr><td>1</td><td>1</td><td>0</td></tr><tr><td>3</td><td>2</td><td>1</td></tr><tr><td>5</td><td>3</td><td>2</td></tr></tbody>
</table></div>
<figure class="code" data-lang="bash" data-copy="sudo kubeadm init --control-plane-endpoint &#34;lb.example.internal:6443&#34; --upload-certs">
<figcaption class="code-head"><span class="code-title">最初の control plane</span><span class="code-lang">bash</span><button type="button" class="code-copy" data-label-copied="コピーしました">コピー</button></figcaption>
<pre class="chroma" tabindex="0"><code><span class="line"><span class="gp">$ </span><span class="nb">sudo</span> kubeadm init <span class="se">\</span></span>
<span class="line hl">    --control-plane-endpoint <span class="s2">&#34;lb.example.internal:6443&#34;</span> <span class="se">\</span></span>
<span class="line">    --upload-certs</span></code></pre>
</figure>
<p>これで終わりです。</p>`

const testContentKO = `<p><a class="part-ref" href="../04-kubeadm/" title="kubeadm 클러스터 설치">#4</a>에서 단일 control plane 클러스터를 만들었습니다.</p>
<h2 id="spof">단일 control plane의 단일 장애 지점 <a class="anchor" href="#spof">#</a></h2>
<p>control plane 노드가 1대뿐이므로 그 노드가 죽으면 apiserver도 etcd도 함께 사라집니다.</p>
<h2 id="topology">stacked etcd와 external etcd <a class="anchor" href="#topology">#</a></h2>
<h3 id="quorum">쿼럼 <a class="anchor" href="#quorum">#</a></h3>
<figure class="code" data-lang="bash">
<figcaption class="code-head"><span class="code-lang">bash</span><button type="button" class="code-copy" data-label-copied="복사됨">복사</button></figcaption>
<pre class="chroma" tabindex="0"><code>etcdctl member list</code></pre>
</figure>`

func testTOC(lang string) []TOCEntry {
	if lang == "ko" {
		return []TOCEntry{
			{Level: 2, ID: "spof", Text: "단일 control plane의 단일 장애 지점"},
			{Level: 2, ID: "topology", Text: "stacked etcd와 external etcd", Children: []TOCEntry{{Level: 3, ID: "quorum", Text: "쿼럼"}}},
		}
	}
	return []TOCEntry{
		{Level: 2, ID: "spof", Text: "単一 control plane の単一障害点"},
		{Level: 2, ID: "topology", Text: "stacked etcd と external etcd", Children: []TOCEntry{{Level: 3, ID: "quorum", Text: "クォーラム"}}},
	}
}

func translations(path string, exists map[string]bool) []Translation {
	var ts []Translation
	for _, l := range []string{"ja", "ko"} {
		t := Translation{Lang: l, URL: "/" + l + path, Exists: exists[l]}
		if !t.Exists {
			t.URL = "/" + l + "/"
		}
		ts = append(ts, t)
	}
	return ts
}

// articlePage is part #5 in lang, translated into both languages.
func articlePage(site *Site, lang string) *Page {
	title := map[string]string{"ja": "HA クラスター: 複数 control plane、外部 etcd cluster", "ko": "HA 클러스터: 여러 control plane, 외부 etcd cluster"}[lang]
	desc := map[string]string{"ja": "単一障害点をなくす高可用性クラスターを \"stacked\" と <external> の 2 つのトポロジーで組み立てます。", "ko": "단일 장애 지점을 없애는 고가용성 클러스터를 두 가지 토폴로지로 구성합니다."}[lang]
	content := map[string]string{"ja": testContentJA, "ko": testContentKO}[lang]
	s := testSeries(lang, 5)
	return &Page{
		Site:           site,
		Kind:           KindArticle,
		Lang:           lang,
		Title:          title,
		Description:    desc,
		URL:            "/" + lang + "/cka/05-ha-cluster/",
		Date:           time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
		Tags:           []string{"Kubernetes", "etcd"},
		TagLinks:       []TagRef{{Name: "Kubernetes", URL: "/" + lang + "/tags/kubernetes/"}, {Name: "etcd", URL: "/" + lang + "/tags/etcd/"}},
		Content:        template.HTML(content),
		TOC:            testTOC(lang),
		ReadingMinutes: 11,
		Series:         s,
		Part:           5,
		Prev:           &s.Parts[1],
		Next:           &s.Parts[3],
		Translations:   translations("/cka/05-ha-cluster/", map[string]bool{"ja": true, "ko": true}),
	}
}

func homePage(site *Site, lang string) *Page {
	return &Page{
		Site:         site,
		Kind:         KindHome,
		Lang:         lang,
		Title:        site.Title[lang],
		URL:          "/" + lang + "/",
		Content:      template.HTML("<p>intro</p>"),
		AllSeries:    []*Series{testSeries(lang, 0), {ID: "ckad", Title: "CKAD", URL: "/" + lang + "/ckad/", Total: 3}},
		Translations: translations("/", map[string]bool{"ja": true, "ko": true}),
	}
}

func seriesPage(site *Site, lang string) *Page {
	s := testSeries(lang, 0)
	return &Page{
		Site:         site,
		Kind:         KindSeries,
		Lang:         lang,
		Title:        s.Title,
		URL:          s.URL,
		Series:       s,
		Translations: translations("/cka/", map[string]bool{"ja": true, "ko": true}),
	}
}

func rootPage(site *Site) *Page {
	return &Page{Site: site, Kind: KindRoot, URL: "/"}
}

func notFoundPage(site *Site) *Page {
	return &Page{Site: site, Kind: KindNotFound, Lang: "ja", Title: "404", URL: "/404.html"}
}

func tagPage(site *Site, lang string) *Page {
	return &Page{
		Site: site, Kind: KindTag, Lang: lang, Title: "Kubernetes", URL: "/" + lang + "/tags/kubernetes/",
		Tag: &TagRef{Name: "Kubernetes", URL: "/" + lang + "/tags/kubernetes/", Count: 1},
		Articles: []ArticleRef{{Title: "HA <cluster>", URL: "/" + lang + "/cka/05-ha-cluster/", Summary: "short",
			Date: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), Series: "CKA", Part: 5}},
		Translations: translations("/tags/kubernetes/", map[string]bool{lang: true}),
	}
}

func tagsPage(site *Site, lang string) *Page {
	return &Page{
		Site: site, Kind: KindTags, Lang: lang, Title: "タグ", URL: "/" + lang + "/tags/",
		AllTags:      []TagRef{{Name: "Kubernetes", URL: "/" + lang + "/tags/kubernetes/", Count: 2}, {Name: "インフラ", URL: "/" + lang + "/tags/インフラ/", Count: 1}},
		Translations: translations("/tags/", map[string]bool{"ja": true, "ko": true}),
	}
}
