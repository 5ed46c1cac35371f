package main

import (
	"runtime/debug"
	"testing"
)

// TestSeriesEdits pins the text of series files edited by "new part":
// every line not about the new part stays as it was written.
func TestSeriesEdits(t *testing.T) {
	titles := []langTitle{{"ja", "三"}, {"ko", "셋"}}
	for _, tc := range []struct {
		name, src, want string
		n               int
		publish         bool
	}{{
		name: "at the end of a file without a final newline",
		src:  "id: s\nparts:\n  - number: 1\n    state: published",
		n:    3,
		want: "id: s\nparts:\n  - number: 1\n    state: published\n  - number: 3\n    title: { ja: \"三\", ko: \"셋\" }\n    state: published\n",
	}, {
		name: "CRLF line endings and no indentation before the dash",
		src:  "id: s\r\nparts:\r\n- number: 5\r\n  state: planned\r\n",
		n:    3,
		want: "id: s\r\nparts:\r\n- number: 3\r\n  title: { ja: \"三\", ko: \"셋\" }\r\n  state: published\r\n- number: 5\r\n  state: planned\r\n",
	}, {
		name: "an empty list",
		src:  "id: s\nparts:\ntitle: {ja: S}\n",
		n:    1,
		want: "id: s\nparts:\n  - number: 1\n    title: { ja: \"三\", ko: \"셋\" }\n    state: published\ntitle: {ja: S}\n",
	}, {
		name:    "a quoted planned state",
		src:     "parts:\n  - {number: 3, state: 'planned'} # later\n",
		n:       3,
		publish: true,
		want:    "parts:\n  - {number: 3, state: published} # later\n",
	}, {
		name:    "a part without a state is planned",
		src:     "parts:\n  - number: 3\n    title:\n      ja: 三\n\n# next\n  - number: 4\n",
		n:       3,
		publish: true,
		want:    "parts:\n  - number: 3\n    title:\n      ja: 三\n    state: published\n\n# next\n  - number: 4\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var got []byte
			var err error
			if tc.publish {
				got, err = publishPart([]byte(tc.src), tc.n)
			} else {
				got, err = insertPart([]byte(tc.src), tc.n, titles)
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSeriesEditRefusesFlowList(t *testing.T) {
	if _, err := insertPart([]byte("parts: [{number: 1}]\n"), 2, nil); err == nil {
		t.Error("a flow-style parts list was edited")
	}
}

func TestVersionLine(t *testing.T) {
	stamped := func(kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "kakehashi 1.2.3 (unknown commit)"},
		{stamped("vcs", "git"), "kakehashi 1.2.3 (unknown commit)"},
		{stamped("vcs.revision", "4f44348abc", "vcs.modified", "false"), "kakehashi 1.2.3 (commit 4f44348abc)"},
		{stamped("vcs.revision", "4f44348abc", "vcs.modified", "true"), "kakehashi 1.2.3 (commit 4f44348abc, modified)"},
	} {
		if got := versionLine("1.2.3", tc.info); got != tc.want {
			t.Errorf("versionLine(%v) = %q, want %q", tc.info, got, tc.want)
		}
	}
}
