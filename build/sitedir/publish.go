package sitedir

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/timing"
)

// StrictError is a build that gave warnings when none was allowed: its
// output was not put in place.
type StrictError struct{ Warnings diag.List }

func (e *StrictError) Error() string {
	return fmt.Sprintf("%d warnings with --strict", len(e.Warnings))
}

// CommitError is a build that succeeded but could not be put in place:
// the destination was left as it was.
type CommitError struct{ Err error }

func (e *CommitError) Error() string { return e.Err.Error() }
func (e *CommitError) Unwrap() error { return e.Err }

// Build builds b into dest on the OS's disk: its files are written into a
// staging folder beside dest as they are made, and swapped in only when
// the whole build succeeded (with strict, with no warning either); a
// build that found dest already holding exactly this build leaves it
// untouched. The swap is a stage of t, and its time is in the result's
// Summary.Elapsed. On any error dest is as it was.
func Build(ctx context.Context, b *build.Builder, dest string, strict bool, t *timing.Recorder) (*build.Result, error) {
	stage, err := output.Stage(ctx, afero.NewOsFs(), dest)
	if err != nil {
		return nil, err
	}
	res, err := b.BuildTo(ctx, stage)
	if err != nil {
		stage.Abort()
		return nil, err
	}
	if strict && len(res.Summary.Warnings) > 0 {
		stage.Abort()
		return res, &StrictError{Warnings: res.Summary.Warnings}
	}
	start := time.Now()
	end := t.Stage("commit: output in place, cache saved")
	if res.Unchanged {
		// Nothing to write: dest already holds exactly this build.
		stage.Abort()
	} else if err := stage.Commit(ctx); err != nil {
		return res, &CommitError{Err: err}
	}
	end()
	res.Summary.Elapsed += time.Since(start)
	return res, nil
}
