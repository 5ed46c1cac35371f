package cache

import (
	"strconv"
	"time"
)

// minSpill is the smallest value Put writes into a new data file at once
// (spillPut): smaller ones are kept until Save, as in a store that has a
// data file.
const minSpill = 256

// spillPut writes value into the new data file of a store that has none
// yet, as soon as it is put, and reports whether it did: its bytes are
// then not held until Save. The caller holds s.mu.
func (s *Store) spillPut(key string, value []byte) bool {
	if s.gen != "" || len(value) < minSpill {
		return false
	}
	if s.spill == nil {
		if s.spilled != nil || s.fs.MkdirAll(s.dir, 0o755) != nil {
			return false // the spill failed once: values are kept instead
		}
		s.spillGen = strconv.FormatInt(time.Now().UnixNano(), 36)
		s.spill = newDataWriter(s.fs, s.dataFile(s.spillGen)+".tmp", 0)
		s.spilled = map[string]span{}
	}
	if s.spill.err != nil {
		return false
	}
	if _, had := s.fresh.LoadAndDelete(key); !had {
		if _, had := s.spilled[key]; !had {
			s.order = append(s.order, key)
		}
	}
	s.spilled[key] = s.spill.write(value)
	return true
}

// readSpilled reads back the value of key that spillPut wrote.
func (s *Store) readSpilled(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, ok := s.spilled[key]
	if !ok || s.spill == nil || s.spill.err != nil {
		return nil, false
	}
	if err := s.spill.buf.Flush(); err != nil {
		return nil, false
	}
	v := make([]byte, sp.n)
	if _, err := s.spill.f.ReadAt(v, sp.off); err != nil {
		return nil, false
	}
	return v, true
}
