package attach

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// Lines reads a client's newline-delimited JSON-RPC messages on one
// goroutine of its own, so that the stream outlives whoever serves it: a
// proxy whose owner exits hands the rest of the stream to the server that
// takes over.
type Lines struct {
	ch   chan []byte
	done chan struct{}
	err  error // set before done closes
}

// NewLines starts reading r.
func NewLines(r io.Reader) *Lines {
	l := &Lines{ch: make(chan []byte), done: make(chan struct{})}
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				l.ch <- line
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					l.err = err
				}
				close(l.done)
				return
			}
		}
	}()
	return l
}

// C delivers the messages, each with its newline when it had one.
func (l *Lines) C() <-chan []byte { return l.ch }

// Done is closed when the input ended (after the last message was taken).
func (l *Lines) Done() <-chan struct{} { return l.done }

// Err is the read error that ended the input (nil for EOF); valid after Done.
func (l *Lines) Err() error { return l.err }

// Reader is an io.Reader of prefix, then the messages still to come, then
// EOF when the input ends or stop closes.
func (l *Lines) Reader(prefix []byte, stop <-chan struct{}) io.Reader {
	return &linesReader{l: l, buf: prefix, stop: stop}
}

type linesReader struct {
	l    *Lines
	buf  []byte
	stop <-chan struct{}
	mu   sync.Mutex
}

func (r *linesReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.buf) == 0 {
		select {
		case line := <-r.l.ch:
			if line[len(line)-1] != '\n' {
				line = append(line, '\n')
			}
			r.buf = line
		case <-r.l.done:
			select {
			case line := <-r.l.ch: // never: done closes after the last send
				r.buf = line
				continue
			default:
			}
			if r.l.err != nil {
				return 0, r.l.err
			}
			return 0, io.EOF
		case <-r.stop:
			return 0, io.EOF
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
