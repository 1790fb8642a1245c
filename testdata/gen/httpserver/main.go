// Command httpserver is a tiny service with net/http/pprof, for testing
// pprof-c's fetching of profiles over HTTP. Standard library only.
//
//	httpserver [-addr 127.0.0.1:0] [-lifetime 60s]
//
// It listens on -addr (port 0 picks a free port), prints
//
//	listening on 127.0.0.1:PORT
//
// as the first line of stdout, runs a background CPU and allocation
// workload (under profiler labels), and exits with status 0 after
// -lifetime so it never lingers after a test. Endpoints: the usual
// /debug/pprof/ ones (profile?seconds=N, heap, allocs, goroutine, mutex,
// block, threadcreate, trace, cmdline, symbol) and /work, which does one
// request's worth of work.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"
)

var (
	addr     = flag.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	lifetime = flag.Duration("lifetime", 60*time.Second, "exit after this long")
	workers  = flag.Int("workers", 2, "background workload goroutines")
)

func main() {
	flag.Parse()
	runtime.MemProfileRate = 4096
	runtime.SetMutexProfileFraction(5)
	runtime.SetBlockProfileRate(10000) // one sample per 10us blocked

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on %s\n", ln.Addr())
	os.Stdout.Sync()

	time.AfterFunc(*lifetime, func() {
		fmt.Fprintln(os.Stderr, "httpserver: lifetime over, exiting")
		os.Exit(0)
	})

	st := &store{items: make(map[int][]byte)}
	for i := 0; i < *workers; i++ {
		region := []string{"eu-west", "us-east"}[i%2]
		go pprof.Do(context.Background(), pprof.Labels("worker", strconv.Itoa(i), "region", region),
			func(context.Context) { background(st, i) })
	}
	http.HandleFunc("/work", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(request(st, int(time.Now().UnixNano()%1000)))
	})
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

// store is a small cache behind a mutex: allocations that stay live, and
// some lock contention between the workers.
type store struct {
	mu    sync.Mutex
	items map[int][]byte
}

func (s *store) put(k int, v []byte) {
	s.mu.Lock()
	s.items[k%512] = v
	s.mu.Unlock()
}

type result struct {
	Key    int    `json:"key"`
	Digest string `json:"digest"`
	Words  []string
}

// request hashes and encodes: the CPU and allocation work of one request.
func request(s *store, k int) result {
	buf := make([]byte, 4096+k%4096)
	for i := range buf {
		buf[i] = byte(i * k)
	}
	sum := sha256.Sum256(buf)
	for i := 0; i < 50; i++ {
		sum = sha256.Sum256(sum[:])
	}
	s.put(k, buf)
	r := result{Key: k, Digest: fmt.Sprintf("%x", sum[:8])}
	for i := 0; i < 20; i++ {
		r.Words = append(r.Words, strconv.Itoa(k*i))
	}
	return r
}

// background runs requests forever, pausing briefly so the process uses
// about half a CPU per worker.
func background(s *store, id int) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for k := id; ; k++ {
		deadline := time.Now().Add(5 * time.Millisecond)
		for time.Now().Before(deadline) {
			b, _ := json.Marshal(request(s, k))
			_ = b
			k++
		}
		<-tick.C
	}
}
