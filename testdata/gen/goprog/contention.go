package main

import (
	"strconv"
	"sync"
	"time"
)

// The contention workload, run with SetMutexProfileFraction(1) and
// SetBlockProfileRate(1): hot sync.Mutex and sync.RWMutex, a pipeline of
// unbuffered channels with a slow consumer, a select fan-in, a sync.Cond
// barrier and WaitGroup waits.

// Inventory is guarded by one hot mutex.
type Inventory struct {
	mu    sync.Mutex
	stock map[string]int
}

// Reserve holds the lock while it does some work.
func (inv *Inventory) Reserve(sku string, qty int) bool {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	h := hashLoop(3000, uint64(len(sku)+qty))
	if inv.stock[sku] < qty {
		inv.stock[sku] += 10 + int(h%5)
		return false
	}
	inv.stock[sku] -= qty
	return true
}

// Stats is read often and written often.
type Stats struct {
	mu     sync.RWMutex
	counts map[string]int
}

// Inc takes the write lock.
func (st *Stats) Inc(k string) {
	st.mu.Lock()
	st.counts[k]++
	sink(float64(hashLoop(2000, uint64(st.counts[k]))))
	st.mu.Unlock()
}

// Get takes the read lock.
func (st *Stats) Get(k string) int {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.counts[k] + int(hashLoop(500, uint64(len(k)))&1)
}

// Barrier releases its waiters when n of them have arrived.
type Barrier struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n       int
	waiting int
	gen     int
}

// NewBarrier makes a barrier for n goroutines.
func NewBarrier(n int) *Barrier {
	b := &Barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Await blocks until n goroutines have called it.
func (b *Barrier) Await() {
	b.mu.Lock()
	gen := b.gen
	b.waiting++
	if b.waiting == b.n {
		b.waiting = 0
		b.gen++
		b.cond.Broadcast()
	} else {
		for gen == b.gen {
			b.cond.Wait()
		}
	}
	b.mu.Unlock()
}

func contentionWorkload() {
	var wg sync.WaitGroup
	inv := &Inventory{stock: make(map[string]int)}
	st := &Stats{counts: make(map[string]int)}
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < n(1500); i++ {
				sku := "SKU-" + strconv.Itoa(i%17)
				inv.Reserve(sku, 1+w%3)
				if i%3 == 0 {
					st.Inc(sku)
				} else {
					st.Get(sku)
				}
			}
		}(w)
	}

	wg.Add(1)
	go func() {
		defer wg.Done()
		pipeline(n(3000))
	}()

	wg.Add(1)
	go func() {
		defer wg.Done()
		fanIn(n(2000))
	}()

	bar := NewBarrier(4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for round := 0; round < n(200); round++ {
				sink(float64(hashLoop(200*(w+1), uint64(round))))
				bar.Await()
			}
		}(w)
	}
	waitAll(&wg)
}

//go:noinline
func waitAll(wg *sync.WaitGroup) { wg.Wait() }

// pipeline: produce -> parseStage -> slowSink over unbuffered channels.
func pipeline(items int) {
	raw := make(chan string)
	parsed := make(chan int)
	done := make(chan int)
	go produce(raw, items)
	go parseStage(raw, parsed)
	go slowSink(parsed, done)
	sink(float64(<-done))
}

func produce(out chan<- string, items int) {
	for i := 0; i < items; i++ {
		out <- strconv.Itoa(i * 7)
	}
	close(out)
}

func parseStage(in <-chan string, out chan<- int) {
	for s := range in {
		v, _ := strconv.Atoi(s)
		out <- v
	}
	close(out)
}

func slowSink(in <-chan int, done chan<- int) {
	total := 0
	for v := range in {
		total += int(hashLoop(2000, uint64(v)) & 0xff)
	}
	done <- total
}

// fanIn merges two tickers' worth of values with a select.
func fanIn(items int) {
	a, b := make(chan int), make(chan int)
	quit := make(chan struct{})
	go func() {
		for i := 0; ; i++ {
			select {
			case a <- i:
			case <-quit:
				return
			}
			if i%50 == 0 {
				time.Sleep(50 * time.Microsecond)
			}
		}
	}()
	go func() {
		for i := 0; ; i++ {
			select {
			case b <- i:
			case <-quit:
				return
			}
			sink(float64(hashLoop(500, uint64(i))))
		}
	}()
	sum := 0
	for i := 0; i < items; i++ {
		select {
		case v := <-a:
			sum += v
		case v := <-b:
			sum -= v
		}
	}
	close(quit)
	sink(float64(sum))
}
