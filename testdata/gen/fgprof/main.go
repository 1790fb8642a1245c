// Command fgprof writes a wall-clock profile made by fgprof (Felix
// Geisendörfer's sampling profiler, which samples every goroutine, on CPU
// or waiting), of a small workload: CPU work, sleeps, channel waits and a
// mutex. Writes OUTDIR/fgprof.pb.gz (profile.proto) and OUTDIR/fgprof.folded
// (fgprof's folded format, flamegraph.pl's "a;b;c N" lines) of one run each.
// See README.md: it builds against Debian's golang-github-felixge-fgprof-dev.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/felixge/fgprof"
)

func hashWork(until time.Time) {
	sum := sha256.Sum256([]byte("seed"))
	for time.Now().Before(until) {
		sum = sha256.Sum256(sum[:])
	}
}

func sortWork(until time.Time) {
	for time.Now().Before(until) {
		a := make([]int, 5000)
		for i := range a {
			a[i] = (i * 7919) % 1000003
		}
		sort.Ints(a)
	}
}

func sleeper(until time.Time) {
	for time.Now().Before(until) {
		time.Sleep(20 * time.Millisecond)
	}
}

func consumer(ch <-chan int, done chan<- int) {
	n := 0
	for v := range ch {
		n += v
	}
	done <- n
}

func producer(ch chan<- int, until time.Time) {
	for time.Now().Before(until) {
		ch <- 1
		time.Sleep(5 * time.Millisecond)
	}
	close(ch)
}

func contender(mu *sync.Mutex, until time.Time) {
	for time.Now().Before(until) {
		mu.Lock()
		time.Sleep(2 * time.Millisecond)
		mu.Unlock()
	}
}

func workload(d time.Duration) {
	until := time.Now().Add(d)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ch := make(chan int)
	done := make(chan int, 1)
	for _, f := range []func(){
		func() { hashWork(until) },
		func() { sortWork(until) },
		func() { sleeper(until) },
		func() { consumer(ch, done) },
		func() { producer(ch, until) },
		func() { contender(&mu, until) },
		func() { contender(&mu, until) },
	} {
		wg.Add(1)
		go func(f func()) { defer wg.Done(); f() }(f)
	}
	wg.Wait()
	<-done
}

func profile(path string, format fgprof.Format, d time.Duration) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	stop := fgprof.Start(f, format)
	workload(d)
	if err := stop(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func main() {
	out := "."
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	if err := profile(filepath.Join(out, "fgprof.pb.gz"), fgprof.FormatPprof, 1500*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := profile(filepath.Join(out, "fgprof.folded"), fgprof.FormatFolded, 1500*time.Millisecond); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
