// Command goprog writes the Go runtime profiles in testdata/go/ that the
// golden tests of pprof-c read. It uses only the standard library.
//
//	goprog -out DIR             cpu, heap, allocs, mutex, block, goroutine
//	                            and threadcreate profiles (*.pb.gz)
//	goprog -out DIR -set before cpu_before.pb.gz and heap_before.pb.gz: the
//	                            service workload with verbose logging
//	goprog -out DIR -set after  the same workload with the cheap logger
//	                            (main.LoggingMiddleware much cheaper)
//
// Run it through testdata/gen/regen-go.sh, which builds it with -trimpath
// (so file names in the profiles are "testdata/gen/goprog/main.go",
// "runtime/proc.go", ... on every machine) and pins GOMAXPROCS.
//
// The workload is shaped for a profile analyzer's tests, not for speed:
//   - deep stacks: a recursive-descent parser (parseExpr -> parseTerm ->
//     parseFactor -> parseExpr, three frames per nesting level), a skewed
//     tree walked recursively, a closure that recurses (N-queens);
//   - inlined frames: mix -> step -> (*Hasher).Add are all inlined into
//     hot loops, so CPU samples land on locations with several lines;
//   - many names: methods on value and pointer receivers, closures
//     (main.f.func1), generic functions, net/http, encoding/json,
//     compress/flate, crypto/sha256, sort;
//   - profiler labels: CPU samples carry handler/region/tenant labels set
//     with pprof.Do; some samples carry none.
//
// Iteration counts are fixed (no time-based loops) and every random choice
// comes from a seeded source, so runs differ only in timing.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
)

// Sample every 512 bytes of allocation. Set in a package variable
// initializer so it is in effect before main and before most of the
// runtime's own allocations are profiled.
var _ = func() int {
	runtime.MemProfileRate = 512
	return 0
}()

var (
	outDir = flag.String("out", "", "directory to write the profiles to (required)")
	set    = flag.String("set", "main", "which profiles: main, before or after")
	scale  = flag.Float64("scale", 1, "multiply every iteration count by this")
)

func main() {
	flag.Parse()
	if *outDir == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: goprog -out DIR [-set main|before|after] [-scale F]")
		os.Exit(2)
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fatal(err)
	}
	switch *set {
	case "main":
		writeMain()
	case "before":
		writeService("before", false)
	case "after":
		writeService("after", true)
	default:
		fatal(fmt.Errorf("unknown -set %q", *set))
	}
}

// n scales an iteration count by -scale.
func n(base int) int {
	v := int(float64(base) * *scale)
	if v < 1 {
		v = 1
	}
	return v
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "goprog:", err)
	os.Exit(1)
}

func create(name string) *os.File {
	f, err := os.Create(filepath.Join(*outDir, name))
	if err != nil {
		fatal(err)
	}
	return f
}

func closeFile(f *os.File) {
	if err := f.Close(); err != nil {
		fatal(err)
	}
}

// writeLookup writes the named runtime profile in profile.proto form.
func writeLookup(profile, file string) {
	f := create(file)
	if err := pprof.Lookup(profile).WriteTo(f, 0); err != nil {
		fatal(err)
	}
	closeFile(f)
}

// withCPUProfile runs work under the CPU profiler, writing to file.
func withCPUProfile(file string, work func()) {
	f := create(file)
	if err := pprof.StartCPUProfile(f); err != nil {
		fatal(err)
	}
	work()
	pprof.StopCPUProfile()
	closeFile(f)
}

// labeled runs f in a new goroutine under the given profiler labels.
func labeled(wg *sync.WaitGroup, f func(), kv ...string) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		pprof.Do(context.Background(), pprof.Labels(kv...), func(context.Context) {
			f()
		})
	}()
}

func writeMain() {
	withCPUProfile("cpu.pb.gz", cpuWorkload)

	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	contentionWorkload()
	// Write before turning the rates off: the mutex profile's values are
	// scaled by the current fraction, and would all be 0.
	writeLookup("mutex", "mutex.pb.gz")
	writeLookup("block", "block.pb.gz")
	runtime.SetMutexProfileFraction(0)
	runtime.SetBlockProfileRate(0)

	release := parkGoroutines()
	writeLookup("goroutine", "goroutine.pb.gz")
	release()

	// The heap profile is as of the last completed GC.
	runtime.GC()
	writeLookup("heap", "heap.pb.gz")
	writeLookup("allocs", "allocs.pb.gz")
	writeLookup("threadcreate", "threadcreate.pb.gz")
	runtime.KeepAlive(retained)
}

// cpuWorkload is about 2.5 s of CPU across four labeled goroutines and the
// unlabeled main goroutine.
func cpuWorkload() {
	var wg sync.WaitGroup
	svc := NewService(false)
	labeled(&wg, func() { svc.Drive(n(2400), "/login") },
		"handler", "login", "region", "eu-west", "tenant", "acme")
	labeled(&wg, func() { searchWork(n(4500)) },
		"handler", "search", "region", "us-east", "tenant", "globex")
	labeled(&wg, func() { reportWork(n(550)) },
		"handler", "report", "region", "eu-west", "tenant", "globex")
	labeled(&wg, func() {
		checkoutWork(n(20))
		svc.Drive(n(1000), "/checkout")
	}, "handler", "checkout", "region", "us-east")
	compressWork(n(2))
	wg.Wait()
}

// writeService profiles the request-serving workload alone: the diff pair.
func writeService(suffix string, fastLog bool) {
	svc := NewService(fastLog)
	withCPUProfile("cpu_"+suffix+".pb.gz", func() {
		var wg sync.WaitGroup
		labeled(&wg, func() { svc.Drive(n(2200), "/login") },
			"handler", "login", "region", "eu-west")
		labeled(&wg, func() { svc.Drive(n(1500), "/search") },
			"handler", "search", "region", "us-east")
		labeled(&wg, func() { svc.Drive(n(1100), "/checkout") },
			"handler", "checkout", "region", "us-east")
		wg.Wait()
	})
	runtime.GC()
	writeLookup("heap", "heap_"+suffix+".pb.gz")
	runtime.KeepAlive(retained)
}
