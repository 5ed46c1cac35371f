package calc

import "strconv"

// ip is an IPv4 or IPv6 address in 16-byte form; IPv4 addresses are kept
// IPv4-mapped (::ffff:a.b.c.d), as net.IP does, so the two spellings of
// one IPv4 address compare equal like net.IP.Equal.
//
// calc parses addresses itself instead of importing net or net/netip: the
// WebAssembly module must stay small, and those packages cost tens of
// kilobytes. ip_test.go checks parseIP, String and parseCIDR against the
// net package on many inputs.
type ip [16]byte

var v4prefix = [12]byte{10: 0xff, 11: 0xff}

// is4 reports whether a is an IPv4 (or IPv4-mapped) address.
func (a ip) is4() bool { return [12]byte(a[:12]) == v4prefix }

// parseIP parses s as net.ParseIP does (dotted IPv4, IPv6 with an
// optional "::" and an optional trailing dotted IPv4, no zone), except that
// sloppy is true allows leading zeros in IPv4 parts, read as decimal, like
// k8s.io/utils/net.ParseIPSloppy that kubeadm uses for advertise addresses
// and certSANs.
func parseIP(s string, sloppy bool) (ip, bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			var a ip
			copy(a[:], v4prefix[:])
			if !parseV4(s, a[12:], sloppy) {
				return ip{}, false
			}
			return a, true
		case ':':
			return parseV6(s, sloppy)
		}
	}
	return ip{}, false
}

func parseV4(s string, out []byte, sloppy bool) bool {
	part := 0
	for part < 4 {
		if s == "" {
			return false
		}
		if part > 0 {
			if s[0] != '.' {
				return false
			}
			s = s[1:]
		}
		n, digits := 0, 0
		for digits < len(s) && '0' <= s[digits] && s[digits] <= '9' {
			n = n*10 + int(s[digits]-'0')
			digits++
			if n > 255 {
				return false
			}
		}
		if digits == 0 || (digits > 1 && s[0] == '0' && !sloppy) {
			return false
		}
		out[part] = byte(n)
		s = s[digits:]
		part++
	}
	return s == ""
}

func parseV6(s string, sloppy bool) (ip, bool) {
	var a ip
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if s == "" {
			return a, true
		}
	}
	i := 0
	for i < 16 {
		// Hex group, or a trailing IPv4 part.
		n, digits := 0, 0
		for digits < len(s) && digits < 5 {
			c := s[digits]
			var v int
			switch {
			case '0' <= c && c <= '9':
				v = int(c - '0')
			case 'a' <= c && c <= 'f':
				v = int(c-'a') + 10
			case 'A' <= c && c <= 'F':
				v = int(c-'A') + 10
			default:
				v = -1
			}
			if v < 0 {
				break
			}
			n = n*16 + v
			digits++
		}
		if digits == 0 || digits > 4 {
			return ip{}, false
		}
		if digits < len(s) && s[digits] == '.' {
			if ellipsis < 0 && i != 12 || i+4 > 16 {
				return ip{}, false
			}
			if !parseV4(s, a[i:i+4], sloppy) {
				return ip{}, false
			}
			s = ""
			i += 4
			break
		}
		a[i], a[i+1] = byte(n>>8), byte(n)
		i += 2
		s = s[digits:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return ip{}, false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return ip{}, false
			}
			ellipsis = i
			s = s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return ip{}, false
	}
	if i < 16 {
		if ellipsis < 0 {
			return ip{}, false
		}
		n := 16 - i
		for j := i - 1; j >= ellipsis; j-- {
			a[j+n] = a[j]
		}
		for j := ellipsis + n - 1; j >= ellipsis; j-- {
			a[j] = 0
		}
	} else if ellipsis >= 0 {
		return ip{}, false
	}
	return a, true
}

// String formats a as net.IP.String does: dotted for IPv4 and IPv4-mapped,
// RFC 5952 for IPv6.
func (a ip) String() string {
	if a.is4() {
		return strconv.Itoa(int(a[12])) + "." + strconv.Itoa(int(a[13])) + "." +
			strconv.Itoa(int(a[14])) + "." + strconv.Itoa(int(a[15]))
	}
	// The longest run of at least two zero groups becomes "::".
	best, bestLen := -1, 0
	for i := 0; i < 16; i += 2 {
		j := i
		for j < 16 && a[j] == 0 && a[j+1] == 0 {
			j += 2
		}
		if j-i > bestLen && j-i >= 4 {
			best, bestLen = i, j-i
		}
		if j > i {
			i = j - 2
		}
	}
	var b []byte
	for i := 0; i < 16; i += 2 {
		if i == best {
			b = append(b, ':', ':')
			i += bestLen - 2
			continue
		}
		if i > 0 && (len(b) == 0 || b[len(b)-1] != ':') {
			b = append(b, ':')
		}
		b = strconv.AppendUint(b, uint64(a[i])<<8|uint64(a[i+1]), 16)
	}
	return string(b)
}

// less orders IPv4 before IPv6, then by bytes.
func (a ip) less(b ip) bool {
	if a.is4() != b.is4() {
		return a.is4()
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// cidr is a parsed prefix: its network address and prefix length, bits 32
// or 128.
type cidr struct {
	addr       ip
	ones, bits int
}

// parseCIDR parses "addr/len" as net.ParseCIDR does (sloppy as in
// parseIP), returning the masked network.
func parseCIDR(s string, sloppy bool) (cidr, bool) {
	slash := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			slash = i
			break
		}
	}
	if slash < 0 {
		return cidr{}, false
	}
	a, ok := parseIP(s[:slash], sloppy)
	if !ok {
		return cidr{}, false
	}
	bits := 128
	if a.is4() && !containsColon(s[:slash]) {
		bits = 32
	}
	lenText := s[slash+1:]
	n, err := strconv.Atoi(lenText)
	if err != nil || n < 0 || n > bits || lenText == "" || lenText[0] == '+' || lenText[0] == '-' {
		return cidr{}, false
	}
	c := cidr{addr: a, ones: n, bits: bits}
	// Mask the host bits.
	start := 16 - bits/8
	for i := start; i < 16; i++ {
		bitPos := (i - start) * 8
		switch {
		case bitPos >= n:
			c.addr[i] = 0
		case bitPos+8 > n:
			c.addr[i] &= byte(0xff << (8 - (n - bitPos)))
		}
	}
	return c, true
}

func containsColon(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return true
		}
	}
	return false
}

// String is "addr/len", as net.IPNet prints it (an IPv4-mapped prefix of
// 96 bits or more prints as IPv4).
func (c cidr) String() string {
	ones := c.ones
	if c.bits == 128 && c.addr.is4() && ones >= 96 {
		ones -= 96
	}
	return c.addr.String() + "/" + strconv.Itoa(ones)
}

// rangeSize is the number of addresses in c as k8s.io/utils/net.RangeSize
// counts them: 0 when the host part has 31 bits or more for IPv4 (127 for
// IPv6), math.MaxInt64 from 63 host bits on, else 2^hostbits. kubeadm's
// ValidateIPNetFromString compares it with the minimum subnet size.
func (c cidr) rangeSize() int64 {
	host := c.bits - c.ones
	if c.bits == 32 && host >= 31 || c.bits == 128 && host >= 127 {
		return 0
	}
	if host >= 63 {
		return 1<<63 - 1
	}
	return int64(1) << host
}

// indexed returns the address index places after c's network address, as
// k8s.io/utils/net.GetIndexedIP does; ok is false past the end of c.
func (c cidr) indexed(index int) (ip, bool) {
	a := c.addr
	carry := index
	for i := 15; i >= 0 && carry > 0; i-- {
		v := int(a[i]) + carry
		a[i] = byte(v)
		carry = v >> 8
	}
	if carry > 0 || !c.contains(a) {
		return ip{}, false
	}
	return a, true
}

// contains reports whether a lies in c.
func (c cidr) contains(a ip) bool {
	if (c.bits == 32) != a.is4() {
		return false
	}
	m, ok := parseCIDR(a.String()+"/"+strconv.Itoa(c.ones), false)
	return ok && m.addr == c.addr
}
