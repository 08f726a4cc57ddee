package temporalagent_test

import (
	"io"
	"net"
	"sync"
	"testing"
)

// cutProxy is a TCP proxy that a test can cut: a worker reaches a server (the Temporal frontend,
// PostgreSQL) through it, and Cut partitions the worker from that server while the worker
// process lives on: the listener closes (new connections are refused) and every open connection
// is closed.
type cutProxy struct {
	ln   net.Listener
	dial func() (net.Conn, error)

	mu    sync.Mutex
	conns map[net.Conn]struct{}
	cut   bool
	wg    sync.WaitGroup // the accept loop and the copiers
}

// startCutProxy listens on a loopback port and forwards each connection to what dial reaches.
// It is cut at cleanup at the latest.
func startCutProxy(t *testing.T, dial func() (net.Conn, error)) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, dial: dial, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.Cut)
	return p
}

// Addr is the proxy's host:port.
func (p *cutProxy) Addr() string { return p.ln.Addr().String() }

func (p *cutProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed by Cut
		}
		up, err := p.dial()
		if err != nil {
			c.Close()
			continue
		}
		if !p.track(c, up) {
			return
		}
		p.wg.Add(2)
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

// track registers a connection's two ends, or closes them if the proxy was cut meanwhile.
func (p *cutProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		for _, c := range conns {
			c.Close()
		}
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// pipe copies from src to dst until either fails, then closes both.
func (p *cutProxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src) // ends at EOF, a reset or the cut; the other direction ends with it
	dst.Close()
	src.Close()
}

// Cut closes the listener and every connection, and waits for the proxy's goroutines to end.
// Later calls do nothing.
func (p *cutProxy) Cut() {
	p.mu.Lock()
	if p.cut {
		p.mu.Unlock()
		return
	}
	p.cut = true
	p.ln.Close()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
