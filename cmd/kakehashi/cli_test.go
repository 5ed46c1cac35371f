package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"kakehashi": main,
	})
}

// TestScripts runs the CLI end to end from txtar scripts in
// testdata/script: each holds a small site, the commands and their
// expected output.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Cmds: scriptCmds,
		Dir:  "testdata/script",
		// Each script's site gets the repository's theme and UI strings,
		// so the scripts hold only content.
		Setup: func(env *testscript.Env) error {
			for _, dir := range []string{"themes", "i18n"} {
				if err := os.CopyFS(filepath.Join(env.WorkDir, dir), os.DirFS(filepath.Join(root, dir))); err != nil {
					return err
				}
			}
			return nil
		},
	})
}
