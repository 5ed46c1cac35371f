package diagram

import (
	"reflect"
	"testing"

	"github.com/kakehashi-dev/kakehashi/i18n/particle"
)

// TestKoreanLabelParticles checks the Korean words and sentence patterns:
// particles attached to their word, and after an argument a marker the
// chooser resolves rather than a form picked for today's word.
func TestKoreanLabelParticles(t *testing.T) {
	l := KoreanLabels()
	v := reflect.ValueOf(l.Desc)
	texts := map[string]string{
		"ControlPlane": l.ControlPlane, "Etcd": l.Etcd, "Worker": l.Worker,
		"LoadBalancer": l.LoadBalancer, "Endpoint": l.Endpoint, "Down": l.Down, "Apiserver": l.Apiserver,
	}
	for i := 0; i < v.NumField(); i++ {
		texts["Desc."+v.Type().Field(i).Name] = v.Field(i).String()
	}
	for name, s := range texts {
		if p := particle.Spaced(s); p != nil {
			t.Errorf("%s %q: a space before a particle: %q", name, s, p)
		}
		if p := particle.Unchosen(s); p != nil {
			t.Errorf("%s %q: a particle after an argument without the chooser: %q", name, s, p)
		}
	}
}

// TestKoreanDescribeChoosesParticles renames the words, as a site may,
// and checks the particles follow them.
func TestKoreanDescribeChoosesParticles(t *testing.T) {
	l := KoreanLabels()
	l.Endpoint = "접속 주소"
	l.Apiserver = "API 서버"
	got := l.describe(Spec{Type: Stacked, ControlPlanes: 1, Endpoint: EndpointNode})
	want := "stacked etcd: control plane 1대 (각 노드에 API 서버와 etcd), 접속 주소는 cp-1 노드의 주소."
	if got != want {
		t.Errorf("describe =\n%s\nwant\n%s", got, want)
	}
	l.Endpoint = "엔드포인트 URL"
	l.Apiserver = "kube-apiserver 프로세스"
	got = l.describe(Spec{Type: Stacked, ControlPlanes: 1, Endpoint: EndpointNode, EndpointAddr: "10.0.0.111:6443"})
	want = "stacked etcd: control plane 1대 (각 노드에 kube-apiserver 프로세스와 etcd), 엔드포인트 URL(10.0.0.111:6443)은 cp-1 노드의 주소."
	if got != want {
		t.Errorf("describe =\n%s\nwant\n%s", got, want)
	}
}
