package calc

import (
	"net"
	"testing"
)

var ipInputs = []string{
	"10.0.0.111", "10.0.0.120", "0.0.0.0", "255.255.255.255", "256.0.0.1", "1.2.3", "1.2.3.4.5",
	"01.2.3.4", "1.2.3.04", "1..2.3", "1.2.3.4 ", " 1.2.3.4", "a.b.c.d", "", ".", "1.2.3.",
	"::", "::1", "1::", "fe80::1", "FE80::1", "2001:db8::68", "2001:db8:0:0:1:0:0:1",
	"2001:0db8:0000:0000:0000:0000:0000:0001", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9",
	"1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1::8", "1:::8", "1::2::3", ":1::", "1::2:", "12345::",
	"::ffff:10.0.0.1", "::ffff:0a00:0001", "::10.0.0.1", "1:2:3:4:5:6:10.0.0.1",
	"1:2:3:4:5:6:7:10.0.0.1", "1::10.0.0.1", "::ffff:10.0.0", "fe80::1%eth0", "[::1]",
	"0:0:0:0:0:0:0:0", "1:0:0:2:0:0:0:3", "1:0:0:0:2:0:0:3", "0:0:1:0:0:1:0:0", "1:0:1:0:1:0:1:0",
	"abcd:ef01:2345:6789:abcd:ef01:2345:6789", "1:2:3:4:5:6:7:", "1:2:3:4:5:6:7", "g::1",
}

// TestParseIPMatchesNet checks the strict parser and String against net.
func TestParseIPMatchesNet(t *testing.T) {
	for _, s := range ipInputs {
		want := net.ParseIP(s)
		got, ok := parseIP(s, false)
		if ok != (want != nil) {
			t.Errorf("parseIP(%q) ok = %v, net.ParseIP = %v", s, ok, want)
			continue
		}
		if !ok {
			continue
		}
		if !net.IP(got[:]).Equal(want) {
			t.Errorf("parseIP(%q) = %v, want %v", s, net.IP(got[:]), want)
		}
		if got.String() != want.String() {
			t.Errorf("parseIP(%q).String() = %q, want %q", s, got.String(), want.String())
		}
	}
}

func TestParseIPSloppy(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"010.000.000.001", "10.0.0.1"}, {"1.2.3.04", "1.2.3.4"}, {"::ffff:010.0.0.1", "10.0.0.1"},
	} {
		got, ok := parseIP(c.in, true)
		if !ok || got.String() != c.want {
			t.Errorf("parseIP(%q, sloppy) = %v %v, want %s", c.in, got, ok, c.want)
		}
		if _, ok := parseIP(c.in, false); ok {
			t.Errorf("parseIP(%q, strict) accepted", c.in)
		}
	}
}

func TestParseCIDRMatchesNet(t *testing.T) {
	for _, s := range []string{
		"10.96.0.0/12", "10.96.0.5/12", "10.96.0.0/33", "10.96.0.0/-1", "10.96.0.0/", "10.96.0.0",
		"10.96.0.0/012", "10.96.0.0/+12", "0.0.0.0/0", "1.2.3.4/32", "fd00::/108", "fd00::1/64",
		"fd00::/129", "::ffff:10.0.0.0/104", "::/0", "10.1.2.3/7", "10.1.2.3/31",
	} {
		_, wantNet, err := net.ParseCIDR(s)
		got, ok := parseCIDR(s, false)
		if ok != (err == nil) {
			t.Errorf("parseCIDR(%q) ok = %v, net err = %v", s, ok, err)
			continue
		}
		if !ok {
			continue
		}
		if got.String() != wantNet.String() {
			t.Errorf("parseCIDR(%q) = %s, want %s", s, got, wantNet)
		}
		ones, bits := wantNet.Mask.Size()
		if got.ones != ones || got.bits != bits {
			t.Errorf("parseCIDR(%q) = /%d of %d, want /%d of %d", s, got.ones, got.bits, ones, bits)
		}
	}
}

func TestCIDRIndexedAndSize(t *testing.T) {
	for _, c := range []struct {
		cidr  string
		first string
		size  int64
	}{
		{"10.96.0.0/12", "10.96.0.1", 1 << 20},
		{"10.0.0.0/28", "10.0.0.1", 16},
		{"192.168.0.0/32", "", 1},
		{"fd00::/108", "fd00::1", 1 << 20},
		{"10.0.0.255/24", "10.0.0.1", 256},
		{"0.0.0.0/0", "0.0.0.1", 0},
		{"::/0", "::1", 0},
		{"fd00::/64", "fd00::1", 1<<63 - 1},
	} {
		p, ok := parseCIDR(c.cidr, false)
		if !ok {
			t.Fatalf("parseCIDR(%q) failed", c.cidr)
		}
		first, ok := p.indexed(1)
		if got := map[bool]string{true: first.String(), false: ""}[ok]; got != c.first {
			t.Errorf("%s indexed(1) = %q, want %q", c.cidr, got, c.first)
		}
		if got := p.rangeSize(); got != c.size {
			t.Errorf("%s rangeSize = %d, want %d", c.cidr, got, c.size)
		}
	}
}
