package calc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/i18n/particle"
)

// TestKoreanTemplates reads every Korean template of messages.go (the third
// text each case returns) and checks its particles: attached to the word
// before them, and after a placeholder either a marker the chooser
// resolves ({node}{이/가}) or behind a fixed word.
func TestKoreanTemplates(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "messages.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	ast.Inspect(f, func(n ast.Node) bool {
		cc, ok := n.(*ast.CaseClause)
		if !ok || len(cc.List) == 0 {
			return true
		}
		code := ""
		switch e := cc.List[0].(type) {
		case *ast.Ident:
			code = e.Name
		case *ast.BasicLit:
			code, _ = strconv.Unquote(e.Value)
		}
		for _, st := range cc.Body {
			ret, ok := st.(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 4 {
				continue
			}
			lit, ok := ret.Results[2].(*ast.BasicLit)
			if !ok {
				continue
			}
			ko, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			seen++
			pos := fset.Position(lit.Pos())
			if p := particle.Spaced(ko); p != nil {
				t.Errorf("%s: %s: a space before a particle: %q", pos, code, p)
			}
			if p := particle.Unchosen(ko); p != nil {
				t.Errorf("%s: %s: a particle after a placeholder without the chooser: %q (write {x}{이/가})", pos, code, p)
			}
		}
		return true
	})
	if seen < 50 {
		t.Errorf("found only %d Korean templates; the scan is broken", seen)
	}
}

// TestKoreanParticlesChosen renders templates whose particles follow a
// value, with values that take each form.
func TestKoreanParticlesChosen(t *testing.T) {
	for _, c := range []struct {
		r    Reason
		want string
	}{
		{R(HAAPINodeDown, "node", "cp-1"), "cp-1이 다운되어 그 apiserver도 멈춰 있습니다."},
		{R(HAAPINodeDown, "node", "cp-2"), "cp-2가 다운되어 그 apiserver도 멈춰 있습니다."},
		{R(AdviceAtLimit, "alive", "2", "quorum", "2"), "더 이상 여유가 없습니다: 생존 멤버 수(2개)가 쿼럼(2개)과 같습니다. 한 대만 더 다운되면 모든 쓰기가 멈춥니다."},
		{R(WarnNoEndpoint, "address", "10.0.0.111"), "controlPlaneEndpoint가 없습니다. kubeconfig와 kubelet은 이 노드의 주소 10.0.0.111을 향합니다. 나중에 컨트롤 플레인을 늘리려면 인증서와 kubeconfig를 다시 만들어야 하므로, 처음 kubeadm init부터 로드밸런서 주소를 지정하세요."},
		{R(HALBDown, "endpoint", "lb.example.com:6443"), "로드밸런서 lb.example.com:6443이 다운되었습니다. 엔드포인트를 통해서는 API에 접근할 수 없습니다."},
		{R(HALBNoBackend, "endpoint", "10.0.0.100:6443"), "로드밸런서 10.0.0.100:6443은 동작하지만 뒤에서 응답하는 apiserver가 없습니다."},
		{R(HAKubeletsOK, "endpoint", "10.0.0.100:6443"), "워커 kubelet은 10.0.0.100:6443을 통해 API에 접근합니다. 노드 상태와 Pod 갱신이 계속됩니다."},
		{R("err.unknown-function", "value", "cp-1"), "cp-1이라는 계산기는 없습니다"},
		{R("err.type", "want", "integer", "got", "string"), "integer여야 합니다(string이 지정되었습니다)"},
		{R("err.members-min", "value", "0"), "1 이상의 값을 입력하세요(0은 지정할 수 없습니다)"},
		{R("err.failed-gt-members", "value", "4", "members", "3"), "멤버 수 3 이하의 값을 입력하세요(4는 멤버 수보다 많습니다)"},
		{R(VerifyIPNotCovered, "x509", "x509: …", "ips", "10.96.0.1, 10.0.0.111", "dns", "cp-1"), "x509: … — TLS 검증은 실패합니다. IP는 인증서의 IP SAN(10.96.0.1, 10.0.0.111)과만 비교되며, DNS 이름(cp-1)은 고려되지 않습니다."},
	} {
		if got := c.r.Text("ko"); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.r.Code, got, c.want)
		}
	}
	hd := R(HADirectDial, "serving", "cp-2, cp-3", "ip", "10.0.0.12", "node", "cp-2").Text("ko")
	for _, want := range []string{"cp-2, cp-3은 응답합니다", "https://10.0.0.12:6443(cp-2)으로 바꾸면"} {
		if !strings.Contains(hd, want) {
			t.Errorf("HADirectDial: %q lacks %q", hd, want)
		}
	}
}
