package output

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// lockPoll is how often Lock tries again while another process holds the
// lock.
const lockPoll = 50 * time.Millisecond

// Lock takes the lock file at path, making it and its folder if needed,
// so that two builds of one site take turns: the CLI holds it from before
// the build until the output and the cache are in place. The holder's PID
// is written into the file. While another process holds the lock, Lock
// calls onWait (when not nil) with that process's PID — once per holder,
// 0 when it cannot be read — and waits until the lock is free or ctx is
// done. The lock is released by unlock, or by the end of the process
// however it ends. Where the OS has no file locks the package knows of,
// Lock does not exclude anyone.
func Lock(ctx context.Context, path string, onWait func(pid int)) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	told, tries := -1, 0
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if ok {
			break
		}
		// The holder writes its PID just after taking the lock: a file
		// still empty is read again before saying "PID 0".
		if pid := holder(f); onWait != nil && pid != told && (pid != 0 || told == -1 && tries >= 10) {
			onWait(pid)
			told = pid
		}
		tries++
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			f.Truncate(0)
			f.Close()
		})
	}, nil
}

// holder reads the PID in the lock file, or 0.
func holder(f *os.File) int {
	var b [32]byte
	n, _ := f.ReadAt(b[:], 0)
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
