package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kakehashi-dev/kakehashi/build/wasm"
)

// TestOutsideScripts runs the scripts of testdata/outside as an author
// would, with the kakehashi binary alone: each script's folder (outside
// the repository, in a temporary folder) holds only its own files, with
// no themes/ or i18n/ copied in, and PATH holds kakehashi but no go
// command. The condition [calc] is true when this binary carries the
// calculators (go generate ran before it was built, as make test does);
// under CI=true it must.
func TestOutsideScripts(t *testing.T) {
	_, embedded := wasm.Embedded()
	if !embedded && os.Getenv("CI") == "true" {
		t.Fatal("this binary carries no calculators: go generate ./build/wasm (make test runs it) must come before the tests under CI")
	}
	testscript.Run(t, testscript.Params{
		Cmds: scriptCmds,
		Dir:  "testdata/outside",
		Setup: func(env *testscript.Env) error {
			exe, err := exec.LookPath("kakehashi")
			if err != nil {
				return err
			}
			bin := filepath.Dir(exe)
			if _, err := os.Stat(filepath.Join(bin, "go")); err == nil {
				return errors.New("the folder of kakehashi holds a go command: " + bin)
			}
			env.Setenv("PATH", bin)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "calc" {
				return embedded, nil
			}
			return false, errors.New("unknown condition " + cond)
		},
	})
}
