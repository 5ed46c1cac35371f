package calc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// caseFile is one testdata/*.json file: cases for one JS API function. The
// same files run here, natively and under GOOS=js GOARCH=wasm, and through
// the WebAssembly module under Node (build/e2e/node/calc_api.test.mjs).
type caseFile struct {
	Function string `json:"function"`
	Cases    []struct {
		Name  string         `json:"name"`
		Input any            `json:"input"`
		Want  map[string]any `json:"want"`
	} `json:"cases"`
}

func loadCases(t *testing.T) map[string]caseFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no testdata/*.json")
	}
	out := map[string]caseFile{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f caseFile
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(f.Cases) == 0 {
			t.Fatalf("%s: no cases", p)
		}
		out[filepath.Base(p)] = f
	}
	return out
}

// TestAPICases runs every JSON case through Call, as the WebAssembly module
// does, and checks the output contains want.
func TestAPICases(t *testing.T) {
	files := loadCases(t)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := files[n]
		for _, c := range f.Cases {
			t.Run(strings.TrimSuffix(n, ".json")+"/"+c.Name, func(t *testing.T) {
				got := Call(f.Function, c.Input)
				// Round-trip through JSON, as a JS caller would see it.
				b, err := json.Marshal(got)
				if err != nil {
					t.Fatalf("output does not marshal: %v", err)
				}
				var back any
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatal(err)
				}
				if err := Contains(back, c.Want); err != nil {
					t.Errorf("%v\ngot: %s", err, b)
				}
				if e, _ := got["error"].(string); e != "" && c.Want["error"] == nil && c.Want["errorCode"] == nil && c.Want["errorField"] == nil {
					t.Errorf("unexpected error %q", e)
				}
			})
		}
	}
}

func TestCallRejectsNonObject(t *testing.T) {
	for _, in := range []any{"x", 3.0, []any{}, true} {
		got := Call("quorum", in)
		if got["errorField"] != "input" || got["errorCode"] != "err.type" {
			t.Errorf("Call(quorum, %#v) = %v, want an input type error", in, got)
		}
	}
	if got := Call("nope", map[string]any{}); got["errorCode"] != "err.unknown-function" {
		t.Errorf("unknown function: %v", got)
	}
}
