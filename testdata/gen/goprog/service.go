package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The service workload: requests go through net/http's handler chain
// (LoggingMiddleware -> AuthMiddleware's closure -> ServeMux -> a handler
// method) without a network, using net/http/httptest.
//
// LoggingMiddleware is the function the before/after pair is about: with
// verbose logging it re-decodes every response to redact it, formats every
// header with fmt, indents JSON and masks digits byte by byte; with fastLog
// it appends a few fields to a pooled buffer.

// User is an account.
type User struct {
	ID    int               `json:"id"`
	Name  string            `json:"name"`
	Email string            `json:"email"`
	Roles []string          `json:"roles"`
	Prefs map[string]string `json:"prefs"`
}

// Session is a logged-in user.
type Session struct {
	Token  string   `json:"token"`
	User   *User    `json:"user"`
	Seq    int64    `json:"seq"`
	Scopes []string `json:"scopes"`
}

// Product is a catalog entry.
type Product struct {
	SKU   string   `json:"sku"`
	Name  string   `json:"name"`
	Price int      `json:"price_cents"`
	Tags  []string `json:"tags"`
}

type cartItem struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

type receipt struct {
	Lines []string `json:"lines"`
	Total int      `json:"total_cents"`
	Tax   int      `json:"tax_cents"`
}

// Service holds the data behind the handlers.
type Service struct {
	fastLog bool
	users   map[string]*User
	names   []string
	catalog []Product
	bySKU   map[string]*Product
	handler http.Handler

	mu       sync.Mutex
	seq      int64
	sessions []*Session // ring of the most recent sessions, kept live
	next     int

	logged  int64 // bytes "written" to the log
	bufPool sync.Pool
}

var (
	firstNames = strings.Fields("alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy rupert sybil trent victor walter")
	nouns      = strings.Fields("fox dog lamp chair table kettle router cable mug pencil notebook camera drone watch phone")
	adjectives = strings.Fields("quick lazy brown red compact deluxe wireless smart vintage rugged")
)

// NewService builds users, a product catalog and the handler chain.
func NewService(fastLog bool) *Service {
	rng := rand.New(rand.NewSource(1))
	s := &Service{
		fastLog:  fastLog,
		users:    make(map[string]*User),
		bySKU:    make(map[string]*Product),
		sessions: make([]*Session, 1500),
	}
	s.bufPool.New = func() interface{} { b := make([]byte, 0, 256); return &b }
	for i := 0; i < 300; i++ {
		name := firstNames[i%len(firstNames)] + strconv.Itoa(i)
		s.users[name] = &User{
			ID:    i,
			Name:  name,
			Email: name + "@example.com",
			Roles: []string{"user", []string{"admin", "support", "billing"}[i%3]},
			Prefs: map[string]string{"lang": []string{"en", "de", "fr"}[i%3], "tz": "UTC", "theme": "dark"},
		}
		s.names = append(s.names, name)
	}
	for i := 0; i < 400; i++ {
		s.catalog = append(s.catalog, Product{
			SKU:   fmt.Sprintf("SKU-%05d", i),
			Name:  adjectives[rng.Intn(len(adjectives))] + " " + nouns[rng.Intn(len(nouns))],
			Price: 100 + rng.Intn(50000),
			Tags:  []string{nouns[rng.Intn(len(nouns))], adjectives[rng.Intn(len(adjectives))]},
		})
	}
	for i := range s.catalog {
		s.bySKU[s.catalog[i].SKU] = &s.catalog[i]
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/login", s.handleLogin)
	mux.HandleFunc("/search", s.handleSearch)
	mux.HandleFunc("/checkout", s.handleCheckout)
	s.handler = loggingHandler{s: s, next: AuthMiddleware(mux)}
	retainedServices.Lock()
	retainedServices.list = append(retainedServices.list, s)
	retainedServices.Unlock()
	return s
}

var retainedServices struct {
	sync.Mutex
	list []*Service
}

// Drive sends requests to path through the whole handler chain.
func (s *Service) Drive(requests int, path string) {
	rng := rand.New(rand.NewSource(int64(len(path))))
	for i := 0; i < requests; i++ {
		req := s.newRequest(rng, path, i)
		rec := httptest.NewRecorder()
		s.handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			panic(fmt.Sprintf("%s: status %d: %s", path, rec.Code, rec.Body.String()))
		}
	}
}

func (s *Service) newRequest(rng *rand.Rand, path string, i int) *http.Request {
	user := s.names[rng.Intn(len(s.names))]
	var req *http.Request
	switch path {
	case "/login":
		form := url.Values{"user": {user}, "password": {"hunter" + strconv.Itoa(i)}}
		req = httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case "/search":
		q := url.Values{"q": {nouns[rng.Intn(len(nouns))]}, "limit": {strconv.Itoa(10 + rng.Intn(30))}}
		req = httptest.NewRequest("GET", "/search?"+q.Encode(), nil)
	default:
		items := make([]cartItem, 1+rng.Intn(8))
		for j := range items {
			items[j] = cartItem{SKU: s.catalog[rng.Intn(len(s.catalog))].SKU, Qty: 1 + rng.Intn(4)}
		}
		body, _ := json.Marshal(items)
		req = httptest.NewRequest("POST", path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	token := base64.StdEncoding.EncodeToString([]byte(user + ":" + strconv.Itoa(i)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("User-Agent", "loadgen/1.0 (pprof-c testdata)")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Request-Id", fmt.Sprintf("%016x", rng.Uint64()))
	return req
}

type ctxKey int

const userKey ctxKey = 0

// AuthMiddleware checks the bearer token; its closure is
// main.AuthMiddleware.func1 in profiles.
func AuthMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		raw, err := base64.StdEncoding.DecodeString(tok)
		if err != nil {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		parts := strings.SplitN(string(raw), ":", 2)
		ctx := context.WithValue(r.Context(), userKey, parts[0])
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

type loggingHandler struct {
	s    *Service
	next http.Handler
}

func (h loggingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	LoggingMiddleware(h.s, w, r, h.next)
}

// responseCapture records the status, and in verbose mode the body too.
type responseCapture struct {
	http.ResponseWriter
	status int
	size   int
	body   *bytes.Buffer
}

func (rc *responseCapture) WriteHeader(code int) {
	rc.status = code
	rc.ResponseWriter.WriteHeader(code)
}

func (rc *responseCapture) Write(p []byte) (int, error) {
	rc.size += len(p)
	if rc.body != nil {
		rc.body.Write(p)
	}
	return rc.ResponseWriter.Write(p)
}

// LoggingMiddleware logs every request. Verbose (the "before" profile) is
// expensive on purpose; fastLog (the "after" profile) is not.
//
//go:noinline
func LoggingMiddleware(s *Service, w http.ResponseWriter, r *http.Request, next http.Handler) {
	rc := &responseCapture{ResponseWriter: w, status: http.StatusOK}
	if !s.fastLog {
		rc.body = new(bytes.Buffer)
	}
	next.ServeHTTP(rc, r)

	if s.fastLog {
		bp := s.bufPool.Get().(*[]byte)
		b := append((*bp)[:0], r.Method...)
		b = append(b, ' ')
		b = append(b, r.URL.Path...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(rc.status), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(rc.size), 10)
		b = append(b, '\n')
		atomic.AddInt64(&s.logged, int64(len(b)))
		*bp = b
		s.bufPool.Put(bp)
		return
	}

	headers := make([]string, 0, len(r.Header))
	for k, vs := range r.Header {
		headers = append(headers, fmt.Sprintf("%s=%q", k, strings.Join(vs, ",")))
	}
	sort.Strings(headers)
	var resp interface{}
	if err := json.Unmarshal(rc.body.Bytes(), &resp); err == nil {
		resp = redact(resp)
	}
	entry := map[string]interface{}{
		"method":   r.Method,
		"path":     r.URL.Path,
		"query":    r.URL.Query(),
		"user":     r.Context().Value(userKey),
		"status":   rc.status,
		"size":     rc.size,
		"headers":  headers,
		"response": resp,
		"summary":  fmt.Sprintf("%s %s -> %d (%d bytes) ua=%q", r.Method, r.URL.String(), rc.status, rc.size, r.UserAgent()),
	}
	line, _ := json.MarshalIndent(entry, "", "    ")
	// Mask digits (account numbers, tokens) byte by byte, and checksum
	// the line: flat time in LoggingMiddleware and in its inlined helpers.
	var hs Hasher
	for i, c := range line {
		if c >= '0' && c <= '9' {
			line[i] = '#'
		}
		hs.Add(uint64(line[i]))
	}
	for round := 0; round < 4; round++ {
		for i := range line {
			if line[i] == '#' {
				line[i] = byte('0' + (hs.Sum()+uint64(i+round))%10)
			}
		}
		for i := range line {
			if line[i] >= '0' && line[i] <= '9' {
				line[i] = '#'
			}
		}
	}
	line = append(line, fmt.Sprintf(" sum=%x\n", hs.Sum())...)
	atomic.AddInt64(&s.logged, int64(len(line)))
}

// redact replaces secret-looking fields, recursively.
func redact(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			if k == "token" || k == "email" {
				t[k] = "[redacted]"
			} else {
				t[k] = redact(x)
			}
		}
	case []interface{}:
		for i := range t {
			t[i] = redact(t[i])
		}
	}
	return v
}

func writeJSON(w http.ResponseWriter, v interface{}) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		panic(err)
	}
}

func (s *Service) handleLogin(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	u := s.users[r.FormValue("user")]
	if u == nil {
		http.Error(w, "no such user", http.StatusForbidden)
		return
	}
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	sess := &Session{
		Token:  deriveToken(u.Name, r.FormValue("password"), seq),
		User:   u,
		Seq:    seq,
		Scopes: append([]string{"read"}, u.Roles...),
	}
	s.mu.Lock()
	s.sessions[s.next] = sess
	s.next = (s.next + 1) % len(s.sessions)
	s.mu.Unlock()
	writeJSON(w, sess)
}

// deriveToken stretches the password with repeated SHA-256.
func deriveToken(name, password string, seq int64) string {
	sum := sha256.Sum256([]byte(name + ":" + password + ":" + strconv.FormatInt(seq, 10)))
	for i := 0; i < 64; i++ {
		sum = sha256.Sum256(sum[:])
	}
	return hex.EncodeToString(sum[:])
}

func (s *Service) handleSearch(w http.ResponseWriter, r *http.Request) {
	q := strings.ToLower(r.URL.Query().Get("q"))
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	var hits []Product
	for _, p := range s.catalog {
		match := strings.Contains(strings.ToLower(p.Name), q)
		for _, t := range p.Tags {
			if strings.EqualFold(t, q) {
				match = true
			}
		}
		if match {
			hits = append(hits, p)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Price < hits[j].Price })
	if len(hits) > limit {
		hits = hits[:limit]
	}
	writeJSON(w, map[string]interface{}{"query": q, "count": len(hits), "results": hits})
}

func (s *Service) handleCheckout(w http.ResponseWriter, r *http.Request) {
	var items []cartItem
	if err := json.NewDecoder(r.Body).Decode(&items); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var rc receipt
	for _, it := range items {
		p := s.bySKU[it.SKU]
		if p == nil {
			continue
		}
		cost := p.Price * it.Qty
		rc.Total += cost
		rc.Lines = append(rc.Lines, fmt.Sprintf("%-12s %-24s %3d x %8.2f = %10.2f",
			p.SKU, p.Name, it.Qty, float64(p.Price)/100, float64(cost)/100))
	}
	rc.Tax = rc.Total * 19 / 100
	writeJSON(w, rc)
}
