package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/godot-mcp/godot-mcp/host/envelope"
)

// maxStdioLine is the longest JSON-RPC line read from stdin: the bridge's
// frame limit (a call's arguments go to the editor in one frame) plus room
// for the envelope. A longer line is skipped and answered with an error.
var maxStdioLine = envelope.MaxFrameBytes + 64<<10

// lineTooLongError reports a skipped line: its length and its first bytes
// (for the id).
type lineTooLongError struct {
	n      int
	prefix []byte
}

func (e *lineTooLongError) Error() string {
	return fmt.Sprintf("stdin line of %d bytes is longer than %d", e.n, maxStdioLine)
}

// readLine reads one line (with its newline, if any) of at most max bytes.
// A longer one is read to its end without being kept and reported as a
// *lineTooLongError; the reader is then at the next line.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > max {
			e := &lineTooLongError{n: len(line) + len(frag)}
			e.prefix = append(e.prefix, line[:min(len(line), 4096)]...)
			if len(e.prefix) < 4096 {
				e.prefix = append(e.prefix, frag[:min(len(frag), 4096-len(e.prefix))]...)
			}
			for err == bufio.ErrBufferFull {
				frag, err = r.ReadSlice('\n')
				e.n += len(frag)
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, e
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// refuseLongLine answers a skipped line with a JSON-RPC error, with the
// line's id when its first bytes hold it.
func (s *Server) refuseLongLine(w io.Writer, e *lineTooLongError) {
	id := salvageRequestID(e.prefix)
	s.log.Warn("skipped a stdin line longer than the limit", "bytes", e.n, "limit", maxStdioLine, "id", string(id))
	msg := fmt.Sprintf("request of %d bytes is larger than the %d MiB limit (the bridge's frame limit); send large content in several calls", e.n, maxStdioLine>>20)
	out, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": mcp.INVALID_REQUEST, "message": msg},
	})
	_, _ = w.Write(append(out, '\n'))
}

// salvageRequestID reads a top-level "id" (string or number) from the
// start of a JSON-RPC message; null when it cannot.
func salvageRequestID(prefix []byte) json.RawMessage {
	null := json.RawMessage("null")
	dec := json.NewDecoder(bytes.NewReader(prefix))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return null
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return null
		}
		key, ok := tok.(string)
		if !ok {
			return null
		}
		if key == "id" {
			switch v, _ := dec.Token(); v := v.(type) {
			case string:
				b, _ := json.Marshal(v)
				return b
			case json.Number:
				return json.RawMessage(v.String())
			}
			return null
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return null
		}
	}
}
