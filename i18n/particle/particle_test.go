package particle

import (
	"reflect"
	"testing"
)

func TestChoose(t *testing.T) {
	for _, c := range []struct{ word, pair, want string }{
		// the review's examples
		{"쿼럼 2", "을/를", "를"},
		{"cp-1", "이/가", "이"},
		{"cp-1", "으로/로", "로"},
		{"10.0.0.120", "으로/로", "으로"},
		{"6443", "은/는", "은"},
		{"etcd", "은/는", "는"},
		{"10.0.0.111", "을/를", "을"},
		{"10.0.0.111, 10.96.0.1", "과/와", "과"},
		{"10.0.0.100:6443", "은/는", "은"},
		{"cp-2, cp-3", "은/는", "은"},
		{"https://10.0.0.12:6443 (cp-2)", "으로/로", "으로"},
		// Hangul: no final, ㄹ, another final
		{"노드", "이/가", "가"},
		{"멤버", "을/를", "를"},
		{"서울", "으로/로", "로"},
		{"서울", "이/가", "이"},
		{"쿼럼", "과/와", "과"},
		{"엔드포인트", "은/는", "는"},
		// digits, and numbers by their last spoken syllable
		{"0", "이/가", "이"},
		{"1", "으로/로", "로"},
		{"2", "이/가", "가"},
		{"3", "을/를", "을"},
		{"4", "은/는", "는"},
		{"5", "과/와", "와"},
		{"6", "으로/로", "으로"},
		{"7", "으로/로", "로"},
		{"8", "이/가", "이"},
		{"9", "을/를", "를"},
		{"10", "으로/로", "으로"},
		{"20", "이/가", "이"},
		{"100", "은/는", "은"},
		{"1000", "을/를", "을"},
		{"10000", "이/가", "이"},
		{"1,000", "이/가", "이"},
		{"1000000000000", "이/가", "가"}, // 일조
		{"000", "이/가", "이"},           // 영영영
		{"65535", "을/를", "를"},
		{"2379", "으로/로", "로"},
		{"10.96.0.0/12", "이/가", "가"},
		{"IPv6", "을/를", "를"},
		// Latin letters and acronyms by their Korean names
		{"L", "으로/로", "로"},
		{"M", "으로/로", "으로"},
		{"N", "이/가", "이"},
		{"R", "으로/로", "로"},
		{"A", "이/가", "가"},
		{"API", "은/는", "는"},
		{"DNS", "을/를", "를"},
		{"URL", "으로/로", "로"},
		{"CIDR", "이/가", "가"},
		{"PEM", "을/를", "을"},
		{"VIP", "으로/로", "로"},
		{"cp", "이/가", "가"},
		{"lb", "을/를", "를"},
		{"vm", "이/가", "이"},
		// words, table and spelling
		{"kubectl", "으로/로", "로"},
		{"kubeadm", "은/는", "은"},
		{"kubelet", "이/가", "이"},
		{"apiserver", "와/과", "와"},
		{"nodeName", "을/를", "을"},
		{"controlPlaneEndpoint", "이/가", "가"},
		{"kubeAPI", "이/가", "가"},
		{"server", "은/는", "는"},
		{"file", "으로/로", "로"},
		{"engine", "이/가", "이"},
		{"ping", "을/를", "을"},
		{"secret", "이/가", "이"},
		{"host", "이/가", "가"},
		{"check", "을/를", "를"},
		{"app", "이/가", "이"},
		{"integer", "이어야/여야", "여야"},
		{"object or string", "이어야/여야", "이어야"},
		// quotes, punctuation, brackets and glosses
		{"\"cp-1\"", "이/가", "이"},
		{"`etcd`", "을/를", "를"},
		{"6443.", "은/는", "은"},
		{"[::1]", "이/가", "이"},
		{"쿼럼(quorum)", "은/는", "은"},
		{"엔드포인트(10.0.0.100)", "은/는", "는"},
		{"(cp-2)", "이/가", "가"},
		{"50%", "이/가", "가"},
		// other pairs, in either order
		{"cp-1", "로/으로", "로"},
		{"6443", "는/은", "은"},
		{"cp-2", "이라는/라는", "라는"},
		{"kubeadm", "이나/나", "이나"},
		{"etcd", "아/야", "야"},
		{"cp-1", "으로부터/로부터", "로부터"},
		// unreadable: both forms, written the usual way
		{"", "은/는", "은(는)"},
		{"証明書", "으로/로", "(으)로"},
		{"証明書", "이/가", "이(가)"},
		// a pair that is none
		{"etcd", "foo", "foo"},
		{"etcd", "에/에서", "에/에서"},
	} {
		if got := Choose(c.word, c.pair); got != c.want {
			t.Errorf("Choose(%q, %q) = %q, want %q (%v)", c.word, c.pair, got, c.want, FinalOf(c.word))
		}
	}
}

func TestKo(t *testing.T) {
	for _, c := range [][3]string{
		{"cp-1", "으로/로", "cp-1로"},
		{"쿼럼 2", "을/를", "쿼럼 2를"},
		{"10.0.0.120", "으로/로", "10.0.0.120으로"},
		{"6443", "은/는", "6443은"},
		{"etcd", "은/는", "etcd는"},
	} {
		if got := Ko(c[0], c[1]); got != c[2] {
			t.Errorf("Ko(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestResolve(t *testing.T) {
	for in, want := range map[string]string{
		"cp-1{이/가} 다운되었습니다":                   "cp-1이 다운되었습니다",
		"엔드포인트(10.0.0.100:6443){은/는} cp-1 노드": "엔드포인트(10.0.0.100:6443)는 cp-1 노드",
		"쿼럼 2{과/와} 같고 6443{으로/로}":             "쿼럼 2와 같고 6443으로",
		"{node}{이/가}":           "{node}가", // an unfilled placeholder reads as node
		"{x509} 그대로, {a/b} 그대로": "{x509} 그대로, {a/b} 그대로",
		"no marker":             "no marker",
	} {
		if got := Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSpaced(t *testing.T) {
	for s, want := range map[string][]string{
		"etcd 는 API 에 닿습니다":        {"d 는", "I 에"},
		"Tab 으로 이동해 Enter 나 스페이스":  {"b 으로", "r 나"},
		"{node} 가 다운되었습니다":         {"{node} 가"},
		"%[1]s 는 주소":               {"%[1]s 는"},
		"IP SAN ({san}) 에 들어 있습니다": {") 에"},
		"1 부터 65535 까지":            {"1 부터", "5 까지"},
		"kubeadm 을 씁니다. cp-1 이.":   {"m 을", "1 이"},
		"etcd는 API에 닿습니다":          nil,
		"3 이상, 1 이하":               nil, // 이상, 이하 are words
		"L4 로드밸런서":                 nil,
		"API 이용, Tab 이동, etcd 이름":  nil,
		"v1 이후 DNS 도메인":            nil,
		"etcd 가이드, OK 나중에, API 에러": nil,
		"kubeadm 과정":               nil,
		"kubeadm 이 노드에 인증서를 만듭니다":  nil, // the demonstrative
		"쿼럼 2 개":                   nil, // a counter's spacing is not a particle's
		"노드 는":                     nil, // Hangul before: not this check's business
	} {
		if got := Spaced(s); !reflect.DeepEqual(got, want) {
			t.Errorf("Spaced(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestUnchosen(t *testing.T) {
	for s, want := range map[string][]string{
		"{node}가 다운":           {"{node}가"},
		"쿼럼 {quorum} 을 채웁니다":   {"{quorum} 을"},
		"%[1]s는 주소":            {"%[1]s는"},
		"{value}라는 계산기":        {"{value}라는"},
		"{want}여야 합니다":         {"{want}여야"},
		"{node}{이/가} 다운":       nil,
		"{node} 노드가 다운":        nil,
		"{node}의 apiserver":    nil, // 의 does not change
		"{value}에 스킴이":         nil,
		"/{mask} 이상이어야":        nil,
		"멤버 {members}개 중":      nil,
		"https://{endpoint}인데": nil,
		"쿼럼({quorum}개)을":       nil,
	} {
		if got := Unchosen(s); !reflect.DeepEqual(got, want) {
			t.Errorf("Unchosen(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestMarkers(t *testing.T) {
	got := Markers("{node}{이/가} {x509} {endpoint}{으로/로} {에/에서}")
	if want := []string{"{이/가}", "{으로/로}"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Markers = %q, want %q", got, want)
	}
}
