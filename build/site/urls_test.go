package site

import "testing"

func TestRel(t *testing.T) {
	tests := []struct{ from, to, want string }{
		{"/ja/cka/05-ha-cluster/", "/css/main.css", "../../../css/main.css"},
		{"/ja/cka/05-ha-cluster/", "/ja/cka/02-control-plane/", "../02-control-plane/"},
		{"/ja/cka/05-ha-cluster/", "/ko/cka/05-ha-cluster/", "../../../ko/cka/05-ha-cluster/"},
		{"/ja/cka/05-ha-cluster/", "/ja/cka/05-ha-cluster/", "./"},
		{"/ja/cka/05-ha-cluster/", "/ja/cka/", "../"},
		{"/ja/cka/", "/ja/cka/05-ha-cluster/", "05-ha-cluster/"},
		{"/", "/ja/", "ja/"},
		{"/", "/", "./"},
		{"/404.html", "/css/main.css", "css/main.css"},
		{"/ja/", "/ja/index.xml", "index.xml"},
		{"/ja/cka/a/", "/ja/cka/b/#x", "../b/#x"},
	}
	for _, tt := range tests {
		if got := Rel(tt.from, tt.to); got != tt.want {
			t.Errorf("Rel(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}
