package calc

import (
	"errors"
	"testing"
)

func TestQuorumSeed004Table(t *testing.T) {
	// The table of seed 004: members, quorum, failures tolerated.
	for _, c := range []struct{ n, q, tol int }{{1, 1, 0}, {2, 2, 0}, {3, 2, 1}, {4, 3, 1}, {5, 3, 2}} {
		r, err := Quorum(c.n, 0)
		if err != nil {
			t.Fatalf("Quorum(%d, 0): %v", c.n, err)
		}
		if r.Quorum != c.q || r.Tolerance != c.tol || !r.Writable {
			t.Errorf("Quorum(%d, 0) = q%d t%d w%v, want q%d t%d writable", c.n, r.Quorum, r.Tolerance, r.Writable, c.q, c.tol)
		}
		// Exactly tolerance failures keep it writable, one more does not.
		if r, _ := Quorum(c.n, c.tol); !r.Writable {
			t.Errorf("Quorum(%d, %d) not writable", c.n, c.tol)
		}
		if r, _ := Quorum(c.n, c.tol+1); r.Writable {
			t.Errorf("Quorum(%d, %d) writable", c.n, c.tol+1)
		}
	}
}

func TestQuorumErrors(t *testing.T) {
	for _, c := range []struct {
		n, f  int
		field string
	}{{0, 0, "members"}, {-1, 0, "members"}, {3, -1, "failed"}, {3, 4, "failed"}} {
		_, err := Quorum(c.n, c.f)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("Quorum(%d, %d) error = %v, want one naming %q", c.n, c.f, err, c.field)
		}
	}
}

func TestReasonText(t *testing.T) {
	r := R(AdviceEven, "members", "4", "odd", "3", "tolerance", "1", "quorum", "3")
	for _, c := range []struct{ lang, want string }{
		{"en", "An even size: 4 members need 3 for quorum and tolerate 1 failure(s), no more than 3 members. Use an odd number (3 or 5)."},
		{"ja", "偶数です: 4 メンバーではクォーラムが 3、耐えられる障害は 1 台で、3 メンバーのときと変わりません。奇数 (3 または 5) にしてください。"},
		{"ko", "멤버 수가 짝수입니다: 멤버 4개의 쿼럼은 3개이고, 견딜 수 있는 장애는 1대로 멤버 3개일 때와 같습니다. 홀수(3 또는 5)로 구성하세요."},
		// A language the catalogue is not written in reads English.
		{"de", "An even size: 4 members need 3 for quorum and tolerate 1 failure(s), no more than 3 members. Use an odd number (3 or 5)."},
	} {
		if got := r.Text(c.lang); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.lang, got, c.want)
		}
	}
	if got := R("no.such", "b", "2", "a", "1").Text("ja"); got != "no.such a=1 b=2" {
		t.Errorf("unknown code text = %q", got)
	}
}
