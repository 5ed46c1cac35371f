package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// ReadDocument reads one document as a build reads a content file (the
// limit and the message of CheckSize and ReadLimited): the file named, or
// stdin for "" and "-". A file that is not a regular one is refused by
// its mode, before it is opened. When ctx ends first it returns ctx's
// error and leaves the read behind: standard input may never end.
func ReadDocument(ctx context.Context, stdin io.Reader, file string) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	read := make(chan result, 1)
	go func() {
		data, err := readDocument(stdin, file)
		read <- result{data, err}
	}()
	select {
	case r := <-read:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func readDocument(stdin io.Reader, file string) ([]byte, error) {
	if file == "" || file == "-" {
		return ReadLimited(stdin)
	}
	fi, err := os.Stat(file)
	if err != nil {
		return nil, unwrapPath(err)
	}
	var ne *NotRegularError
	if errors.As(CheckRegular(file, fi), &ne) || fi.IsDir() {
		kind := "a folder"
		if ne != nil {
			kind = ne.Kind()
		}
		return nil, fmt.Errorf("not a regular file (%s): name a markdown file, or - to read standard input", kind)
	}
	if err := CheckSize(fi.Size()); err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	return ReadLimited(f)
}
