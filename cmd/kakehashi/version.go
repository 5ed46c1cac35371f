package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/kakehashi-dev/kakehashi/build"
)

func runVersion(_ context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "version", "kakehashi version",
		"Prints kakehashi's version and the commit it was built from, with \"modified\"\nwhen the tree had uncommitted changes.")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.stderr, "kakehashi version: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(env.stdout, versionLine(build.Version, info))
	return 0
}

// versionLine is "kakehashi 0.1.0 (commit 4f44348…, modified)" from the
// build's VCS stamps, or "(unknown commit)" without them (go run, go test,
// a build outside a repository or with -buildvcs=false).
func versionLine(version string, info *debug.BuildInfo) string {
	var rev, modified string
	if info != nil {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
	}
	if rev == "" {
		return fmt.Sprintf("kakehashi %s (unknown commit)", version)
	}
	if modified == "true" {
		return fmt.Sprintf("kakehashi %s (commit %s, modified)", version, rev)
	}
	return fmt.Sprintf("kakehashi %s (commit %s)", version, rev)
}
