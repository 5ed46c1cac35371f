package calc

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryCodeHasThreeTexts finds every reason code literal in the
// package's sources and checks it has English, Japanese and Korean texts
// whose placeholders agree.
func TestEveryCodeHasThreeTexts(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	codeRe := regexp.MustCompile(`"((?:err|quorum|sans|verify|ha)\.[a-z0-9-]+)"`)
	phRe := regexp.MustCompile(`\{[a-zA-Z]+\}`)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range codeRe.FindAllStringSubmatch(string(src), -1) {
			seen++
			en, ja, ko := templates(m[1])
			if en == "" || ja == "" || ko == "" {
				t.Errorf("%s: code %s lacks a text (en %q, ja %q, ko %q)", f, m[1], en, ja, ko)
				continue
			}
			set := func(s string) string {
				p := phRe.FindAllString(s, -1)
				u := map[string]bool{}
				for _, x := range p {
					u[x] = true
				}
				var keys []string
				for k := range u {
					keys = append(keys, k)
				}
				return strings.Join(sortStrings(keys), ",")
			}
			if set(en) != set(ja) || set(en) != set(ko) {
				t.Errorf("code %s: placeholders differ: en %s, ja %s, ko %s", m[1], set(en), set(ja), set(ko))
			}
		}
	}
	if seen < 40 {
		t.Errorf("found only %d code literals; the scan is broken", seen)
	}
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// TestInputErrorTexts pins, in each language, what a reader of a widget
// reads for the inputs a number field can hold: a cleared field is not
// entered yet (a prompt, not a type error), a value that is no integer
// asks for one, a value out of range says what to enter. No text names a
// field or a JSON type: the widget puts the field's visible label before
// it (FieldText).
func TestInputErrorTexts(t *testing.T) {
	type want struct{ code, ja, ko, en string }
	for _, c := range []struct {
		name  string
		field string
		in    map[string]any
		want  want
	}{
		{"cleared", "members", map[string]any{"members": ""},
			want{CodeEmpty, "まだ入力されていません", "아직 입력되지 않았습니다", "not entered yet"}},
		{"spaces", "failed", map[string]any{"failed": "   "},
			want{CodeEmpty, "まだ入力されていません", "아직 입력되지 않았습니다", "not entered yet"}},
		{"not a number", "members", map[string]any{"members": "abc"},
			want{"err.not-integer", "整数を入力してください", "정수를 입력하세요", "enter an integer"}},
		{"a fraction", "failed", map[string]any{"failed": 1.5},
			want{"err.not-integer", "整数を入力してください", "정수를 입력하세요", "enter an integer"}},
		{"a field the browser cannot read (NaN)", "members", map[string]any{"members": math.NaN()},
			want{"err.not-integer", "整数を入力してください", "정수를 입력하세요", "enter an integer"}},
		{"no member", "members", map[string]any{"members": 0},
			want{"err.members-min", "1 以上の値を入力してください (0 は指定できません)", "1 이상의 값을 입력하세요(0은 지정할 수 없습니다)", "enter 1 or more, not 0"}},
		{"negative failures", "failed", map[string]any{"failed": -1},
			want{"err.failed-negative", "0 以上の値を入力してください (-1 は指定できません)", "0 이상의 값을 입력하세요(-1은 지정할 수 없습니다)", "enter 0 or more, not -1"}},
		{"more failures than members", "failed", map[string]any{"members": 3, "failed": 4},
			want{"err.failed-gt-members", "メンバー数 3 以下の値を入力してください (4 はメンバー数を超えています)",
				"멤버 수 3 이하의 값을 입력하세요(4는 멤버 수보다 많습니다)", "enter at most the number of members, 3, not 4"}},
	} {
		for lang, text := range map[string]string{"ja": c.want.ja, "ko": c.want.ko, "en": c.want.en} {
			t.Run(c.name+"/"+lang, func(t *testing.T) {
				in := map[string]any{"lang": lang}
				for k, v := range c.in {
					in[k] = v
				}
				got := Call("quorum", in)
				if got["errorCode"] != c.want.code || got["errorField"] != c.field || got["errorText"] != text {
					t.Errorf("got code %v field %v text %q, want %s %s %q", got["errorCode"], got["errorField"], got["errorText"], c.want.code, c.field, text)
				}
				for _, bad := range []string{"members", "failed", "integer", "string", "number"} {
					if lang != "en" && strings.Contains(got["errorText"].(string), bad) {
						t.Errorf("%q names %q", got["errorText"], bad)
					}
				}
			})
		}
	}
}

// TestFieldText puts the visible label before the text, as the format
// (a UI string) says, and gives the text alone without a label.
func TestFieldText(t *testing.T) {
	e := &InputError{Field: "certSANs[1]", Reason: R("err.not-integer", "value", "x")}
	if k := e.Key(); k != "certSANs" {
		t.Errorf("Key() = %q", k)
	}
	if got := e.FieldText("ja", "メンバー数 (N)", "{label}: {text}"); got != "メンバー数 (N): 整数を入力してください" {
		t.Errorf("FieldText = %q", got)
	}
	if got := e.FieldText("ko", "", "{label}: {text}"); got != "정수를 입력하세요" {
		t.Errorf("FieldText without a label = %q", got)
	}
	if (&InputError{Field: "dial", Reason: R(CodeEmpty)}).Empty() != true || e.Empty() {
		t.Error("Empty")
	}
}
