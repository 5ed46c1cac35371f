// Package corpus generates benchmark sites from the bundled CKA course: N
// parts per language, each built from the course's own articles (their
// paragraphs, lists and tables rotated and numbered per part, their "#N"
// references pointed at other parts), each with its own code blocks (node
// names, addresses, versions and tokens varied by part number) that the
// Japanese and Korean versions of a part share byte for byte, as real
// translations do. The pages are plain markdown, so the same content can
// be written as a kakehashi site (Generate) and as an equivalent Hugo
// multilingual site (GenerateHugo) and built by both for a side-by-side
// benchmark. Output is deterministic: the same course and N give the same
// bytes.
package corpus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"
	"go.yaml.in/yaml/v3"
)

// Langs are the languages of a generated site, the default first.
var langs = [...]string{"ja", "ko"}

// SeriesID is the series every generated part belongs to.
const SeriesID = "cka"

// Planned is how many planned parts the series file lists after the
// published ones.
const Planned = 3

// File is one generated file: a slash-separated path under the site root
// and its contents.
type File struct {
	Path string
	Data []byte
}

// Course is the material parts are made from, read once from the
// repository with Load.
type Course struct {
	prose  map[string]*pool // by language
	code   []codeBlock      // shared by both languages
	titles []map[string]string
	series map[string]map[string]string // "title"/"description" → lang → text
	homes  map[string][]byte            // lang → _index.md
	assets []File                       // themes/ and i18n/
}

// pool is one language's prose, by kind of block.
type pool struct {
	h2, h3, paras, lists, tables, descriptions []string
	tags                                       [][]string
}

// frontMatter is what the corpus reads from a source article.
type frontMatter struct {
	Title       string   `yaml:"title"`
	Description string   `yaml:"description"`
	Tags        []string `yaml:"tags"`
}

// seriesFile is the part of a series file the corpus reads.
type seriesFile struct {
	Title       map[string]string `yaml:"title"`
	Description map[string]string `yaml:"description"`
	Parts       []struct {
		Title map[string]string `yaml:"title"`
	} `yaml:"parts"`
}

// Load reads the course from src, a repository laid out like kakehashi's:
// content/<lang>/cka/*.md, content/<lang>/_index.md, content/series/cka.yaml,
// themes/ and i18n/.
func Load(ctx context.Context, src afero.Fs) (*Course, error) {
	c := &Course{prose: map[string]*pool{}, homes: map[string][]byte{}, series: map[string]map[string]string{}}
	fences := map[string]map[string][]block{} // lang → article file → fences
	for _, lang := range langs {
		fences[lang] = map[string][]block{}
		p, err := loadProse(ctx, src, lang, fences[lang])
		if err != nil {
			return nil, err
		}
		c.prose[lang] = p
		home, err := afero.ReadFile(src, path.Join("content", lang, "_index.md"))
		if err == nil {
			c.homes[lang] = home
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	c.code = sharedCode(fences)
	c.code = append(c.code, templates...)
	if err := c.loadSeries(src); err != nil {
		return nil, err
	}
	for _, dir := range []string{"themes", "i18n"} {
		files, err := readTree(ctx, src, dir)
		if err != nil {
			return nil, err
		}
		c.assets = append(c.assets, files...)
	}
	return c, nil
}

// loadProse reads one language's articles into a pool of their blocks,
// and their fences, by file, into fences.
func loadProse(ctx context.Context, src afero.Fs, lang string, fences map[string][]block) (*pool, error) {
	p := &pool{}
	dir := path.Join("content", lang, SeriesID)
	names, err := mdFiles(src, dir)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("corpus: no articles in %s", dir)
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := afero.ReadFile(src, path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		fm, body := splitFrontMatter(data)
		var meta frontMatter
		if err := yaml.Unmarshal(fm, &meta); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", path.Join(dir, name), err)
		}
		if meta.Description != "" {
			p.descriptions = append(p.descriptions, meta.Description)
		}
		if len(meta.Tags) > 0 {
			p.tags = append(p.tags, meta.Tags)
		}
		for _, b := range splitBlocks(string(body)) {
			if b.kind == kindFence {
				fences[name] = append(fences[name], b)
				continue
			}
			p.add(b)
		}
	}
	if len(p.h2) == 0 || len(p.paras) == 0 {
		return nil, fmt.Errorf("corpus: the %s articles have no sections or no paragraphs", lang)
	}
	if len(p.h3) == 0 {
		p.h3 = p.h2
	}
	return p, nil
}

// add puts one block of prose into the pool of its kind.
func (p *pool) add(b block) {
	text, ok := plain(b.text)
	if !ok {
		return
	}
	if text != b.text {
		b = classify(text)
	}
	switch b.kind {
	case kindHeading:
		if b.level == 2 {
			p.h2 = append(p.h2, b.text)
		} else if b.level >= 3 {
			p.h3 = append(p.h3, b.text)
		}
	case kindPara, kindQuote:
		p.paras = append(p.paras, b.text)
	case kindList:
		p.lists = append(p.lists, b.text)
	case kindTable:
		p.tables = append(p.tables, b.text)
	}
}

// loadSeries reads the series file's titles and description.
func (c *Course) loadSeries(src afero.Fs) error {
	sf, err := afero.ReadFile(src, path.Join("content", "series", SeriesID+".yaml"))
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	var s seriesFile
	if err := yaml.Unmarshal(sf, &s); err != nil {
		return fmt.Errorf("corpus: content/series/%s.yaml: %w", SeriesID, err)
	}
	c.series["title"], c.series["description"] = s.Title, s.Description
	for _, p := range s.Parts {
		if p.Title["ja"] != "" && p.Title["ko"] != "" {
			c.titles = append(c.titles, p.Title)
		}
	}
	if len(c.titles) == 0 {
		return fmt.Errorf("corpus: content/series/%s.yaml lists no part titled in ja and ko", SeriesID)
	}
	return nil
}

// mdFiles lists the markdown files of dir, sorted, skipping _index.md.
func mdFiles(src afero.Fs, dir string) ([]string, error) {
	infos, err := afero.ReadDir(src, dir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var names []string
	for _, fi := range infos {
		if !fi.IsDir() && strings.HasSuffix(fi.Name(), ".md") && fi.Name() != "_index.md" {
			names = append(names, fi.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// sharedCode pairs the code blocks of each article's two translations and
// keeps, per pair, the lines both share (commands and output, without the
// comments each translation wrote in its own language).
func sharedCode(fences map[string]map[string][]block) []codeBlock {
	var names []string
	for name := range fences["ja"] {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []codeBlock
	for _, name := range names {
		ja, ko := fences["ja"][name], fences["ko"][name]
		for i, b := range ja {
			code := b.code
			if i < len(ko) && ko[i].code != code {
				// Keep a pair whose translations differ only in their
				// comments, without the comments.
				code = asciiLines(b.code)
				if asciiLines(ko[i].code) != code || !onlyComments(b.code) || !onlyComments(ko[i].code) {
					continue
				}
			}
			if strings.TrimSpace(code) == "" || !isASCII(code) || hasShortcode(code) {
				continue
			}
			lang := b.lang
			if lang == "" {
				lang = "text"
			}
			out = append(out, codeBlock{lang: lang, code: code})
		}
	}
	return out
}

// readTree reads every file under dir on src except Go sources, which are
// the loader's code rather than site data.
func readTree(ctx context.Context, src afero.Fs, dir string) ([]File, error) {
	var out []File
	err := afero.Walk(src, dir, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if info.IsDir() || strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := afero.ReadFile(src, p)
		if err != nil {
			return err
		}
		out = append(out, File{Path: strings.ReplaceAll(p, "\\", "/"), Data: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Content returns the content files of a site with partsPerLang parts per
// language: the series file, a home page per language and every part, in a
// fixed order.
func (c *Course) Content(partsPerLang int) []File {
	var out []File
	out = append(out, File{Path: "content/series/" + SeriesID + ".yaml", Data: c.SeriesFile(partsPerLang)})
	for _, lang := range langs {
		out = append(out, File{Path: "content/" + lang + "/_index.md", Data: c.home(lang)})
	}
	for n := 1; n <= partsPerLang; n++ {
		for _, lang := range langs {
			out = append(out, File{Path: c.PartPath(lang, n), Data: c.Part(lang, n, partsPerLang)})
		}
	}
	return out
}

// Generate writes a complete kakehashi site with partsPerLang parts per
// language under root on dst: content/, and copies of the course's themes/
// and i18n/.
func (c *Course) Generate(ctx context.Context, dst afero.Fs, root string, partsPerLang int) error {
	if partsPerLang < 1 {
		return fmt.Errorf("corpus: parts per language must be at least 1, got %d", partsPerLang)
	}
	files := append(c.Content(partsPerLang), c.assets...)
	return writeFiles(ctx, dst, root, files)
}

// GenerateFrom loads the course from src and writes a kakehashi site with
// partsPerLang parts per language under root on dst.
func GenerateFrom(ctx context.Context, src, dst afero.Fs, root string, partsPerLang int) error {
	c, err := Load(ctx, src)
	if err != nil {
		return err
	}
	return c.Generate(ctx, dst, root, partsPerLang)
}

func writeFiles(ctx context.Context, dst afero.Fs, root string, files []File) error {
	made := map[string]bool{}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := path.Join(root, f.Path)
		if dir := path.Dir(p); !made[dir] {
			if err := dst.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			made[dir] = true
		}
		if err := afero.WriteFile(dst, p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// slugs name the parts' files, cycling.
var slugs = []string{
	"control-plane", "ha-cluster", "etcd-quorum", "cluster-upgrade", "etcd-backup",
	"troubleshooting", "certificates", "load-balancer", "static-pods", "kubelet",
}

// PartPath is the path of part n in lang, relative to the site root.
func (c *Course) PartPath(lang string, n int) string {
	return fmt.Sprintf("content/%s/%s/%04d-%s.md", lang, SeriesID, n, slugs[n%len(slugs)])
}

// partTitle is part n's title in lang.
func (c *Course) partTitle(lang string, n int) string {
	t := c.titles[(n-1)%len(c.titles)][lang]
	if lang == "ja" {
		return fmt.Sprintf("%s (第%d回)", t, n)
	}
	return fmt.Sprintf("%s (%d편)", t, n)
}

// SeriesFile is the series file of a site with partsPerLang parts: every
// part published, then Planned planned parts.
func (c *Course) SeriesFile(partsPerLang int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "id: %s\n", SeriesID)
	for _, key := range []string{"title", "description"} {
		if m := c.series[key]; len(m) > 0 {
			fmt.Fprintf(&b, "%s:\n", key)
			for _, lang := range langs {
				fmt.Fprintf(&b, "  %s: %s\n", lang, strconv.Quote(m[lang]))
			}
		}
	}
	b.WriteString("parts:\n")
	for n := 1; n <= partsPerLang+Planned; n++ {
		state := "published"
		if n > partsPerLang {
			state = "planned"
		}
		fmt.Fprintf(&b, "  - number: %d\n    title: { ja: %s, ko: %s }\n    state: %s\n",
			n, strconv.Quote(c.partTitle("ja", n)), strconv.Quote(c.partTitle("ko", n)), state)
	}
	return []byte(b.String())
}

// home is the home page of lang: the course's own, or a minimal one.
func (c *Course) home(lang string) []byte {
	if h, ok := c.homes[lang]; ok {
		return h
	}
	return []byte(fmt.Sprintf("---\ntitle: %s\n---\n", strconv.Quote(c.series["title"][lang])))
}

// ui holds the sentences the generator writes itself, per language.
var ui = map[string]struct {
	refs, tableIntro, nodeH, roleH, ipH, cp, worker, etcd string
}{
	"ja": {
		refs:       "この内容は #%d と #%d でも続けて扱います。手元のクラスターで試すときは、ノード名とアドレスをこの回のラボ (%s) のものに読み替えてください。",
		tableIntro: "この回のラボ %s は次のノードで構成します。",
		nodeH:      "ノード", roleH: "役割", ipH: "アドレス",
		cp: "control plane", worker: "ワーカー", etcd: "etcd メンバー",
	},
	"ko": {
		refs:       "이 내용은 #%d과 #%d에서도 이어서 다룹니다. 직접 클러스터에서 따라 할 때는 노드 이름과 주소를 이번 편의 실습 환경 (%s)에 맞게 바꿔 읽으세요.",
		tableIntro: "이번 편의 실습 환경 %s는 다음 노드로 구성합니다.",
		nodeH:      "노드", roleH: "역할", ipH: "주소",
		cp: "control plane", worker: "워커", etcd: "etcd 멤버",
	},
}

// plan is the shape of part n, the same in both languages: which prose
// blocks (as raw indices, taken modulo each language's pool) and which code
// blocks go where.
type plan struct {
	n, total int
	intro    int
	sections []section
}

type section struct {
	h2    int
	paras []int
	list  int // -1: none
	table int // -1: none
	code  []codeBlock
	refs  [2]int // "#N" targets of the section's closing paragraph
	h3    int    // -1: no subsection
	sub   int    // paragraph of the subsection
	subC  []codeBlock
}

// plan draws part n's shape from a generator seeded by n alone.
func (c *Course) plan(n, partsPerLang int) plan {
	r := rand.New(rand.NewPCG(uint64(n), 0x6b616b6568617368))
	total := partsPerLang + Planned
	p := plan{n: n, total: total, intro: r.IntN(1 << 20)}
	// Code blocks are drawn without repeats until the pool runs out.
	order := r.Perm(len(c.code))
	step := 0
	nextCode := func() codeBlock {
		b := c.code[order[step%len(order)]]
		step++
		return mutate(b, n, step)
	}
	ref := func() int {
		m := r.IntN(total) + 1
		if m == n {
			m = m%total + 1
		}
		return m
	}
	for s := range 5 + n%3 {
		sec := section{h2: r.IntN(1 << 20), list: -1, table: -1, h3: -1}
		for range 1 + r.IntN(2) {
			sec.paras = append(sec.paras, r.IntN(1<<20))
		}
		switch s % 3 {
		case 0:
			sec.table = r.IntN(1 << 20)
		case 1:
			sec.list = r.IntN(1 << 20)
		}
		sec.code = append(sec.code, nextCode())
		if r.IntN(3) == 0 {
			sec.code = append(sec.code, nextCode())
		}
		sec.refs = [2]int{ref(), ref()}
		if s == 1 || r.IntN(2) == 0 {
			sec.h3, sec.sub = r.IntN(1<<20), r.IntN(1<<20)
			sec.subC = append(sec.subC, nextCode())
		}
		p.sections = append(p.sections, sec)
	}
	return p
}

// epoch is the date of part 0; part n is dated n days later, in the past
// for a few thousand parts (Hugo skips pages dated in the future unless
// told otherwise, and GenerateHugo tells it).
var epoch = time.Date(2016, 1, 4, 0, 0, 0, 0, time.UTC)

// Part is the markdown of part n in lang, in a site of partsPerLang parts
// per language.
func (c *Course) Part(lang string, n, partsPerLang int) []byte {
	pl := c.plan(n, partsPerLang)
	po := c.prose[lang]
	u := ui[lang]
	pick := func(xs []string, i int) string { return xs[i%len(xs)] }
	para := func(i, k int) string {
		return renumberRefs(rotateSentences(pick(po.paras, i), lang, n+k), n, pl.total)
	}
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "title: %s\n", strconv.Quote(c.partTitle(lang, n)))
	if len(po.descriptions) > 0 {
		fmt.Fprintf(&b, "description: %s\n", strconv.Quote(pick(po.descriptions, n)))
	}
	fmt.Fprintf(&b, "series: %s\npart: %d\ndate: %s\n", SeriesID, n, epoch.AddDate(0, 0, n).Format("2006-01-02"))
	if len(po.tags) > 0 {
		tags := po.tags[n%len(po.tags)]
		q := make([]string, len(tags))
		for i, t := range tags {
			q[i] = strconv.Quote(t)
		}
		fmt.Fprintf(&b, "tags: [%s]\n", strings.Join(q, ", "))
	}
	b.WriteString("---\n\n")
	b.WriteString(para(pl.intro, 0))
	b.WriteString("\n\n")
	fmt.Fprintf(&b, u.tableIntro+"\n\n", lab(n))
	fmt.Fprintf(&b, "| %s | %s | %s |\n| --- | --- | --- |\n", u.nodeH, u.roleH, u.ipH)
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", nodeName(n, "cp", i), u.cp, hostIP(n, 10+i))
	}
	for i := 1; i <= 2+n%3; i++ {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", nodeName(n, "worker", i), u.worker, hostIP(n, 20+i))
	}
	for si, s := range pl.sections {
		fmt.Fprintf(&b, "\n## %d.%d %s\n", n, si+1, pick(po.h2, s.h2))
		for k, pi := range s.paras {
			fmt.Fprintf(&b, "\n%s\n", para(pi, si+k))
		}
		if s.table >= 0 && len(po.tables) > 0 {
			fmt.Fprintf(&b, "\n%s\n", rotateTable(pick(po.tables, s.table), n+si))
		}
		if s.list >= 0 && len(po.lists) > 0 {
			fmt.Fprintf(&b, "\n%s\n", renumberRefs(rotateList(pick(po.lists, s.list), n+si), n, pl.total))
		}
		for _, cb := range s.code {
			writeFence(&b, cb)
		}
		fmt.Fprintf(&b, "\n"+u.refs+"\n", s.refs[0], s.refs[1], lab(n))
		if s.h3 >= 0 {
			fmt.Fprintf(&b, "\n### %d.%d.1 %s\n", n, si+1, pick(po.h3, s.h3))
			fmt.Fprintf(&b, "\n%s\n", para(s.sub, si+7))
			for _, cb := range s.subC {
				writeFence(&b, cb)
			}
		}
	}
	return []byte(b.String())
}

func writeFence(b *strings.Builder, cb codeBlock) {
	fmt.Fprintf(b, "\n```%s\n%s```\n", cb.lang, cb.code)
}

// CodeBlocks returns the code blocks of part n, in order, as written
// between the fences (the same in every language).
func (c *Course) CodeBlocks(n, partsPerLang int) []string {
	var out []string
	for _, s := range c.plan(n, partsPerLang).sections {
		for _, cb := range append(append([]codeBlock(nil), s.code...), s.subC...) {
			out = append(out, cb.code)
		}
	}
	return out
}

// LoadDir loads the course from a repository folder on disk (for example
// "../.." from a package's tests).
func LoadDir(ctx context.Context, dir string) (*Course, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return Load(ctx, afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), abs)))
}

// MemSite returns a new in-memory filesystem holding, at its root, the
// kakehashi site of partsPerLang parts per language.
func (c *Course) MemSite(ctx context.Context, partsPerLang int) (afero.Fs, error) {
	fs := afero.NewMemMapFs()
	if err := c.Generate(ctx, fs, ".", partsPerLang); err != nil {
		return nil, err
	}
	return fs, nil
}
