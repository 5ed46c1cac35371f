package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime/debug"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/scaffold"
)

func TestVersionLine(t *testing.T) {
	stamped := func(kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "kakehashi 1.2.3 (unknown commit)"},
		{stamped("vcs", "git"), "kakehashi 1.2.3 (unknown commit)"},
		{stamped("vcs.revision", "4f44348abc", "vcs.modified", "false"), "kakehashi 1.2.3 (commit 4f44348abc)"},
		{stamped("vcs.revision", "4f44348abc", "vcs.modified", "true"), "kakehashi 1.2.3 (commit 4f44348abc, modified)"},
	} {
		if got := versionLine("1.2.3", tc.info); got != tc.want {
			t.Errorf("versionLine(%v) = %q, want %q", tc.info, got, tc.want)
		}
	}
}

// TestNewExit: "kakehashi new" exits 2 for what the author can mend (a
// refusal, a file in the way, however wrapped) and 1 for a failure to
// read or write.
func TestNewExit(t *testing.T) {
	mem := afero.NewMemMapFs()
	afero.WriteFile(mem, "plain.txt", nil, 0o644)
	_, refusal := scaffold.PlanSite(context.Background(), mem, "plain.txt", scaffold.SiteOptions{})
	if refusal == nil {
		t.Fatal("a new site in a file was not refused")
	}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{refusal, 2},
		{fmt.Errorf("undoing: %w", refusal), 2},
		{fmt.Errorf("site/kakehashi.toml %w; nothing was written", scaffold.ErrExists), 2},
		{&fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, 1},
		{errors.New("site/x.md changed while it was being edited"), 1},
	} {
		if got := newExit(tc.err); got != tc.want {
			t.Errorf("newExit(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
