package highlight_test

import (
	"fmt"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/highlight"
)

// benchCode is a shell block of the course's kind.
const benchCode = `ETCDCTL_API=3 etcdctl member list \
  --endpoints=https://127.0.0.1:2379 \
  --cacert=/etc/kubernetes/pki/etcd/ca.crt \
  --cert=/etc/kubernetes/pki/etcd/server.crt \
  --key=/etc/kubernetes/pki/etcd/server.key
kubectl get nodes -o wide
`

// BenchmarkBlockCold highlights a block never seen before each time.
func BenchmarkBlockCold(b *testing.B) {
	h, err := highlight.New("", "")
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		r := h.Block(highlight.Block{Lang: "bash", Code: fmt.Sprintf("# step %d\n%s", i, benchCode)})
		if r.HTML == "" {
			b.Fatal("no HTML")
		}
	}
	if hits, _ := h.Stats(); hits != 0 {
		b.Fatalf("%d cache hits, want none", hits)
	}
}

// BenchmarkBlockCached asks again for a block already highlighted, as the
// second language of a part does.
func BenchmarkBlockCached(b *testing.B) {
	h, err := highlight.New("", "")
	if err != nil {
		b.Fatal(err)
	}
	blk := highlight.Block{Lang: "bash", Code: benchCode}
	h.Block(blk)
	for b.Loop() {
		if r := h.Block(blk); r.HTML == "" {
			b.Fatal("no HTML")
		}
	}
	if _, misses := h.Stats(); misses != 1 {
		b.Fatalf("%d blocks highlighted, want 1", misses)
	}
}
