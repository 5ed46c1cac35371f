package calc

import (
	"errors"
	"sort"
	"strconv"
)

// Contains reports how got, a JSON-like value, fails to contain want: an
// object in want must be a subset of the object in got, an array must have
// the same length and contain want's elements in order, anything else must
// be equal. It is how the JSON case tables in testdata are checked, here
// and by build/e2e/node/calc_api.test.mjs (which implements the same rule).
func Contains(got, want any) error { return contains("", got, want) }

func contains(path string, got, want any) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return errors.New(path + ": got " + typeName(got) + ", want an object")
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return errors.New(path + "." + k + ": missing")
			}
			if err := contains(path+"."+k, gv, w[k]); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok {
			return errors.New(path + ": got " + typeName(got) + ", want an array")
		}
		if len(g) != len(w) {
			return errors.New(path + ": got " + strconv.Itoa(len(g)) + " elements, want " + strconv.Itoa(len(w)))
		}
		for i := range w {
			if err := contains(path+"["+strconv.Itoa(i)+"]", g[i], w[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if got != want {
		return errors.New(path + ": got " + scalarText(got) + ", want " + scalarText(want))
	}
	return nil
}

func scalarText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return typeName(v)
}
