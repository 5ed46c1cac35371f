// The state an index's build leaves for the next (State): its head, naming
// the pages, their lengths and fingerprints, and the shards; a block per
// shard with its keys and records.

package search

import (
	"encoding/binary"
	"strings"
	"unsafe"
)

// State is what a build of an index leaves for the next to start from
// (Update): its head, and the block of each of its shards.
type State struct {
	Head   []byte
	Blocks []Block
}

// Block is the state of one shard: its keys and records, named by the
// shard's sum (File.Sum).
type Block struct {
	Name string // the shard's
	Sum  uint64
	Data []byte
}

// stateMagic begins every head; bump stateVersion whenever the head or
// the blocks change shape.
const (
	stateMagic   = "kakehashi-index-state"
	stateVersion = 1
)

// builtShard is a shard of a built index as its state keeps it.
type builtShard struct {
	first      string
	keys, post int // the number of keys, of postings
	name       string
	sum        uint64
	size       int    // bytes of its script
	block      []byte // keys and records (encodeBlock)
}

// head is a decoded head.
type head struct {
	lang       string
	shardBytes int
	urls       []string
	fps        []uint64
	lens       []int
	shards     []builtShard // without their blocks
}

// State is the state of b, for the next build to update it: nil when b
// was not made by Build or Update with fingerprints (Page.FP).
func (b *Built) State() *State {
	if b.state == nil {
		return nil
	}
	st := &State{Head: encodeHead(b.state)}
	for _, sh := range b.state.shards {
		st.Blocks = append(st.Blocks, Block{Name: sh.name, Sum: sh.sum, Data: sh.block})
	}
	return st
}

// stateOf records, for State, what Build made of pages (sorted by URL,
// with their lengths) and the shards cut from the keys.
func stateOf(lang string, opts Options, ps []Page, lens []int, shards []shard, files []File) *head {
	h := &head{lang: lang, shardBytes: opts.ShardBytes, lens: lens}
	for _, p := range ps {
		h.urls = append(h.urls, p.URL)
		h.fps = append(h.fps, p.FP)
	}
	for i, sh := range shards {
		h.shards = append(h.shards, builtShard{first: sh.first, keys: sh.nkeys, post: sh.npost, name: files[i].Path[len(ShardPrefix(lang)) : len(files[i].Path)-len(".js")],
			sum: sh.sum, size: len(files[i].Data), block: encodeBlock(sh.keys, sh.post)})
	}
	return h
}

func encodeBlock(keys, post []byte) []byte {
	b := binary.AppendUvarint(make([]byte, 0, len(keys)+len(post)+4), uint64(len(keys)))
	return append(append(b, keys...), post...)
}

// decodeBlock is the keys and records of a block, each space-separated:
// b's bytes, not copies (a block is never written to; see Update).
func decodeBlock(b []byte) (keys, post string, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", "", false
	}
	rest := b[k:]
	if len(rest) == 0 {
		return "", "", true
	}
	all := unsafe.String(&rest[0], len(rest))
	return all[:n], all[n:], true
}

func encodeHead(h *head) []byte {
	b := []byte(stateMagic)
	b = binary.AppendUvarint(b, stateVersion)
	b = binary.AppendUvarint(b, formatVersion)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(v int) { b = binary.AppendUvarint(b, uint64(v)) }
	str(h.lang)
	num(h.shardBytes)
	num(len(h.urls))
	for i, u := range h.urls {
		str(u)
		b = binary.LittleEndian.AppendUint64(b, h.fps[i])
		num(h.lens[i])
	}
	num(len(h.shards))
	for _, sh := range h.shards {
		str(sh.first)
		num(sh.keys)
		num(sh.post)
		str(sh.name)
		b = binary.LittleEndian.AppendUint64(b, sh.sum)
		num(sh.size)
	}
	return b
}

func decodeHead(b []byte) (*head, bool) {
	if !strings.HasPrefix(string(b), stateMagic) {
		return nil, false
	}
	b = b[len(stateMagic):]
	bad := false
	num := func() int {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > 1<<40 {
			bad = true
			return 0
		}
		b = b[k:]
		return int(v)
	}
	str := func() string {
		n := num()
		if bad || n > len(b) {
			bad = true
			return ""
		}
		s := string(b[:n])
		b = b[n:]
		return s
	}
	u64 := func() uint64 {
		if len(b) < 8 {
			bad = true
			return 0
		}
		v := binary.LittleEndian.Uint64(b)
		b = b[8:]
		return v
	}
	if num() != stateVersion || num() != formatVersion {
		return nil, false
	}
	h := &head{lang: str(), shardBytes: num()}
	n := num()
	if bad || n > len(b) {
		return nil, false
	}
	for range n {
		h.urls = append(h.urls, str())
		h.fps = append(h.fps, u64())
		h.lens = append(h.lens, num())
	}
	ns := num()
	if bad || ns > len(b) {
		return nil, false
	}
	for range ns {
		sh := builtShard{first: str(), keys: num(), post: num(), name: str(), sum: u64(), size: num()}
		h.shards = append(h.shards, sh)
	}
	if bad || len(b) != 0 {
		return nil, false
	}
	return h, true
}

// withFPs gives st the fingerprints of the pages now, by URL order.
func (h *head) withFPs(urls []string, fps []uint64) {
	byURL := make(map[string]uint64, len(urls))
	for i, u := range urls {
		byURL[u] = fps[i]
	}
	h.fps = make([]uint64, len(h.urls))
	for d, u := range h.urls {
		h.fps[d] = byURL[u]
	}
}

// parseRecord reads a record: the key's idf, then its postings.
func parseRecord(rec string) (idf int, ps []wposting, ok bool) {
	var vs [2]int
	k, doc := 0, 0
	v, pending := 0, false
	first := true
	for i := 0; i < len(rec); i++ {
		g := varGroup[rec[i]]
		if g < 0 {
			return 0, nil, false
		}
		v = v<<5 | int(g&31)
		if g >= 32 { // a group of cont: more follow
			pending = true
			if v > 1<<40 {
				return 0, nil, false
			}
			continue
		}
		pending = false
		if first {
			idf, first = v, false
		} else {
			vs[k] = v
			if k++; k == 2 {
				doc += vs[0]
				ps = append(ps, wposting{doc: int32(doc), w: uint32(vs[1])})
				k = 0
			}
		}
		v = 0
	}
	if pending || first || k != 0 {
		return 0, nil, false
	}
	return idf, ps, true
}

// varGroup is, for each byte, its 5-bit group in appendVarint's
// alphabets: the value for varTerm's, 32 + the value for varCont's, -1
// for any other byte.
var varGroup = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(varTerm) {
		t[varTerm[i]] = int8(i)
		t[varCont[i]] = int8(32 + i)
	}
	return t
}()

// appendRecord writes a record (see shardScript).
func appendRecord(b []byte, idf int, ps []wposting) []byte {
	b = appendVarint(b, idf)
	prev := 0
	for _, p := range ps {
		b = appendVarint(b, int(p.doc)-prev)
		b = appendVarint(b, int(p.w))
		prev = int(p.doc)
	}
	return b
}

// Blocks names the blocks of the state whose head is prev (State.Head),
// without their data: what the next build must find again when this one
// takes the index as the last left it.
func Blocks(prev []byte) ([]Block, bool) {
	h, ok := decodeHead(prev)
	if !ok {
		return nil, false
	}
	bs := make([]Block, len(h.shards))
	for i, sh := range h.shards {
		bs[i] = Block{Name: sh.name, Sum: sh.sum}
	}
	return bs, true
}
