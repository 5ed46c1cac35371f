package diagram

import (
	"testing"

	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/i18n/particle"
)

// TestKoreanLabelParticles checks the Korean words and sentence patterns
// of the embedded strings: particles attached to their word, and after an
// argument a marker the chooser resolves rather than a form picked for
// today's word.
func TestKoreanLabelParticles(t *testing.T) {
	for _, k := range LabelKeys() {
		s := i18n.Fallback("ko", k)
		if s == "" {
			t.Errorf("%s: no embedded Korean string", k)
		}
		if p := particle.Spaced(s); p != nil {
			t.Errorf("%s %q: a space before a particle: %q", k, s, p)
		}
		if p := particle.Unchosen(s); p != nil {
			t.Errorf("%s %q: a particle after an argument without the chooser: %q", k, s, p)
		}
	}
}

// TestLabelKeysAreStrings: every key a diagram asks for is a UI string of
// every embedded language.
func TestLabelKeysAreStrings(t *testing.T) {
	for _, lang := range []string{"ja", "ko", "en"} {
		for _, k := range LabelKeys() {
			if i18n.Fallback(lang, k) == "" {
				t.Errorf("%s: no embedded %s string", k, lang)
			}
		}
	}
}

// TestKoreanDescribeChoosesParticles renames the words, as a site may,
// and checks the particles follow them.
func TestKoreanDescribeChoosesParticles(t *testing.T) {
	l := Labels{Lang: "ko", Endpoint: "접속 주소", Apiserver: "API 서버"}.withDefaults()
	got := l.describe(Spec{Type: Stacked, ControlPlanes: 1, Endpoint: EndpointNode})
	want := "stacked etcd: 컨트롤 플레인 1대(각 노드에 API 서버와 etcd), 접속 주소는 cp-1 노드의 주소."
	if got != want {
		t.Errorf("describe =\n%s\nwant\n%s", got, want)
	}
	l.Endpoint = "엔드포인트 URL"
	l.Apiserver = "kube-apiserver 프로세스"
	got = l.describe(Spec{Type: Stacked, ControlPlanes: 1, Endpoint: EndpointNode, EndpointAddr: "10.0.0.111:6443"})
	want = "stacked etcd: 컨트롤 플레인 1대(각 노드에 kube-apiserver 프로세스와 etcd), 엔드포인트 URL(10.0.0.111:6443)은 cp-1 노드의 주소."
	if got != want {
		t.Errorf("describe =\n%s\nwant\n%s", got, want)
	}
}
