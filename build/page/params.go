package page

import "strings"

// Param looks key up as Hugo's .Page.Param does, for the param
// shortcode (markdown.Env.Param): in page, the front matter's params,
// else in site, the configuration's [params]. Keys match in any case; a
// dotted key names keys in maps, "social.github". A value is the
// decoder's: a string, a number, a bool, a list or a map.
func Param(page, site map[string]any) func(key string) (any, bool) {
	return func(key string) (any, bool) {
		if key == "" {
			return nil, false
		}
		for _, m := range []map[string]any{page, site} {
			if v, ok := lookup(m, strings.Split(key, ".")); ok {
				return v, true
			}
		}
		return nil, false
	}
}

// lookup follows keys into m, each matched in any case (an exact match
// first).
func lookup(m map[string]any, keys []string) (any, bool) {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		next, ok := mm[k]
		if !ok {
			for name, x := range mm {
				if strings.EqualFold(name, k) {
					next, ok = x, true
					break
				}
			}
		}
		if !ok {
			return nil, false
		}
		v = next
	}
	return v, true
}
