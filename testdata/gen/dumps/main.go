// Command dumps writes the Go runtime's text profiles and goroutine dumps
// that pprof-c reads: debug=1 goroutine, threadcreate, mutex and block
// profiles, a debug=2 goroutine dump, and the dumps a panic and SIGQUIT
// print on stderr (from a child process it starts). With -big N it instead
// parks N goroutines and writes the debug=2 dump and the debug=1 goroutine
// profile of that one process, for the reading benchmark.
//
//	go run . -out DIR            # the small files, see ../README.md
//	go run . -big 50000 -out DIR # big.goroutine.debug2.txt, big.goroutine.debug1.txt
//	go run . -child panic|sigquit (used by the above)
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"
)

func main() {
	out := flag.String("out", ".", "directory to write the files into")
	big := flag.Int("big", 0, "park this many goroutines and write only the big dump")
	child := flag.String("child", "", "internal: panic or sigquit")
	flag.Parse()
	switch {
	case *child != "":
		runChild(*child)
	case *big > 0:
		writeBig(*out, *big)
	default:
		writeSmall(*out)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "dumps:", err)
		os.Exit(1)
	}
}

func writeProfile(dir, name, file string, debug int) {
	f, err := os.Create(filepath.Join(dir, file))
	must(err)
	must(pprof.Lookup(name).WriteTo(f, debug))
	must(f.Close())
}

// writeSmall makes contention, parks goroutines in distinct states and
// writes every small file.
func writeSmall(dir string) {
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	contend()
	release := park()
	time.Sleep(200 * time.Millisecond)
	writeProfile(dir, "goroutine", "goroutine.debug1.txt", 1)
	writeProfile(dir, "goroutine", "goroutine.debug2.txt", 2)
	writeProfile(dir, "threadcreate", "threadcreate.debug1.txt", 1)
	writeProfile(dir, "mutex", "mutex.debug1.txt", 1)
	writeProfile(dir, "block", "block.debug1.txt", 1)
	release()
	for _, mode := range []string{"panic", "sigquit"} {
		runChildTo(filepath.Join(dir, mode+".txt"), mode)
	}
}

// contend makes mutex and channel contention in two named functions.
func contend() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				lockAndSpin(&mu)
			}
		}()
	}
	ch := make(chan int)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for j := 0; j < 100; j++ {
			ch <- j
		}
		close(ch)
	}()
	slowReceiver(ch)
	wg.Wait()
}

func lockAndSpin(mu *sync.Mutex) {
	mu.Lock()
	x := 0
	for k := 0; k < 20000; k++ {
		x += k
	}
	_ = x
	mu.Unlock()
}

func slowReceiver(ch chan int) {
	for range ch {
		time.Sleep(100 * time.Microsecond)
	}
}

// park leaves goroutines in the states a dump shows: chan receive, select,
// IO wait, sleep, sync.Mutex.Lock, one locked to its thread.
func park() (release func()) {
	stop := make(chan struct{})
	var ready sync.WaitGroup
	for i := 0; i < 3; i++ {
		ready.Add(1)
		go waitOnChannel(&ready, stop)
	}
	ready.Add(1)
	go selectLoop(&ready, stop)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	ready.Add(1)
	go acceptOne(&ready, ln)
	ready.Add(1)
	go lockedSleeper(&ready, stop)
	var mu sync.Mutex
	mu.Lock()
	for i := 0; i < 2; i++ {
		ready.Add(1)
		go lockWaiter(&ready, &mu)
	}
	ready.Wait()
	return func() {
		close(stop)
		ln.Close()
		mu.Unlock()
	}
}

func waitOnChannel(ready *sync.WaitGroup, stop chan struct{}) {
	ready.Done()
	<-stop
}

func selectLoop(ready *sync.WaitGroup, stop chan struct{}) {
	ready.Done()
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	select {
	case <-stop:
	case <-t.C:
	}
}

func acceptOne(ready *sync.WaitGroup, ln net.Listener) {
	ready.Done()
	c, err := ln.Accept()
	if err == nil {
		c.Close()
	}
}

func lockedSleeper(ready *sync.WaitGroup, stop chan struct{}) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ready.Done()
	<-stop
}

func lockWaiter(ready *sync.WaitGroup, mu *sync.Mutex) {
	ready.Done()
	mu.Lock()
	mu.Unlock()
}

// runChildTo runs this program as a child that dies by a panic or SIGQUIT
// and saves the dump it prints on stderr.
func runChildTo(path, mode string) {
	self, err := os.Executable()
	must(err)
	cmd := exec.Command(self, "-child", mode)
	f, err := os.Create(path)
	must(err)
	cmd.Stderr = f
	stdout, err := cmd.StdoutPipe()
	must(err)
	must(cmd.Start())
	buf := make([]byte, 6)
	_, err = stdout.Read(buf) // "ready\n": the child's goroutines are parked
	must(err)
	if mode == "sigquit" {
		must(cmd.Process.Signal(syscall.SIGQUIT))
	}
	_ = cmd.Wait() // exits 2 either way
	must(f.Close())
}

func runChild(mode string) {
	park()
	time.Sleep(100 * time.Millisecond)
	os.Stdout.WriteString("ready\n")
	if mode == "panic" {
		os.Setenv("GOTRACEBACK", "all")
		debugSetTraceback()
		explode(3)
	}
	select {}
}

func explode(n int) {
	if n == 0 {
		panic("dumps: deliberate panic")
	}
	explode(n - 1)
}

// writeBig parks n goroutines, spread over a few stacks and states, and
// writes the debug=2 dump and the debug=1 profile of this one process.
func writeBig(dir string, n int) {
	stop := make(chan struct{})
	var ready sync.WaitGroup
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	var mu sync.Mutex
	mu.Lock()
	for i := 0; i < n; i++ {
		ready.Add(1)
		switch i % 5 {
		case 0:
			go waitOnChannel(&ready, stop)
		case 1:
			go selectLoop(&ready, stop)
		case 2:
			go acceptOne(&ready, ln)
		case 3:
			go lockWaiter(&ready, &mu)
		case 4:
			go deep(i%17, &ready, stop)
		}
	}
	ready.Wait()
	time.Sleep(500 * time.Millisecond)
	writeProfile(dir, "goroutine", "big.goroutine.debug2.txt", 2)
	writeProfile(dir, "goroutine", "big.goroutine.debug1.txt", 1)
}

func deep(n int, ready *sync.WaitGroup, stop chan struct{}) {
	if n == 0 {
		waitOnChannel(ready, stop)
		return
	}
	deep(n-1, ready, stop)
}
