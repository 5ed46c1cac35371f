package highlight

import (
	"strings"
	"sync"
	"testing"
)

func newHL(t *testing.T) *Highlighter {
	t.Helper()
	h, err := New("", "")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestNewUnknownStyle(t *testing.T) {
	for _, c := range []struct{ light, dark string }{{"no-such-style", ""}, {"", "no-such-style"}} {
		if _, err := New(c.light, c.dark); err == nil {
			t.Errorf("New(%q, %q): want an error", c.light, c.dark)
		}
	}
}

func TestCSS(t *testing.T) {
	h := newHL(t)
	css := string(h.CSS())
	for _, want := range []string{
		".chroma {",
		"@media (prefers-color-scheme: dark) {\n  :root:not([data-theme=light]) {\n    .chroma {",
		"}\n/* code highlighting: dark, chosen */\n:root[data-theme=dark] {\n  .chroma {",
		".chroma .hl { background-color:",
		".chroma .nb",
	} {
		if !strings.Contains(css, want) {
			t.Errorf("CSS lacks %q", want)
		}
	}
	if n := strings.Count(css, ".chroma .hl {"); n < 3 {
		t.Errorf("CSS has %d .hl rules, want one per style", n)
	}
	for _, bad := range []string{"style=", "<"} {
		if strings.Contains(css, bad) {
			t.Errorf("CSS contains %q", bad)
		}
	}
	light, dark, _ := strings.Cut(css, "@media")
	dark, chosen, _ := strings.Cut(dark, "/* code highlighting: dark, chosen */")
	for _, part := range []struct{ css, scope string }{{light, ""}, {dark, ""}, {chosen, ""}} {
		bodies := map[string]bool{}
		for _, line := range strings.Split(part.css, "\n") {
			l := strings.TrimSpace(line)
			sels, body, ok := strings.Cut(l, "{ ")
			if !ok || strings.HasPrefix(l, "@media") || strings.HasPrefix(l, "(prefers") || strings.HasPrefix(l, ":root") {
				continue
			}
			for _, sel := range strings.Split(sels, ",") {
				if !strings.HasPrefix(strings.TrimSpace(sel), part.scope+".chroma") {
					t.Errorf("rule not scoped to .chroma: %q", line)
				}
			}
			// Classes that share their declarations share one rule
			// (the .hl colour, written after chroma's rules, aside).
			if bodies[body] && !strings.Contains(sels, ".hl") {
				t.Errorf("declarations %q written twice in one style", body)
			}
			bodies[body] = true
		}
	}
	if light == "" || dark == "" || light == dark {
		t.Errorf("light and dark parts not distinct")
	}
	// The chosen dark style is the OS's dark one under another scope.
	rules := func(s, scope string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); strings.Contains(l, "{ ") && !strings.HasPrefix(l, "(prefers") && !strings.HasPrefix(l, ":root") {
				out = append(out, strings.ReplaceAll(l, scope, ""))
			}
		}
		return strings.Join(out, "\n")
	}
	if a, b := rules(dark, ""), rules(chosen, ""); a == "" || a != b {
		t.Errorf("the dark style chosen differs from the OS's:\n%s\n----\n%s", a, b)
	}
	if string(h.CSS()) != css || string(newHL(t).CSS()) != css {
		t.Error("CSS is not deterministic")
	}
}

func TestBlock(t *testing.T) {
	tests := []struct {
		name     string
		b        Block
		want     []string
		wantNot  []string
		wantCopy string
	}{
		{
			name:     "bash uses classes",
			b:        Block{Lang: "bash", Code: "echo \"hi\" # greet\n"},
			want:     []string{`<pre class="chroma" tabindex="0"><code>`, `<span class="nb">echo</span>`, `class="c1"`, `</code></pre>`},
			wantNot:  []string{"style="},
			wantCopy: "echo \"hi\" # greet",
		},
		{
			name:    "highlighted lines",
			b:       Block{Lang: "yaml", Code: "a: 1\nb: 2\nc: 3\nd: 4\n", Lines: []int{2, 4}},
			want:    []string{`<span class="line hl"><span class="cl"><span class="nt">b</span>`, `<span class="line hl"><span class="cl"><span class="nt">d</span>`, `<span class="line"><span class="cl"><span class="nt">a</span>`},
			wantNot: []string{`<span class="line hl"><span class="cl"><span class="nt">a`, `<span class="line hl"><span class="cl"><span class="nt">c`},
		},
		{
			name:    "unknown language is escaped plain text",
			b:       Block{Lang: "no-such-lang", Code: "<script>alert(1)</script> & co"},
			want:    []string{"&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"},
			wantNot: []string{"<script>", "style="},
		},
		{
			name: "aliases resolve",
			b:    Block{Lang: "sh", Code: "echo hi\n"},
			want: []string{`<span class="nb">echo</span>`},
		},
		{
			name:     "console prompt removed from copy",
			b:        Block{Lang: "console", Code: "$ kubectl get nodes\nNAME STATUS\n"},
			want:     []string{"kubectl"},
			wantCopy: "kubectl get nodes",
		},
		{
			name: "line numbers in a table",
			b:    Block{Lang: "go", Code: "a := 1\nb := 2\n", LineNumbers: LineNumbersTable},
			want: []string{
				"<div class=\"chroma\" tabindex=\"0\">\n<table class=\"lntable\" role=\"presentation\"><tr><td class=\"lntd\" aria-hidden=\"true\">\n<pre class=\"chroma\"><span class=\"lnt\">1\n</span><span class=\"lnt\">2\n</span></pre></td>",
				"<td class=\"lntd\">\n<pre class=\"chroma\"><code><span class=\"line\"><span class=\"cl\"><span class=\"nx\">a</span>",
				"</code></pre></td></tr></table>\n</div>",
			},
			wantNot:  []string{`<pre class="chroma" tabindex="0">`, "id=", "style="},
			wantCopy: "a := 1\nb := 2",
		},
		{
			name: "line numbers inline, from 9, a highlighted line counted from the block's first",
			b:    Block{Lang: "text", Code: "x\ny\nz", LineNumbers: LineNumbersInline, LineStart: 9, Lines: []int{2}},
			want: []string{
				`<pre class="chroma" tabindex="0"><code><span class="line"><span class="ln"> 9</span><span class="cl">x`,
				`<span class="line hl"><span class="ln">10</span><span class="cl">y`,
				`<span class="line"><span class="ln">11</span><span class="cl">z</span></span></code></pre>`,
			},
			wantNot:  []string{"<table", "id="},
			wantCopy: "x\ny\nz",
		},
		{
			name: "line anchors, their prefix kept to what an id takes",
			b:    Block{Lang: "text", Code: "x\ny", LineNumbers: LineNumbersTable, Anchors: `hl-0"><b>`},
			want: []string{
				`<span class="lnt" id="hl-0b-1"><a class="lnlinks" href="#hl-0b-1">1</a>`,
				"<td class=\"lntd\">\n<pre class=\"chroma\">",
			},
			wantNot: []string{"aria-hidden", "<b>"},
		},
	}
	h := newHL(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.Block(tt.b)
			for _, w := range tt.want {
				if !strings.Contains(r.HTML, w) {
					t.Errorf("HTML lacks %q:\n%s", w, r.HTML)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(r.HTML, w) {
					t.Errorf("HTML contains %q:\n%s", w, r.HTML)
				}
			}
			if tt.wantCopy != "" && r.CopyText != tt.wantCopy {
				t.Errorf("CopyText = %q, want %q", r.CopyText, tt.wantCopy)
			}
		})
	}
	// The numbering is part of what is cached.
	plain := h.Block(Block{Lang: "text", Code: "x\ny"})
	numbered := h.Block(Block{Lang: "text", Code: "x\ny", LineNumbers: LineNumbersInline})
	from3 := h.Block(Block{Lang: "text", Code: "x\ny", LineNumbers: LineNumbersInline, LineStart: 3})
	if plain.HTML == numbered.HTML || numbered.HTML == from3.HTML {
		t.Errorf("blocks numbered otherwise share their HTML:\n%s\n%s\n%s", plain.HTML, numbered.HTML, from3.HTML)
	}
}

func TestLexerAliases(t *testing.T) {
	for _, lang := range []string{"sh", "shell", "bash", "console", "yaml", "yml", "go", "text", "json", "Dockerfile", "toml"} {
		if l := Lexer(lang); l == nil || (lang != "text" && l == Lexer("")) {
			t.Errorf("Lexer(%q) = plain text, want a real lexer", lang)
		}
	}
	if Lexer("no-such-lang") != Lexer("") {
		t.Error("unknown language: want the plain text lexer")
	}
}

func TestCache(t *testing.T) {
	h := newHL(t)
	b := Block{Lang: "bash", Code: "echo hi\n", Lines: []int{1}}
	r1 := h.Block(b)
	b.Title = "other title" // not part of the key
	r2 := h.Block(b)
	if r1 != r2 {
		t.Error("identical blocks rendered differently")
	}
	if hits, misses := h.Stats(); hits != 1 || misses != 1 {
		t.Errorf("Stats() = %d hits, %d misses; want 1, 1", hits, misses)
	}
	for _, other := range []Block{
		{Lang: "sh", Code: "echo hi\n", Lines: []int{1}},
		{Lang: "bash", Code: "echo hi\n"},
		{Lang: "bash", Code: "echo ho\n", Lines: []int{1}},
	} {
		h.Block(other)
	}
	if hits, misses := h.Stats(); hits != 1 || misses != 4 {
		t.Errorf("after distinct blocks Stats() = %d hits, %d misses; want 1, 4", hits, misses)
	}
}

func TestCacheConcurrent(t *testing.T) {
	h := newHL(t)
	const n = 32
	blocks := []Block{
		{Lang: "bash", Code: "kubeadm init --control-plane-endpoint lb:6443\n"},
		{Lang: "yaml", Code: "apiVersion: v1\nkind: Pod\n", Lines: []int{2}},
	}
	var wg sync.WaitGroup
	out := make([]Rendered, n*len(blocks))
	for i := 0; i < n; i++ {
		for j, b := range blocks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i*len(blocks)+j] = h.Block(b)
			}()
		}
	}
	wg.Wait()
	hits, misses := h.Stats()
	if misses != int64(len(blocks)) || hits != int64((n-1)*len(blocks)) {
		t.Errorf("Stats() = %d hits, %d misses; want %d, %d", hits, misses, (n-1)*len(blocks), len(blocks))
	}
	for i, r := range out {
		if r != out[i%len(blocks)] {
			t.Fatalf("result %d differs", i)
		}
	}
}

func TestCopyText(t *testing.T) {
	tests := []struct {
		name, lang, code, want string
	}{
		{"console drops output", "console", "$ kubectl get nodes\nNAME   STATUS\ncp1    Ready\n$ kubectl get pods\nNo resources found.\n", "kubectl get nodes\nkubectl get pods"},
		{"console root prompt", "console", "# systemctl restart kubelet\n$ uptime\n 10:00 up\n", "systemctl restart kubelet\nuptime"},
		{"console continuation", "shell-session", "$ kubeadm init \\\n  --control-plane-endpoint lb:6443 \\\n  --upload-certs\n[init] Using Kubernetes\n", "kubeadm init \\\n  --control-plane-endpoint lb:6443 \\\n  --upload-certs"},
		{"terminal", "terminal", "$ ls\na b\n", "ls"},
		{"bash with prompts and continuation", "bash", "$ sudo kubeadm join lb:6443 \\\n    --token abc\n[preflight] Running\n$ echo ok\nok\n", "sudo kubeadm join lb:6443 \\\n    --token abc\necho ok"},
		{"bash comment kept", "bash", "# back up etcd first\n$ etcdctl snapshot save s.db\nSnapshot saved\n", "# back up etcd first\netcdctl snapshot save s.db"},
		{"bash without prompts unchanged", "sh", "# comment\nls -l\necho done\n", "# comment\nls -l\necho done"},
		{"bash hash is not a root prompt", "bash", "# apt-get update\n", "# apt-get update"},
		{"zsh", "zsh", "$ print hi\nhi", "print hi"},
		{"yaml unchanged", "yaml", "# $ not a prompt\nkind: Pod\n$ x: 1\n", "# $ not a prompt\nkind: Pod\n$ x: 1"},
		{"unknown unchanged", "", "$ anything\n", "$ anything"},
		{"CRLF input", "console", "$ kubectl version\r\nClient Version: v1.31\r\n", "kubectl version"},
		{"CRLF bash", "bash", "$ a \\\r\n  b\r\nout\r\n", "a \\\n  b"},
		{"upper-case language", "Console", "$ ls\nout\n", "ls"},
		{"trailing newlines trimmed", "text", "hello\n\n\n", "hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CopyText(tt.lang, tt.code); got != tt.want {
				t.Errorf("CopyText(%q, %q) = %q, want %q", tt.lang, tt.code, got, tt.want)
			}
		})
	}
}

func TestLimitDropsOldest(t *testing.T) {
	h, err := New("", "")
	if err != nil {
		t.Fatal(err)
	}
	h.SetLimit(2)
	a, b, c := Block{Lang: "bash", Code: "echo a"}, Block{Lang: "bash", Code: "echo b"}, Block{Lang: "bash", Code: "echo c"}
	h.Block(a)
	h.Block(b)
	h.Block(b) // hit
	h.Block(c) // a is dropped
	h.Block(a) // miss again
	h.Block(c) // hit
	if hits, misses := h.Stats(); hits != 2 || misses != 4 {
		t.Fatalf("hits %d misses %d, want 2 and 4", hits, misses)
	}
}
