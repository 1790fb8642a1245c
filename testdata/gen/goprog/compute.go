package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// retained keeps some allocations alive so the heap profile's inuse_* values
// differ from its alloc_* values.
var retained struct {
	trees   []*Tree
	asts    []*Expr
	buffers [][]byte
	reports []string
}

// ---- inlined hashing helpers ----

// mix is a 64-bit finalizer, small enough to be inlined everywhere.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// step folds one value into a running hash; it is inlined and inlines mix.
func step(h, x uint64) uint64 { return mix(h^x) + 0x9e3779b97f4a7c15 }

// Hasher is a running hash.
type Hasher struct{ state uint64 }

// Add is inlined into callers, bringing step and mix with it.
func (hs *Hasher) Add(x uint64) { hs.state = step(hs.state, x) }

// Sum returns the hash so far.
func (hs Hasher) Sum() uint64 { return hs.state }

func hashLoop(iters int, seed uint64) uint64 {
	hs := Hasher{state: seed}
	for i := 0; i < iters; i++ {
		hs.Add(uint64(i))
	}
	return hs.Sum()
}

// ---- a recursive-descent expression parser: deep, mutually recursive ----

// Expr is a node of a parsed arithmetic expression.
type Expr struct {
	Op          byte
	Val         float64
	Left, Right *Expr
}

type parser struct {
	src string
	pos int
}

// peek, advance and skipSpace are inlined into the parse functions.
func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) advance() { p.pos++ }

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseExpr: term (('+'|'-') term)*
func (p *parser) parseExpr() *Expr {
	left := p.parseTerm()
	for {
		p.skipSpace()
		c := p.peek()
		if c != '+' && c != '-' {
			return left
		}
		p.advance()
		left = &Expr{Op: c, Left: left, Right: p.parseTerm()}
	}
}

// parseTerm: factor (('*'|'/') factor)*
func (p *parser) parseTerm() *Expr {
	left := p.parseFactor()
	for {
		p.skipSpace()
		c := p.peek()
		if c != '*' && c != '/' {
			return left
		}
		p.advance()
		left = &Expr{Op: c, Left: left, Right: p.parseFactor()}
	}
}

// parseFactor: number | '(' expr ')'
func (p *parser) parseFactor() *Expr {
	p.skipSpace()
	if p.peek() == '(' {
		p.advance()
		e := p.parseExpr()
		p.skipSpace()
		p.advance() // ')'
		return e
	}
	start := p.pos
	for isDigit(p.peek()) || p.peek() == '.' {
		p.advance()
	}
	v, _ := strconv.ParseFloat(p.src[start:p.pos], 64)
	return &Expr{Op: 'n', Val: v}
}

// Eval recurses over the tree the parser built.
func (e *Expr) Eval() float64 {
	switch e.Op {
	case 'n':
		return e.Val
	case '+':
		return e.Left.Eval() + e.Right.Eval()
	case '-':
		return e.Left.Eval() - e.Right.Eval()
	case '*':
		return e.Left.Eval() * e.Right.Eval()
	default:
		r := e.Right.Eval()
		if r == 0 {
			return 0
		}
		return e.Left.Eval() / r
	}
}

// genExpr writes a random expression nested depth levels deep.
func genExpr(b *strings.Builder, rng *rand.Rand, depth int) {
	if depth == 0 {
		b.WriteString(strconv.Itoa(rng.Intn(100) + 1))
		return
	}
	ops := "+-*/"
	b.WriteByte('(')
	genExpr(b, rng, depth-1)
	b.WriteByte(' ')
	b.WriteByte(ops[rng.Intn(4)])
	b.WriteByte(' ')
	if rng.Intn(3) == 0 {
		genExpr(b, rng, depth/3)
	} else {
		b.WriteString(strconv.Itoa(rng.Intn(1000)))
	}
	b.WriteString(")")
}

// ---- a skewed tree: recursion 20-40 frames deep ----

// Tree is a binary tree node.
type Tree struct {
	Left, Right *Tree
	Key         int
	Weight      float64
}

func buildBalanced(rng *rand.Rand, depth int) *Tree {
	if depth == 0 {
		return nil
	}
	return &Tree{
		Left:   buildBalanced(rng, depth-1),
		Right:  buildBalanced(rng, depth-1),
		Key:    rng.Intn(1 << 20),
		Weight: rng.Float64(),
	}
}

// buildSkewed makes a spine depth nodes long with small balanced subtrees
// hanging off it, so walks reach depth + 5 frames.
func buildSkewed(rng *rand.Rand, depth int) *Tree {
	if depth == 0 {
		return buildBalanced(rng, 5)
	}
	return &Tree{
		Left:   buildSkewed(rng, depth-1),
		Right:  buildBalanced(rng, 4),
		Key:    rng.Intn(1 << 20),
		Weight: rng.Float64(),
	}
}

// Score walks the whole tree; the leaves do the hashing, so samples land at
// the bottom of deep stacks.
func (t *Tree) Score(seed uint64) float64 {
	if t == nil {
		return 0
	}
	h := hashLoop(150, seed^uint64(t.Key))
	return t.Weight*float64(h&0xffff) + t.Left.Score(h) + t.Right.Score(h>>1)
}

// searchWork parses and evaluates nested expressions, walks a deep tree and
// solves N-queens with a recursive closure.
func searchWork(rounds int) {
	rng := rand.New(rand.NewSource(2))
	tree := buildSkewed(rng, 28)
	retained.trees = append(retained.trees, tree)
	var sum float64
	for r := 0; r < rounds; r++ {
		var b strings.Builder
		genExpr(&b, rng, 11)
		p := parser{src: b.String()}
		e := p.parseExpr()
		sum += e.Eval()
		if r%50 == 0 {
			retained.asts = append(retained.asts, e)
		}
		if r%10 == 0 {
			sum += tree.Score(uint64(r))
		}
		if r%60 == 0 {
			sum += float64(queens(8))
		}
	}
	sink(sum)
}

// queens counts N-queens solutions with a closure that calls itself.
func queens(size int) int {
	cols := make([]bool, size)
	d1 := make([]bool, 2*size)
	d2 := make([]bool, 2*size)
	count := 0
	var place func(row int)
	place = func(row int) {
		if row == size {
			count++
			return
		}
		for c := 0; c < size; c++ {
			if cols[c] || d1[row+c] || d2[row-c+size] {
				continue
			}
			cols[c], d1[row+c], d2[row-c+size] = true, true, true
			place(row + 1)
			cols[c], d1[row+c], d2[row-c+size] = false, false, false
		}
	}
	place(0)
	return count
}

// ---- report: generics, closures, sort, value-receiver methods ----

// Point is a value type with value-receiver methods.
type Point struct{ X, Y float64 }

// Dist is inlined into the closures that call it.
func (p Point) Dist(q Point) float64 {
	dx, dy := p.X-q.X, p.Y-q.Y
	return math.Sqrt(dx*dx + dy*dy)
}

// Map applies f to every element.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// Reduce folds xs with f.
func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

// Number is a type constraint for Sum.
type Number interface {
	~int | ~int64 | ~float64 | ~uint64
}

// Sum adds numbers of any numeric type.
func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func reportWork(rounds int) {
	rng := rand.New(rand.NewSource(3))
	pts := make([]Point, 4000)
	for i := range pts {
		pts[i] = Point{rng.Float64() * 100, rng.Float64() * 100}
	}
	origin := Point{50, 50}
	var total float64
	for r := 0; r < rounds; r++ {
		dists := Map(pts, func(p Point) float64 { return p.Dist(origin) })
		total += Reduce(pts, 0.0, func(acc float64, p Point) float64 {
			return acc + p.Dist(Point{float64(r), 0})
		})
		total += Sum(dists)
		idx := Map(pts, func(p Point) int { return int(p.X*1000) ^ int(p.Y) })
		sort.Slice(pts, func(i, j int) bool {
			return pts[i].Dist(origin) < pts[j].Dist(origin)
		})
		total += float64(Sum(idx) & 0xff)
		hashes := make([]uint64, 0, 2000)
		for i := 0; i < 2000; i++ {
			hashes = append(hashes, hashLoop(60, uint64(i*r)))
		}
		total += float64(Sum(hashes) & 0xff)
		pts[r%len(pts)] = Point{rng.Float64() * 100, rng.Float64() * 100}
		if r%10 == 0 {
			retained.reports = append(retained.reports, formatReport(dists[:40]))
		}
	}
	sink(total)
}

func formatReport(xs []float64) string {
	var b strings.Builder
	for i, x := range xs {
		b.WriteString("row ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": ")
		b.WriteString(strconv.FormatFloat(x, 'f', 3, 64))
		b.WriteByte('\n')
	}
	return b.String()
}

// ---- checkout: a small matrix library with pointer-receiver methods ----

// Matrix is a dense square matrix.
type Matrix struct {
	n int
	a []float64
}

// NewMatrix fills an n x n matrix from rng.
func NewMatrix(rng *rand.Rand, n int) *Matrix {
	m := &Matrix{n: n, a: make([]float64, n*n)}
	for i := range m.a {
		m.a[i] = rng.Float64()
	}
	return m
}

// At and Set are inlined into Mul.
func (m *Matrix) At(i, j int) float64     { return m.a[i*m.n+j] }
func (m *Matrix) Set(i, j int, v float64) { m.a[i*m.n+j] = v }

// Mul returns m * o.
func (m *Matrix) Mul(o *Matrix) *Matrix {
	r := &Matrix{n: m.n, a: make([]float64, m.n*m.n)}
	for i := 0; i < m.n; i++ {
		for j := 0; j < m.n; j++ {
			var s float64
			for k := 0; k < m.n; k++ {
				s += m.At(i, k) * o.At(k, j)
			}
			r.Set(i, j, s)
		}
	}
	return r
}

// Trace sums the diagonal.
func (m *Matrix) Trace() float64 {
	var s float64
	for i := 0; i < m.n; i++ {
		s += m.At(i, i)
	}
	return s
}

func checkoutWork(rounds int) {
	rng := rand.New(rand.NewSource(4))
	a, b := NewMatrix(rng, 90), NewMatrix(rng, 90)
	var t float64
	for r := 0; r < rounds; r++ {
		c := a.Mul(b)
		t += c.Trace()
		a = c
		for i := range a.a {
			a.a[i] = math.Mod(a.a[i], 1)
		}
	}
	sink(t)
}

// ---- unlabeled work on the main goroutine: compress/flate ----

func compressWork(rounds int) {
	rng := rand.New(rand.NewSource(5))
	words := strings.Fields("the quick brown fox jumps over the lazy dog " +
		"profile sample location function mapping label value period")
	var src bytes.Buffer
	for src.Len() < 1<<19 {
		src.WriteString(words[rng.Intn(len(words))])
		src.WriteByte(' ')
	}
	for r := 0; r < rounds; r++ {
		var dst bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&dst, gzip.BestCompression)
		zw.Write(src.Bytes())
		zw.Close()
		zr, _ := gzip.NewReader(&dst)
		out, _ := io.ReadAll(zr)
		if r == 0 {
			retained.buffers = append(retained.buffers, out)
		}
	}
}

var sinkState struct {
	mu  sync.Mutex
	val float64
}

// sink keeps results observable so the compiler cannot drop the work.
func sink(v float64) {
	sinkState.mu.Lock()
	sinkState.val += v
	sinkState.mu.Unlock()
}
