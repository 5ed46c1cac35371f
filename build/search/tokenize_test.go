package search

import (
	"slices"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"katakana with long vowel and small kana", "クォーラム", []string{"クォ", "ォー", "ーラ", "ラム"}},
		{"hangul with particle", "쿼럼은", []string{"쿼럼", "럼은"}},
		{"single character run is a unigram", "1 台", []string{"1", "台"}},
		{"kanji and kana stay one run", "確認する", []string{"確認", "認す", "する"}},
		{"mixed code and Japanese", "`etcdctl member list` で確認", []string{"etcdctl", "member", "list", "で確", "確認"}},
		{"mixed Korean", "etcd 쿼럼을 확인", []string{"etcd", "쿼럼", "럼을", "확인"}},
		{"Japanese then Hangul split", "日本한국", []string{"日本", "한국"}},
		{"full-width latin", "ｋｕｂｅｃｔｌ", []string{"kubectl"}},
		{"full-width digits and case", "ＫＵＢＥ１２３", []string{"kube123"}},
		{"half-width katakana", "ｸｫｰﾗﾑ", []string{"クォ", "ォー", "ーラ", "ラム"}},
		{"half-width voiced mark composes", "ｶﾞｲﾄﾞ", []string{"ガイ", "イド"}},
		{"case folding", "Kubernetes API", []string{"kubernetes", "api"}},
		{"hyphenated token whole and parts", "kube-apiserver", []string{"kube-apiserver", "kube", "apiserver"}},
		{"IPv4 address", "10.0.0.120", []string{"10.0.0.120", "10", "0", "0", "120"}},
		{"CIDR", "192.168.0.0/16", []string{"192.168.0.0/16", "192", "168", "0", "0", "16"}},
		{"flag loses its dashes", "--control-plane-endpoint", []string{"control-plane-endpoint", "control", "plane", "endpoint"}},
		{"flag with value", "--apiserver-advertise-address=10.0.0.1", []string{"apiserver-advertise-address", "apiserver", "advertise", "address", "10.0.0.1", "10", "0", "0", "1"}},
		{"sentence period is not a joiner", "etcd. Then", []string{"etcd", "then"}},
		{"path", "/etc/kubernetes/pki", []string{"etc/kubernetes/pki", "etc", "kubernetes", "pki"}},
		{"host and port", "lb.example.com:6443", []string{"lb.example.com:6443", "lb", "example", "com", "6443"}},
		{"latin glued to Japanese", "kubectlで", []string{"kubectl", "で"}},
		{"middle dot separates", "コントロール・プレーン", []string{"コン", "ント", "トロ", "ロー", "ール", "プレ", "レー", "ーン"}},
		{"ideographic space and brackets", "「高可用性」\u3000構成", []string{"高可", "可用", "用性", "構成"}},
		{"circled number", "①", []string{"1"}},
		{"accented latin", "Café", []string{"café"}},
		{"empty", "", nil},
		{"punctuation only", "、。!?", nil},
		{"overlong token dropped", strings.Repeat("a", 65), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokenize(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTokenizePos(t *testing.T) {
	tests := []struct {
		in   string
		want []Token
	}{
		{"a クォ", []Token{{"a", 0, 1}, {"クォ", 2, 8}}},
		{"ｋｕｂｅ x", []Token{{"kube", 0, 12}, {"x", 13, 14}}},
		{"ｶﾞｲ", []Token{{"ガイ", 0, 9}}},
		{"kube-api", []Token{{"kube-api", 0, 8}, {"kube", 0, 4}, {"api", 5, 8}}},
		{"\xffab", []Token{{"ab", 1, 3}}},
	}
	for _, tt := range tests {
		got := TokenizePos(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("TokenizePos(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		for _, tok := range got {
			if tok.Start < 0 || tok.End > len(tt.in) || tok.Start >= tok.End {
				t.Errorf("TokenizePos(%q): bad range %+v", tt.in, tok)
			}
		}
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  etcdctl   member\tlist ", "etcdctl member list"},
		{"ＫＵＢＥ-ApiServer!", "kube-apiserver"},
		{"「クォーラム」を確認", "クォーラム を確認"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestVarint(t *testing.T) {
	var b []byte
	vals := []int{0, 1, 31, 32, 63, 1023, 1024, 123456}
	for _, v := range vals {
		b = appendVarint(b, v)
	}
	got, ok := readVarints(string(b))
	if !ok || !slices.Equal(got, vals) {
		t.Errorf("round trip = %v %v, want %v", got, ok, vals)
	}
	for _, bad := range []string{"w", " ", "\"", "0w"} {
		if _, ok := readVarints(bad); ok {
			t.Errorf("readVarints(%q) accepted", bad)
		}
	}
}
