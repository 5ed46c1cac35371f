// The names of an index's files: shards by their keys' hash, fragments by
// their pages' URLs, made unique within a language.

package search

import (
	"hash/fnv"
	"strconv"
	"strings"
)

// uniqueNames renames, should two shards' names be the same, each later
// one (and its file) by a longer hash of its name and position.
func uniqueNames(names []string, files []File, lang string) {
	seen := map[string]bool{}
	for i, n := range names {
		for k := 0; seen[n]; k++ {
			h := fnv.New64a()
			h.Write([]byte(names[i] + "#" + strconv.Itoa(i) + "#" + strconv.Itoa(k)))
			n = hashName(h.Sum64(), 13)
		}
		seen[n] = true
		if n != names[i] {
			old := names[i]
			names[i] = n
			files[i].Path = shardPath(lang, n)
			files[i].Data = []byte(strings.Replace(string(files[i].Data), `.shard["`+old+`"]`, `.shard["`+n+`"]`, 1))
		}
	}
}

// keyHash is FNV-1a of a key, for the cuts between shards.
func keyHash(k string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(k); i++ {
		h ^= uint32(k[i])
		h *= 16777619
	}
	return h
}

// nameAlphabet writes hashes in names: lower-case letters and digits.
const nameAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// hashName writes the first n 5-bit groups of h (at most 13).
func hashName(h uint64, n int) string {
	var b [13]byte
	for i := range min(n, 13) {
		b[i] = nameAlphabet[h>>59]
		h <<= 5
	}
	return string(b[:min(n, 13)])
}

// pageNames names the fragments of the pages at urls by a hash of their
// URL, so that a page keeps its fragment's name whatever else changes,
// and its fragment can be made on its own. Should two short names be the
// same, both take the whole hash, and pages whose whole hash is the same
// (the same URL twice) are numbered.
func pageNames(urls []string) []string { return pageNamesBy(urls, urlHash) }

func urlHash(u string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(u))
	return h.Sum64()
}

// pageNamesBy is pageNames with the hash given, for tests.
func pageNamesBy(urls []string, hash func(string) uint64) []string {
	full := make([]uint64, len(urls))
	names := make([]string, len(urls))
	count := map[string]int{}
	for i, u := range urls {
		full[i] = hash(u)
		names[i] = hashName(full[i], 8)
		count[names[i]]++
	}
	for i := range names {
		if count[names[i]] > 1 {
			names[i] = hashName(full[i], 13)
		}
	}
	seen := map[string]int{}
	for i, n := range names {
		if k := seen[n]; k > 0 {
			names[i] = n + "-" + strconv.Itoa(k)
		}
		seen[n]++
	}
	return names
}
