package check

import (
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

func headers(l diag.List) string {
	var out []string
	for _, d := range l {
		out = append(out, d.Header())
	}
	return strings.Join(out, "\n")
}

func link(dest, path, frag string, line, col int) markdown.Link {
	return markdown.Link{Dest: dest, Path: path, Fragment: frag, At: diag.Diagnostic{Path: "content/ja/cka/05-ha-cluster.md", Line: line, Col: col}}
}

// TestFragments: a link to a section of another page needs that id in the
// page, its content's or its template's; its own page's are markdown's
// to check, a page not among the pages the build's.
func TestFragments(t *testing.T) {
	pages := []*Page{
		{URL: "/ja/cka/02-control-plane/", Lang: "ja", Source: "content/ja/cka/02-control-plane.md", IDs: []string{"main", "etcd", "etcd-quorums"}},
		{URL: "/ja/cka/05-ha-cluster/", Lang: "ja", Source: "content/ja/cka/05-ha-cluster.md", Links: []markdown.Link{
			link("02-control-plane.md#etcd", "/ja/cka/02-control-plane/", "etcd", 3, 1),
			link("02-control-plane.md#main", "/ja/cka/02-control-plane/", "main", 4, 1),
			link("02-control-plane.md", "/ja/cka/02-control-plane/", "", 5, 1),
			link("02-control-plane.md#etcd-quorum", "/ja/cka/02-control-plane/", "etcd-quorum", 6, 3),
			link("../02-control-plane/#nothing-near", "/ja/cka/02-control-plane/", "nothing-near", 7, 1),
			link("#own", "/ja/cka/05-ha-cluster/", "own", 8, 1),
			link("/ja/gone/#x", "/ja/gone/", "x", 9, 1),
			link("/img/a.png#x", "/img/a.png", "x", 10, 1),
		}},
	}
	want := `content/ja/cka/05-ha-cluster.md:6:3: link to "02-control-plane.md#etcd-quorum": page /ja/cka/02-control-plane/ has no section "etcd-quorum"; did you mean "etcd-quorums"?
content/ja/cka/05-ha-cluster.md:7:1: link to "../02-control-plane/#nothing-near": page /ja/cka/02-control-plane/ has no section "nothing-near"`
	got := Fragments(pages)
	if headers(got) != want {
		t.Errorf("got\n%s\nwant\n%s", headers(got), want)
	}
	for _, d := range got {
		if d.Severity != diag.Error {
			t.Errorf("not an error: %s", d.Header())
		}
	}
}

func code(s string, line int) markdown.Block {
	return markdown.Block{Kind: markdown.BlockCode, CodeSum: markdown.CodeSum(s), Line: line, Col: 1}
}

func heading(level, line int) markdown.Block {
	return markdown.Block{Kind: markdown.BlockHeading, Level: level, Line: line, Col: 1}
}

// TestTwins: a translation's code blocks and heading levels are its
// original's; comments and trailing whitespace may differ.
func TestTwins(t *testing.T) {
	const ja, ko = "content/ja/cka/05-ha-cluster.md", "content/ko/cka/05-ha-cluster.md"
	orig := []markdown.Block{heading(2, 10), code("# 証明書キーを再アップロード\nkubeadm init phase upload-certs  \n// 注\nx := 1 // 値", 12),
		heading(2, 30), code("kubectl get nodes", 40), heading(3, 50), code("etcdctl member list", 88), heading(2, 118)}
	tests := []struct {
		name string
		ko   []markdown.Block
		want string
	}{
		{"the same but for comments", []markdown.Block{heading(2, 11), code("# 인증서 키를 다시 업로드\nkubeadm init phase upload-certs\n\n// 주\nx := 1 // 값\n", 13),
			heading(2, 31), code("kubectl get nodes", 41), heading(3, 51), code("etcdctl member list", 89), heading(2, 120)}, ""},
		{"a code block differs", []markdown.Block{heading(2, 11), code("kubeadm init phase upload-certs\nx := 1", 13),
			heading(2, 31), code("kubectl get pods", 41), heading(3, 51), code("etcdctl member list", 89), heading(2, 120)},
			ko + ":41:1: warning: code block 2 differs from " + ja + ":40:1"},
		{"a heading's level differs", []markdown.Block{heading(2, 11), code("kubeadm init phase upload-certs\nx := 1", 13),
			heading(2, 31), code("kubectl get nodes", 41), heading(2, 51), code("etcdctl member list", 89), heading(2, 120)},
			ko + ":51:1: warning: heading structure differs from " + ja + ": heading 3 is h2 here, h3 there (ja:50:1)"},
		{"a code block and a heading missing", []markdown.Block{heading(2, 11), code("kubeadm init phase upload-certs\nx := 1", 13),
			heading(2, 31), code("kubectl get nodes", 41), heading(3, 51)},
			ko + ": warning: 2 code blocks here, 3 in " + ja + ": code block 3 (ja:88:1) is missing\n" +
				ko + ": warning: heading structure differs from " + ja + ": 3 headings here, 4 there: heading 4 (h2, ja:118:1) is missing"},
		{"one of each more", append(append([]markdown.Block{}, orig...), code("extra", 130), heading(4, 140)),
			ko + ":130:1: warning: code block 4 is not in " + ja + ", which has 3\n" +
				ko + ":140:1: warning: heading structure differs from " + ja + ": heading 5 (h4) is not there, which has 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages := []*Page{
				{URL: "/ja/cka/05-ha-cluster/", Lang: "ja", Source: ja, Outline: orig},
				{URL: "/ko/cka/05-ha-cluster/", Lang: "ko", Source: ko, Outline: tt.ko, Original: "/ja/cka/05-ha-cluster/"},
			}
			if got := headers(Twins(pages)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestCodeLines(t *testing.T) {
	const code = "a # c\nb#not\nurl http://x/y\n  # whole\n\tz // c  \nend   "
	got := markdown.CodeLines(code)
	if want := "a|b#not|url http://x/y|\tz|end"; strings.Join(got, "|") != want {
		t.Errorf("CodeLines = %q, want %q", strings.Join(got, "|"), want)
	}
	// The sum is the lines': the same for the block translated, another
	// for a changed line.
	if markdown.CodeSum(code) != markdown.CodeSum("a # ハ\nb#not\n\nurl http://x/y\n\tz\nend") {
		t.Error("a block with its comments translated has another sum")
	}
	if markdown.CodeSum(code) == markdown.CodeSum("a\nb#not\nurl http://x/z\n\tz\nend") {
		t.Error("a block with a line changed has the same sum")
	}
}
