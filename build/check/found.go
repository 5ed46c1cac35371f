package check

import (
	"errors"
	"slices"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Failure is the error of a build that found errors: all of them, and
// the warnings found beside them, each sorted. As a diag.List
// (errors.As, diag.FromError) it is its errors, so that what prints a
// build's errors needs nothing of it.
type Failure struct{ Errors, Warnings diag.List }

// Failed is the Failure of a build that found ds, or nil when ds holds no
// error.
func Failed(ds diag.List) *Failure {
	if len(ds.Errors()) == 0 {
		return nil
	}
	f := &Failure{Errors: ds.Errors(), Warnings: ds.Warnings()}
	f.Errors.Sort()
	f.Warnings.Sort()
	return f
}

// Error prints the errors.
func (f *Failure) Error() string { return f.Errors.Error() }

// Unwrap is the errors, a diag.List.
func (f *Failure) Unwrap() error { return f.Errors }

// Found is everything a build found, as kakehashi check reports it: the
// warnings of a build that succeeded, or the errors and warnings of its
// error (a Failure, a diag.List or a diag.Diagnostic), sorted, each with
// its kind (Code). An error that names no file (an interrupted build) is
// returned as it is.
func Found(warnings diag.List, err error) (diag.List, error) {
	var out diag.List
	var f *Failure
	var ds diag.List
	var d diag.Diagnostic
	switch {
	case err == nil:
		out = slices.Clone(warnings)
	case errors.As(err, &f):
		out = slices.Concat(f.Errors, f.Warnings)
	case errors.As(err, &ds) || errors.As(err, &d):
		out = slices.Clone(diag.FromError(err))
	default:
		return nil, err
	}
	for i := range out {
		out[i].Code = Code(out[i])
	}
	out.Sort()
	return out, nil
}
