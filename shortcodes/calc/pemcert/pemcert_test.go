package pemcert

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
)

// TestPEMCases runs testdata/verify_pem.json through the API with PEM
// parsing, as the calc-x509 WebAssembly module does.
func TestPEMCases(t *testing.T) {
	b, err := os.ReadFile("testdata/verify_pem.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Function string
		Cases    []struct {
			Name  string
			Input any
			Want  map[string]any
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	api := calc.API{ParsePEM: Parse}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			got := api.Call(f.Function, c.Input)
			js, _ := json.Marshal(got)
			var back map[string]any
			_ = json.Unmarshal(js, &back)
			if err := calc.Contains(back, c.Want); err != nil {
				t.Errorf("%v\ngot: %s", err, js)
			}
		})
	}
}

func TestWithoutParserPEMNeedsModule(t *testing.T) {
	got := calc.Call("verifyHost", map[string]any{"pem": "x", "dial": "cp-1"})
	if got["errorCode"] != "err.pem-module" {
		t.Errorf("got %v, want err.pem-module", got)
	}
}
