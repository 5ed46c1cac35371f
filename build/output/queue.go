package output

import (
	"fmt"
	"path"
	"sync"

	"github.com/spf13/afero"
)

// maxQueued is how many files Put may have waiting to be written before
// it waits for the writer: enough to keep it busy while the pages' workers
// render, few enough that their bytes are not held long.
const maxQueued = 64

// writeQueue holds the files Put was given until one goroutine writes
// them, in the order given. Making files and folders is the kernel's work
// on the folders' locks: two workers making files in the same folders
// spend twice the system time of one making them all (a cold build of
// 1,000 parts per language makes 4,700 files in 2,000 folders), and one
// writer lets the workers go on rendering meanwhile. The writer runs
// only while there is something to write.
type writeQueue struct {
	mu      sync.Mutex
	cond    sync.Cond // a file was written, or the writer stopped
	jobs    []writeJob
	running bool
	pending map[string]int // output paths queued and not written yet
	err     error          // the first write that failed
}

// writeJob is one file to write: output path p at full, in folder dir.
type writeJob struct {
	p, full, dir string
	b            []byte
}

// enqueue queues j, waiting while the queue is full, and starts the
// writer when it is not running.
func (st *Staging) enqueue(j writeJob) {
	q := &st.queue
	q.mu.Lock()
	if q.cond.L == nil {
		q.cond.L = &q.mu
		q.pending = map[string]int{}
	}
	for len(q.jobs) >= maxQueued {
		q.cond.Wait()
	}
	q.jobs = append(q.jobs, j)
	q.pending[j.p]++
	if !q.running {
		q.running = true
		go st.drain()
	}
	q.mu.Unlock()
}

// drain writes the queued files until there are none.
func (st *Staging) drain() {
	q := &st.queue
	q.mu.Lock()
	for len(q.jobs) > 0 {
		j := q.jobs[0]
		q.jobs[0] = writeJob{}
		q.jobs = q.jobs[1:]
		q.mu.Unlock()
		err := st.ensureDir(j.dir)
		if err == nil {
			_, err = st.write(j.p, j.full, func(f afero.File) (int64, error) {
				n, err := f.Write(j.b)
				return int64(n), err
			})
		}
		q.mu.Lock()
		if err != nil && q.err == nil {
			q.err = fmt.Errorf("writing %s: %w", j.p, err)
		}
		if q.pending[j.p]--; q.pending[j.p] == 0 {
			delete(q.pending, j.p)
		}
		q.cond.Broadcast()
	}
	q.jobs = nil
	q.running = false
	q.cond.Broadcast()
	q.mu.Unlock()
}

// Flush waits until every file Put was given is written, and returns the
// first error writing one of them.
func (st *Staging) Flush() error {
	q := &st.queue
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.running {
		q.cond.Wait()
	}
	return q.err
}

// settle waits until the file at output path p, if queued, is written.
func (st *Staging) settle(p string) {
	q := &st.queue
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.pending[p] > 0 {
		q.cond.Wait()
	}
}

// putLater is Put's queued write of b at p, once begin checked p.
func (st *Staging) putLater(p, full string, b []byte) {
	st.enqueue(writeJob{p: p, full: full, dir: path.Dir(p), b: b})
}
