package main

import (
	"bufio"
	"context"
	"net"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"
)

// parkGoroutines leaves a few dozen goroutines blocked in distinct stacks
// for the goroutine profile, and returns a function that releases the ones
// that can be released (the sleepers and the nil-channel waiter stay parked
// until the process exits).
func parkGoroutines() (release func()) {
	stop := make(chan struct{})
	var ready sync.WaitGroup
	var wg sync.WaitGroup
	spawn := func(f func()) {
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}

	// Recursion to different depths, then a channel receive: one stack
	// per depth, up to 30 frames of waitAtDepth.
	for _, d := range []int{1, 2, 3, 5, 8, 13, 30} {
		d := d
		spawn(func() { waitAtDepth(d, &ready, stop) })
	}

	// Worker pools: identical stacks, told apart only by their labels
	// (ingest/0 x3, ingest/1 x3, egress/0 x2, egress/1 x2).
	jobs := make(chan int)
	for i, pool := range []string{"ingest", "ingest", "ingest", "ingest", "ingest", "ingest", "egress", "egress", "egress", "egress"} {
		pool, i := pool, i
		spawn(func() {
			pprof.Do(context.Background(), pprof.Labels("pool", pool, "shard", strconv.Itoa(i%2)), func(context.Context) {
				(&Pool{jobs: jobs}).worker(&ready, stop)
			})
		})
	}

	// select over two channels.
	for i := 0; i < 3; i++ {
		spawn(func() { (&Ticker{}).loop(&ready, stop) })
	}

	// sync.Mutex held by this function until release.
	acct := &Account{balance: 100}
	acct.mu.Lock()
	for i := 0; i < 3; i++ {
		spawn(func() { ready.Done(); acct.Withdraw(1) })
	}

	// sync.Cond.
	bar := NewBarrier(4)
	for i := 0; i < 3; i++ {
		spawn(func() { ready.Done(); bar.Await() })
	}

	// sync.WaitGroup.
	var gate sync.WaitGroup
	gate.Add(1)
	for i := 0; i < 2; i++ {
		spawn(func() { waitForGate(&ready, &gate) })
	}

	// time.Sleep: never released.
	for i := 0; i < 2; i++ {
		ready.Add(1)
		go (&Janitor{}).run(&ready)
	}

	// Reading from a net.Pipe through bufio.
	var conns []net.Conn
	for i := 0; i < 2; i++ {
		c1, c2 := net.Pipe()
		conns = append(conns, c1, c2)
		spawn(func() { readRequests(&ready, c2) })
	}

	// Anonymous closures.
	for i := 0; i < 2; i++ {
		spawn(func() {
			ready.Done()
			<-stop
		})
	}

	// A receive from a nil channel: blocks forever.
	ready.Add(1)
	go func() {
		var never chan int
		ready.Done()
		<-never
	}()

	ready.Wait()
	// Done is called just before blocking: give the stragglers time to park.
	time.Sleep(200 * time.Millisecond)

	return func() {
		close(stop)
		acct.mu.Unlock()
		bar.Await()
		gate.Done()
		for _, c := range conns {
			c.Close()
		}
		wg.Wait()
	}
}

func waitAtDepth(d int, ready *sync.WaitGroup, stop <-chan struct{}) int {
	if d > 1 {
		return waitAtDepth(d-1, ready, stop) + 1
	}
	ready.Done()
	<-stop
	return 0
}

// Pool is a set of workers reading jobs.
type Pool struct{ jobs chan int }

func (p *Pool) worker(ready *sync.WaitGroup, stop <-chan struct{}) {
	ready.Done()
	for {
		select {
		case j := <-p.jobs:
			sink(float64(j))
		case <-stop:
			return
		}
	}
}

// Ticker waits on a timer and a stop channel.
type Ticker struct{ ticks int }

func (t *Ticker) loop(ready *sync.WaitGroup, stop <-chan struct{}) {
	tick := time.NewTicker(time.Hour)
	defer tick.Stop()
	ready.Done()
	for {
		select {
		case <-tick.C:
			t.ticks++
		case <-stop:
			return
		}
	}
}

// Account has a balance behind a mutex.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Withdraw blocks while the account is locked.
func (a *Account) Withdraw(n int) {
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
}

func waitForGate(ready, gate *sync.WaitGroup) {
	ready.Done()
	gate.Wait()
}

// Janitor sleeps between sweeps.
type Janitor struct{ sweeps int }

func (j *Janitor) run(ready *sync.WaitGroup) {
	ready.Done()
	for {
		time.Sleep(time.Hour)
		j.sweeps++
	}
}

func readRequests(ready *sync.WaitGroup, c net.Conn) {
	r := bufio.NewReader(c)
	ready.Done()
	for {
		if _, err := r.ReadString('\n'); err != nil {
			return
		}
	}
}
