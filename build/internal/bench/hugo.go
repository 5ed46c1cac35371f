package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Where the Hugo a bench compares with comes from.
const (
	hugoFromEnv    = "HUGO"
	hugoFromScript = "hugo-latest.sh"
	hugoFromPath   = "PATH"
)

// hugoScript is the script beside the checkout that builds the newest Hugo,
// relative to the repository root.
const hugoScript = "../shared/tools/hugo-latest.sh"

// hugoChoice is the Hugo the bench compares with.
type hugoChoice struct {
	// path is the binary, "" when there is none.
	path string
	// from is where it came from: hugoFromEnv, hugoFromScript or
	// hugoFromPath.
	from string
	// note, when set, is what the report must say of the choice: that hugo
	// on PATH may not be the newest, or that there is no Hugo at all.
	note string
}

// hugoFinder is what resolveHugo looks at, injected so that its order can
// be tested without the machine's binaries.
type hugoFinder struct {
	getenv   func(string) string
	script   string // path of hugo-latest.sh; tried when it exists
	exists   func(string) bool
	run      func(ctx context.Context, script string) (stdout []byte, err error)
	lookPath func(string) (string, error)
}

// osHugoFinder looks at the real environment, the script beside the
// checkout rooted at repo, and PATH; the script's progress goes to log.
func osHugoFinder(repo string, log io.Writer) hugoFinder {
	return hugoFinder{
		getenv: os.Getenv,
		script: filepath.Join(repo, filepath.FromSlash(hugoScript)),
		exists: func(p string) bool {
			fi, err := os.Stat(p)
			return err == nil && !fi.IsDir()
		},
		run: func(ctx context.Context, script string) ([]byte, error) {
			cmd := exec.CommandContext(ctx, script)
			cmd.Stderr = log
			return cmd.Output()
		},
		lookPath: exec.LookPath,
	}
}

// resolveHugo picks the Hugo to compare with: the binary HUGO names when
// it is set; else the one hugo-latest.sh prints on its last line, when the
// script exists; else hugo on PATH, with a note that it may not be the
// newest; else none, with a note. HUGO naming no file, or the script
// failing, is an error: the bench would otherwise compare with an older
// Hugo than asked.
func resolveHugo(ctx context.Context, f hugoFinder) (hugoChoice, error) {
	if p := strings.TrimSpace(f.getenv("HUGO")); p != "" {
		if !f.exists(p) {
			return hugoChoice{}, fmt.Errorf("HUGO=%s: no such file", p)
		}
		return hugoChoice{path: p, from: hugoFromEnv}, nil
	}
	if f.script != "" && f.exists(f.script) {
		out, err := f.run(ctx, f.script)
		if err != nil {
			return hugoChoice{}, fmt.Errorf("%s: %v (set HUGO to the path of a hugo binary to use another)", f.script, err)
		}
		p := lastLine(out)
		if p == "" || !f.exists(p) {
			return hugoChoice{}, fmt.Errorf("%s printed %q on its last line, not the path of a hugo binary", f.script, p)
		}
		return hugoChoice{path: p, from: hugoFromScript}, nil
	}
	p, err := f.lookPath("hugo")
	if err == nil {
		return hugoChoice{path: p, from: hugoFromPath,
			note: "Hugo is the one on PATH, which may not be the newest: neither HUGO nor " + hugoScript + " gave one"}, nil
	}
	if !errors.Is(err, exec.ErrNotFound) {
		return hugoChoice{}, fmt.Errorf("looking for hugo on PATH: %v", err)
	}
	return hugoChoice{from: hugoFromPath,
		note: "no Hugo: neither HUGO, " + hugoScript + " nor PATH gave one; kakehashi is measured alone"}, nil
}

// lastLine is the last non-blank line of out, trimmed.
func lastLine(out []byte) string {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	return strings.TrimSpace(string(lines[len(lines)-1]))
}
