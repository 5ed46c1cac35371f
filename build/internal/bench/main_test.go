package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

func TestSeriesStats(t *testing.T) {
	tests := []struct {
		walls            []time.Duration
		median, min, max time.Duration
	}{
		{[]time.Duration{3, 1, 2}, 2, 1, 3},
		{[]time.Duration{4, 1, 3, 2}, 2, 1, 4}, // (2+3)/2 in integer nanoseconds
		{[]time.Duration{7}, 7, 7, 7},
		{nil, 0, 0, 0},
	}
	for _, tt := range tests {
		var s series
		for i, w := range tt.walls {
			s.samples = append(s.samples, sample{wall: w, rssKB: int64(i * 10)})
		}
		if s.median() != tt.median || s.min() != tt.min || s.max() != tt.max {
			t.Errorf("%v: median %v min %v max %v; want %v %v %v", tt.walls, s.median(), s.min(), s.max(), tt.median, tt.min, tt.max)
		}
		if want := int64(max(len(tt.walls)-1, 0) * 10); s.peakKB() != want {
			t.Errorf("%v: peak %d, want %d", tt.walls, s.peakKB(), want)
		}
	}
}

func TestBusy(t *testing.T) {
	at := func(busy, own, wall time.Duration) cpuSample {
		return cpuSample{busy: busy, own: own, wall: time.Unix(0, 0).Add(wall)}
	}
	s := time.Second
	tests := []struct {
		name string
		use  cpuUse
		busy bool
	}{
		{"only the bench", cpuBetween(at(0, 0, 0), at(400*s, 398*s, 200*s)), false},
		{"others a twentieth of a core", cpuBetween(at(0, 0, 0), at(410*s, 400*s, 200*s)), false},
		{"others half a core", cpuBetween(at(0, 0, 0), at(500*s, 400*s, 200*s)), true},
		{"own time counted past busy time", cpuBetween(at(0, 0, 0), at(100*s, 101*s, 200*s)), false},
		{"unknown", cpuUse{}, false},
	}
	for _, tt := range tests {
		m := machine{cores: 2, other: tt.use}
		if got := m.busy() != ""; got != tt.busy {
			t.Errorf("%s (%v): busy %v, want %v", tt.name, tt.use, got, tt.busy)
		}
	}
	if u := cpuBetween(at(0, 0, 0), at(500*s, 400*s, 200*s)); u.cores() != 0.5 {
		t.Errorf("100 s of other work over 200 s is %v cores, want 0.5", u.cores())
	}
}

// cpuNow reads real counters where it can: the bench's own work shows.
func TestCPUNow(t *testing.T) {
	a, ok := cpuNow()
	if !ok {
		t.Skip("no CPU counters on", runtime.GOOS)
	}
	for time.Since(a.wall) < 50*time.Millisecond {
	}
	b, _ := cpuNow()
	if b.own <= a.own || b.busy < a.busy {
		t.Errorf("after spinning: own %v → %v, busy %v → %v", a.own, b.own, a.busy, b.busy)
	}
}

func TestReadConfig(t *testing.T) {
	tests := []struct {
		sizes, runs string
		want        string // "" for an error
	}{
		{"", "", "[100 1000] 5"},
		{"10, 20", "3", "[10 20] 3"},
		{"0", "", ""},
		{"ten", "", ""},
		{"", "-1", ""},
	}
	for _, tt := range tests {
		t.Setenv("BENCH_SIZES", tt.sizes)
		t.Setenv("BENCH_RUNS", tt.runs)
		c, err := readConfig()
		if tt.want == "" {
			if err == nil {
				t.Errorf("%q/%q: no error", tt.sizes, tt.runs)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q/%q: %v", tt.sizes, tt.runs, err)
			continue
		}
		if got := fmt.Sprint(c.sizes, " ", c.runs); got != tt.want {
			t.Errorf("%q/%q: %s, want %s", tt.sizes, tt.runs, got, tt.want)
		}
	}
}

func TestBusyLoad(t *testing.T) {
	quiet := cpuUse{ok: true, other: time.Second, wall: 100 * time.Second}
	tests := []struct {
		load string
		use  cpuUse
		want string // "" for quiet
	}{
		{"0.00", quiet, ""},
		{"0.50", quiet, ""},
		{"0.51", quiet, "the machine was busy (the 1-minute load was 0.51 at the start)"},
		{"", quiet, ""},
		{"0.10", cpuUse{ok: true, other: 16 * time.Second, wall: 100 * time.Second},
			"the machine was busy (other work used 0.16 cores on average)"},
		{"0.10", cpuUse{ok: true, other: 15 * time.Second, wall: 100 * time.Second}, ""},
		{"1.20", cpuUse{ok: true, other: 50 * time.Second, wall: 100 * time.Second},
			"the machine was busy (other work used 0.50 cores on average, the 1-minute load was 1.20 at the start)"},
	}
	for _, tt := range tests {
		m := machine{loadBefore: tt.load, other: tt.use}
		if got := m.busy(); got != tt.want {
			t.Errorf("load %q, %v:\n got %q\nwant %q", tt.load, tt.use, got, tt.want)
		}
	}
}

// result is a size's measurements with every series of one sample.
func result(parts int, cold, hugo, warm, onePage, reload time.Duration, coldKB, hugoKB int64) sizeResult {
	one := func(d time.Duration, kb int64) series { return series{samples: []sample{{wall: d, rssKB: kb}}} }
	r := sizeResult{parts: parts, pages: 2 * parts, cold: one(cold, coldKB), warm: one(warm, 0), onePage: one(onePage, 0)}
	if hugo > 0 {
		r.hugo = one(hugo, hugoKB)
	}
	if reload > 0 {
		r.reload = &reloadResult{reload: one(reload, 0)}
	}
	return r
}

func TestJudge(t *testing.T) {
	ms := time.Millisecond
	s := time.Second
	// Every target met with room, and every one missed.
	good := []sizeResult{
		result(100, 100*ms, 400*ms, 50*ms, 80*ms, 10*ms, 10_000, 100_000),
		result(1000, 1*s, 7*s, 100*ms, 250*ms, 20*ms, 100_000, 1_000_000),
	}
	bad := []sizeResult{
		result(100, 200*ms, 400*ms, 50*ms, 80*ms, 10*ms, 50_000, 100_000),
		result(1000, 2*s, 7*s, 200*ms, 400*ms, 30*ms, 300_000, 1_000_000),
	}
	bad[0].floor = series{samples: []sample{{wall: 90 * ms, rssKB: 30_000}}}
	verdicts := func(ts []targetResult) string {
		var b strings.Builder
		for _, t := range ts {
			fmt.Fprintln(&b, t)
		}
		return b.String()
	}
	const busy = "the machine was busy (other work used 0.50 cores on average)"
	tests := []struct {
		name    string
		results []sizeResult
		busy    string
		want    string
	}{
		{"met", good, "", `cold build at least 6× faster than Hugo at 1,000 parts per language: 7.00× (7.00 s and 1.00 s), met
cold build at least 3× faster than Hugo at 100 parts per language: 4.00× (0.40 s and 0.10 s), met
peak memory at most 0.2 of Hugo's at 100 parts per language: 0.10 (10 MB and 98 MB), met
peak memory at most 0.2 of Hugo's at 1,000 parts per language: 0.10 (98 MB and 977 MB), met
warm rebuild at least 60× faster than Hugo's build at 1,000 parts per language: 70.0× (7.00 s and 0.10 s), met
one-page change rebuilt by the CLI in at most 0.30 s at 1,000 parts per language: 0.25 s, met
serve's save-to-reload (median) at most 25.0 ms at 1,000 parts per language: 20.0 ms (max 20.0 ms), met
`},
		{"not met", bad, "", `cold build at least 6× faster than Hugo at 1,000 parts per language: 3.50× (7.00 s and 2.00 s), NOT met
cold build at least 3× faster than Hugo at 100 parts per language: 2.00× (0.40 s and 0.20 s), NOT met
peak memory at most 0.2 of Hugo's at 100 parts per language: 0.50 (49 MB and 98 MB; goldmark + chroma alone 29 MB, 0.30 of Hugo's), NOT met
peak memory at most 0.2 of Hugo's at 1,000 parts per language: 0.30 (293 MB and 977 MB), NOT met
warm rebuild at least 60× faster than Hugo's build at 1,000 parts per language: 35.0× (7.00 s and 0.20 s), NOT met
one-page change rebuilt by the CLI in at most 0.30 s at 1,000 parts per language: 0.40 s, NOT met
serve's save-to-reload (median) at most 25.0 ms at 1,000 parts per language: 30.0 ms (max 30.0 ms), NOT met
`},
		{"busy, met", good, busy, `cold build at least 6× faster than Hugo at 1,000 parts per language: 7.00× (7.00 s and 1.00 s), not judged: ` + busy + `
cold build at least 3× faster than Hugo at 100 parts per language: 4.00× (0.40 s and 0.10 s), not judged: ` + busy + `
peak memory at most 0.2 of Hugo's at 100 parts per language: 0.10 (10 MB and 98 MB), not judged: ` + busy + `
peak memory at most 0.2 of Hugo's at 1,000 parts per language: 0.10 (98 MB and 977 MB), not judged: ` + busy + `
warm rebuild at least 60× faster than Hugo's build at 1,000 parts per language: 70.0× (7.00 s and 0.10 s), not judged: ` + busy + `
one-page change rebuilt by the CLI in at most 0.30 s at 1,000 parts per language: 0.25 s, not judged: ` + busy + `
serve's save-to-reload (median) at most 25.0 ms at 1,000 parts per language: 20.0 ms (max 20.0 ms), not judged: ` + busy + `
`},
		{"busy, not met", bad[1:], busy, `cold build at least 6× faster than Hugo at 1,000 parts per language: 3.50× (7.00 s and 2.00 s), not judged: ` + busy + `
cold build at least 3× faster than Hugo at 100 parts per language: not measured: BENCH_SIZES has no 100
peak memory at most 0.2 of Hugo's at 100 parts per language: not measured: BENCH_SIZES has no 100
peak memory at most 0.2 of Hugo's at 1,000 parts per language: 0.30 (293 MB and 977 MB), not judged: ` + busy + `
warm rebuild at least 60× faster than Hugo's build at 1,000 parts per language: 35.0× (7.00 s and 0.20 s), not judged: ` + busy + `
one-page change rebuilt by the CLI in at most 0.30 s at 1,000 parts per language: 0.40 s, not judged: ` + busy + `
serve's save-to-reload (median) at most 25.0 ms at 1,000 parts per language: 30.0 ms (max 30.0 ms), not judged: ` + busy + `
`},
		{"no Hugo, no serve, another size", []sizeResult{
			result(10, 50*ms, 0, 40*ms, 60*ms, 0, 10_000, 0),
			result(1000, 1*s, 0, 100*ms, 250*ms, 0, 100_000, 0),
		}, "", `cold build at least 6× faster than Hugo at 1,000 parts per language: not measured: no Hugo
cold build at least 3× faster than Hugo at 100 parts per language: not measured: BENCH_SIZES has no 100
peak memory at most 0.2 of Hugo's at 100 parts per language: not measured: BENCH_SIZES has no 100
peak memory at most 0.2 of Hugo's at 1,000 parts per language: not measured: no Hugo
peak memory at most 0.2 of Hugo's at 10 parts per language: not measured: no Hugo
warm rebuild at least 60× faster than Hugo's build at 1,000 parts per language: not measured: no Hugo
one-page change rebuilt by the CLI in at most 0.30 s at 1,000 parts per language: 0.25 s, met
serve's save-to-reload (median) at most 25.0 ms at 1,000 parts per language: not measured: no serve edits (BENCH_SERVE_EDITS=0)
`},
	}
	for _, tt := range tests {
		if got := verdicts(judge(tt.results, tt.busy)); got != tt.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}

// A busy machine fails the command under BENCH_STRICT=1, and only then.
func TestStrictError(t *testing.T) {
	busy := machine{loadBefore: "2.00"}
	quiet := machine{loadBefore: "0.00"}
	tests := []struct {
		strict bool
		m      machine
		fails  bool
	}{
		{true, busy, true},
		{false, busy, false},
		{true, quiet, false},
		{false, quiet, false},
	}
	for _, tt := range tests {
		err := strictError(config{strict: tt.strict}, tt.m)
		if (err != nil) != tt.fails {
			t.Errorf("strict %v, load %s: %v", tt.strict, tt.m.loadBefore, err)
		}
		if err != nil && !strings.Contains(err.Error(), "the machine was busy (the 1-minute load was 2.00 at the start)") {
			t.Errorf("strict error %q does not say why", err)
		}
	}
	// The report of a busy machine says every target is not judged.
	rep := report{machine: busy, cfg: config{runs: 1}, results: []sizeResult{result(1000, time.Second, 7*time.Second, 100*time.Millisecond, 250*time.Millisecond, 20*time.Millisecond, 1, 10)}}
	for name, out := range map[string]string{"text": rep.text(), "markdown": rep.markdown()} {
		if strings.Contains(out, ", met") || strings.Contains(out, "NOT met") || !strings.Contains(out, "not judged: the machine was busy") {
			t.Errorf("%s report of a busy machine judges:\n%s", name, out)
		}
	}
}

func TestStrictConfig(t *testing.T) {
	for v, want := range map[string]string{"": "false", "0": "false", "1": "true", "yes": "error"} {
		t.Setenv("BENCH_STRICT", v)
		c, err := readConfig()
		got := fmt.Sprint(c.strict)
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("BENCH_STRICT=%q: %s, want %s", v, got, want)
		}
	}
	t.Setenv("BENCH_STRICT", "")
	for v, want := range map[string]string{"": "10", "0": "0", "3": "3", "-1": "error", "x": "error"} {
		t.Setenv("BENCH_SERVE_EDITS", v)
		c, err := readConfig()
		got := fmt.Sprint(c.serveEdits)
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("BENCH_SERVE_EDITS=%q: %s, want %s", v, got, want)
		}
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string // name|data
	}{
		{"serve's stream", "retry: 1000\n\nevent: ok\ndata: {\"version\":\"1\"}\n\n: ping\n\nevent: reload\ndata: {\"version\":\"2\"}\n\n",
			[]string{`ok|{"version":"1"}`, `reload|{"version":"2"}`}},
		{"no event name", "data: x\n\n", []string{"message|x"}},
		{"lines of data joined", "event: error\ndata: a\ndata: b\n\n", []string{"error|a\nb"}},
		{"CRLF and no space after the colon", "event:css\r\ndata:{}\r\n\r\n", []string{"css|{}"}},
		{"a name without data dispatches nothing", "event: reload\n\ndata: y\n\n", []string{"message|y"}},
		{"comments and ids skipped", ": hi\nid: 7\nevent: reload\n: more\ndata: z\n\n", []string{"reload|z"}},
		{"cut off at the end", "event: ok\ndata: 1\n\nevent: reload\ndata: 2\n", []string{"ok|1"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		r := newSSEReader(strings.NewReader(tt.stream))
		var got []string
		for {
			ev, err := r.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			got = append(got, ev.name+"|"+ev.data)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestResolveHugo(t *testing.T) {
	const script = "/repo/../shared/tools/hugo-latest.sh"
	type env struct {
		hugoVar   string
		files     []string // what exists
		scriptOut string
		scriptErr error
		onPath    string // "" for none
	}
	tests := []struct {
		name string
		env  env
		want string // path from; "error" for an error
		note string // a word the note must hold, "" for no note
	}{
		{"HUGO first", env{hugoVar: "/opt/hugo", files: []string{"/opt/hugo", script, "/cache/hugo"}, scriptOut: "/cache/hugo\n", onPath: "/usr/bin/hugo"},
			"/opt/hugo HUGO", ""},
		{"HUGO naming nothing", env{hugoVar: "/opt/none", files: []string{script, "/cache/hugo"}, scriptOut: "/cache/hugo\n", onPath: "/usr/bin/hugo"},
			"error", ""},
		{"the script, its last line", env{files: []string{script, "/cache/hugo"}, scriptOut: "building…\nhugo v0.169.0\n/cache/hugo\n\n", onPath: "/usr/bin/hugo"},
			"/cache/hugo hugo-latest.sh", ""},
		{"the script failing", env{files: []string{script}, scriptErr: errors.New("exit status 1"), onPath: "/usr/bin/hugo"},
			"error", ""},
		{"the script printing no binary", env{files: []string{script}, scriptOut: "done\n", onPath: "/usr/bin/hugo"},
			"error", ""},
		{"PATH last, with a note", env{onPath: "/usr/bin/hugo"},
			"/usr/bin/hugo PATH", "not be the newest"},
		{"none", env{},
			" PATH", "no Hugo"},
	}
	for _, tt := range tests {
		ran := false
		f := hugoFinder{
			getenv: func(k string) string {
				if k == "HUGO" {
					return tt.env.hugoVar
				}
				return ""
			},
			script: script,
			exists: func(p string) bool { return slices.Contains(tt.env.files, p) },
			run: func(_ context.Context, p string) ([]byte, error) {
				ran = true
				if p != script {
					t.Errorf("%s: ran %s", tt.name, p)
				}
				return []byte(tt.env.scriptOut), tt.env.scriptErr
			},
			lookPath: func(string) (string, error) {
				if tt.env.onPath == "" {
					return "", &exec.Error{Name: "hugo", Err: exec.ErrNotFound}
				}
				return tt.env.onPath, nil
			},
		}
		c, err := resolveHugo(context.Background(), f)
		got := c.path + " " + c.from
		if err != nil {
			got = "error"
		}
		if got != tt.want {
			t.Errorf("%s: %q (%v), want %q", tt.name, got, err, tt.want)
		}
		if (tt.note == "") != (c.note == "") || !strings.Contains(c.note, tt.note) {
			t.Errorf("%s: note %q, want one with %q", tt.name, c.note, tt.note)
		}
		if ran && tt.env.hugoVar != "" {
			t.Errorf("%s: ran the script though HUGO is set", tt.name)
		}
	}
}

func TestHasTimingsFlag(t *testing.T) {
	tests := []struct {
		help string
		want bool
	}{
		{"Flags:\n  -q\tquiet\n  -timings\n    \tprint the time of each stage\n", true},
		{"Flags:\n  --timings\tprint the time of each stage\n", true},
		{"Flags:\n  -q\tquiet\n  -s folder\n", false},
		{"Flags:\n  -t\tno timings printed\n  -timingsx\n", false},
	}
	for _, tt := range tests {
		if got := hasTimingsFlag(tt.help); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.help, got, tt.want)
		}
	}
}

func TestFixedTime(t *testing.T) {
	ms := time.Millisecond
	rs := []sizeResult{result(1000, 2100*ms, 0, 0, 0, 0, 0, 0), result(10, 120*ms, 0, 0, 0, 0, 0, 0), result(100, 300*ms, 0, 0, 0, 0, 0, 0)}
	fixed, per, ok := fixedTime(rs, func(r sizeResult) series { return r.cold })
	// 20 and 2,000 pages: (2.1 s − 0.12 s) ÷ 1,980 pages = 1 ms a page.
	if !ok || fixed != 100*ms || per != ms {
		t.Errorf("fixed %v, per page %v, %v; want 100ms, 1ms", fixed, per, ok)
	}
	if _, _, ok := fixedTime(rs[:1], func(r sizeResult) series { return r.cold }); ok {
		t.Error("one size gives a fixed time")
	}
}

func TestFloor(t *testing.T) {
	page := []byte("---\ntitle: x\n---\n\n## 見出し\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```bash\necho \"$HOME\" # home\n```\n\n```nosuchlang\nplain <text>\n```\n")
	if got := string(body(page)); !strings.HasPrefix(got, "\n## 見出し") {
		t.Errorf("body: %q", got)
	}
	if got := string(body([]byte("# no front matter\n"))); got != "# no front matter\n" {
		t.Errorf("body without front matter: %q", got)
	}
	for _, once := range []bool{false, true} {
		var blocks *sync.Map
		if once {
			blocks = new(sync.Map)
		}
		md := floorMarkdown(blocks)
		for range 2 {
			var out bytes.Buffer
			if err := md.Convert(body(page), &out); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`<h2 id="`, "<table>", `<pre class="chroma"`, `<span class="nv">`, "plain &lt;text&gt;"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("once %v: no %s in\n%s", once, want, out.String())
				}
			}
		}
		if once {
			n := 0
			blocks.Range(func(any, any) bool { n++; return true })
			if n != 2 {
				t.Errorf("%d blocks kept, want 2", n)
			}
		}
	}
	if _, err := floorRun(context.Background(), [][]byte{page, page, page}, true); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := floorRun(ctx, [][]byte{page}, false); err == nil {
		t.Error("a cancelled floor run gives no error")
	}
}

// TestFloorProcess: the floor process reads the article pages of a
// generated site from disk, no other page, and renders every one.
func TestFloorProcess(t *testing.T) {
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, "../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := c.Generate(ctx, afero.NewOsFs(), filepath.ToSlash(dir), 3); err != nil {
		t.Fatal(err)
	}
	pages, err := readFloorPages(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]byte
	for _, f := range c.Content(3) {
		if isArticle(f.Path) {
			want = append(want, body(f.Data))
		}
	}
	if len(want) != 6 || len(pages) != len(want) {
		t.Fatalf("%d pages read, %d in the corpus, want 6 of each", len(pages), len(want))
	}
	seen := map[string]bool{}
	for _, p := range pages {
		seen[string(p)] = true
	}
	for _, w := range want {
		if !seen[string(w)] {
			t.Errorf("an article page was not read:\n%.200s", w)
		}
	}
	var out bytes.Buffer
	if err := floorChild(ctx, &out, dir, true); err != nil {
		t.Fatal(err)
	}
	if out.String() != "6 pages\n" {
		t.Errorf("floor process printed %q", out.String())
	}
	for _, p := range []string{"content/ja/cka/_index.md", "content/ja/cka/0001-ha-cluster.md.bak", "content/ja/other/0001-ha-cluster.md", "content/ja/cka/0001-ha-cluster.md"} {
		if got, want := isArticle(p), p == "content/ja/cka/0001-ha-cluster.md"; got != want {
			t.Errorf("isArticle(%q) = %v, want %v", p, got, want)
		}
	}
}
