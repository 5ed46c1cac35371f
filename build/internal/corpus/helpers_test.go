package corpus

import (
	"strings"
	"testing"
)

func TestSplitBlocks(t *testing.T) {
	body := "## 見出し\n\n段落の一行目。\n二行目。\n\n```bash\nkubectl get nodes\n\nkubectl get pods\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- x\n- y\n\n1. one\n2. two\n\n> quote\n\n#4 で見たように。\n"
	want := []struct {
		kind blockKind
		text string
	}{
		{kindHeading, "見出し"},
		{kindPara, "段落の一行目。\n二行目。"},
		{kindFence, "kubectl get nodes\n\nkubectl get pods\n"},
		{kindTable, "| a | b |\n| --- | --- |\n| 1 | 2 |"},
		{kindList, "- x\n- y"},
		{kindList, "1. one\n2. two"},
		{kindQuote, "> quote"},
		{kindPara, "#4 で見たように。"},
	}
	got := splitBlocks(body)
	if len(got) != len(want) {
		t.Fatalf("%d blocks, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		text := got[i].text
		if got[i].kind == kindFence {
			text = got[i].code
			if got[i].lang != "bash" {
				t.Errorf("block %d: lang %q", i, got[i].lang)
			}
		}
		if got[i].kind != w.kind || text != w.text {
			t.Errorf("block %d = %v %q, want %v %q", i, got[i].kind, text, w.kind, w.text)
		}
	}
}

func TestSplitFrontMatter(t *testing.T) {
	tests := []struct{ in, fm, body string }{
		{"---\ntitle: a\n---\nbody\n", "title: a\n", "body\n"},
		{"---\r\ntitle: a\r\n---\r\nbody\r\n", "title: a\n", "body\n"},
		{"no front matter\n", "", "no front matter\n"},
		{"---\ntitle: a\n", "", "---\ntitle: a\n"},
	}
	for _, tt := range tests {
		fm, body := splitFrontMatter([]byte(tt.in))
		if string(fm) != tt.fm || string(body) != tt.body {
			t.Errorf("splitFrontMatter(%q) = %q, %q; want %q, %q", tt.in, fm, body, tt.fm, tt.body)
		}
	}
}

func TestPlain(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"{{< part 4 >}} で見ました。", "#4 で見ました。", true},
		{"{{< part 7 >}}과 {{<part 24/>}}에서", "#7과 #24에서", true},
		{`{{< topology type="stacked" controlPlanes=3 >}}`, "", false},
		{"{{% callout kind=\"exam\" %}}\n- a\n- b\n{{% /callout %}}", "- a\n- b", true},
		{"text {{< calc x=1 >}} inline", "", false},
		{"plain text", "plain text", true},
	}
	for _, tt := range tests {
		got, ok := plain(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("plain(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRotations(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"ja sentences", rotateSentences("一。二。三。", "ja", 1), "二。三。一。"},
		{"ko sentences", rotateSentences("하나입니다. 둘입니다. 셋입니다.", "ko", 2), "셋입니다. 하나입니다. 둘입니다."},
		{"one sentence", rotateSentences("一つだけ。", "ja", 3), "一つだけ。"},
		{"multi-line paragraph kept", rotateSentences("一。\n二。", "ja", 1), "一。\n二。"},
		{"bullet list", rotateList("- a\n  more\n- b\n- c", 1), "- b\n- c\n- a\n  more"},
		{"ordered list kept", rotateList("1. a\n2. b", 1), "1. a\n2. b"},
		{"table rows", rotateTable("| h |\n| --- |\n| 1 |\n| 2 |\n| 3 |", 2), "| h |\n| --- |\n| 3 |\n| 1 |\n| 2 |"},
		{"short table kept", rotateTable("| h |\n| --- |\n| 1 |", 1), "| h |\n| --- |\n| 1 |"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestMutate(t *testing.T) {
	tests := []struct {
		name string
		in   codeBlock
		n    int
		want []string // substrings of the result
		not  []string // substrings that must be gone
	}{
		{"node names and addresses", codeBlock{"console", "$ k get nodes\ncp-1 10.0.0.11 v1.31.0\n"}, 42,
			[]string{"lab42-cp-1", "10.0.42.11", "v1.30.2", "$ kubectl config use-context lab42-admin@lab42"}, []string{" cp-1 ", "10.0.0.11", "v1.31.0"}},
		{"loopback kept, pod network varied", codeBlock{"bash", "--endpoints=https://127.0.0.1:2379 --pod-network-cidr=10.244.0.0/16\n"}, 2,
			[]string{"127.0.0.1", "192.168.0.0/16", "# lab2, step 3\n"}, []string{"10.244.0.0/16"}},
		{"placeholders filled", codeBlock{"bash", "kubeadm join LOAD_BALANCER_DNS:6443 --token <token> --discovery-token-ca-cert-hash sha256:<hash> --certificate-key <certificate-key>\n"}, 5,
			[]string{"lb.lab5.example.internal:6443"}, []string{"<token>", "<hash>", "<certificate-key>", "LOAD_BALANCER_DNS"}},
		{"placeholder kept every third part", codeBlock{"bash", "kubeadm join LOAD_BALANCER_DNS:6443\n"}, 3,
			[]string{"LOAD_BALANCER_DNS:6443"}, nil},
		{"large part number", codeBlock{"yaml", "controlPlaneEndpoint: 10.0.0.100:6443\n"}, 1234,
			[]string{"10.4.234.100:6443", "# lab1234, step 3\n"}, nil},
		{"text label", codeBlock{"text", "server cp-2 10.0.0.12:6443\n"}, 7,
			[]string{"[lab7, step 3]\n", "server lab7-cp-2 10.0.7.12:6443"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mutate(tt.in, tt.n, 3)
			if got.lang != tt.in.lang {
				t.Errorf("lang %q, want %q", got.lang, tt.in.lang)
			}
			for _, w := range tt.want {
				if !strings.Contains(got.code, w) {
					t.Errorf("result lacks %q:\n%s", w, got.code)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(got.code, w) {
					t.Errorf("result still has %q:\n%s", w, got.code)
				}
			}
		})
	}
	if a, b := mutate(templates[0], 1, 1), mutate(templates[0], 2, 1); a.code == b.code {
		t.Error("two parts give the same block")
	}
}

func TestRenumberRefs(t *testing.T) {
	tests := []struct {
		in     string
		n, tot int
		want   string
	}{
		{"#4 で", 1, 10, "#2 で"},               // (4*131+1*7)%10+1
		{"#2에서 본 것처럼", 2, 103, "#71에서 본 것처럼"}, // (2*131+2*7)%103+1
		{"(#5) と「#6」", 3, 50, "(#27) と「#8」"},
		{"C#7 and a#1 stay", 1, 10, "C#7 and a#1 stay"},
		{"&#35; stays, ##2 too", 1, 10, "&#35; stays, ##2 too"},
	}
	for _, tt := range tests {
		if got := renumberRefs(tt.in, tt.n, tt.tot); got != tt.want {
			t.Errorf("renumberRefs(%q, %d, %d) = %q, want %q", tt.in, tt.n, tt.tot, got, tt.want)
		}
	}
}
