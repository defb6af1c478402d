package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/godot-mcp/godot-mcp/internal/pluginproto"
)

// The floors of the plugin hop.
//
// The gRPC floor: what two round trips cost over grpc-go itself, between
// two Go processes on a Unix socket, with the transport options the plugin
// protocol uses and nothing of ours on either side (no model, no gate, no
// SDK, no protobuf: the bytes are passed through a codec that copies them).
// The plugin hop makes exactly two such round trips (the call and its
// result, the Send and its answer), so no code of ours on top of gRPC can
// make the hop cheaper than this; PluginHop reports the hop against it.

//
// The raw floor: the same two round trips as 200-byte lines on the pipes of
// a child process (RawProcessEcho's child) with no protocol at all: what a
// leaner channel than gRPC could at best get down to.

// grpcChildEnv makes the test binary the floor's server: a bidi stream that
// answers every message with itself, on the socket the variable names.
const grpcChildEnv = "GODOT_MCP_BENCH_GRPC_CHILD"

// rawCodec passes []byte messages through unchanged.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *v.(*[]byte), nil }
func (rawCodec) Unmarshal(b []byte, v any) error {
	*v.(*[]byte) = append((*v.(*[]byte))[:0], b...)
	return nil
}
func (rawCodec) Name() string { return "godot-mcp-bench-raw" }

var floorStream = grpc.StreamDesc{StreamName: "Echo", ServerStreams: true, ClientStreams: true}

var floorService = grpc.ServiceDesc{
	ServiceName: "godotmcp.bench.Floor",
	HandlerType: (*any)(nil),
	Streams: []grpc.StreamDesc{{
		StreamName: floorStream.StreamName, ServerStreams: true, ClientStreams: true,
		Handler: func(_ any, s grpc.ServerStream) error {
			var msg []byte
			for {
				if err := s.RecvMsg(&msg); err != nil {
					return nil
				}
				if err := s.SendMsg(&msg); err != nil {
					return err
				}
			}
		},
	}},
}

func grpcChild(sock string) {
	l, err := net.Listen("unix", sock)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := grpc.NewServer(append(pluginproto.ServerOptions(), grpc.ForceServerCodec(rawCodec{}))...)
	s.RegisterService(&floorService, nil)
	_ = s.Serve(l)
}

// grpcFloor is a client of the floor's server process.
type grpcFloor struct {
	conn   *grpc.ClientConn
	stream grpc.ClientStream
	msg    []byte
	Pid    int
}

// startGRPCFloor starts the floor's server process and opens its stream.
func startGRPCFloor(tb testing.TB) *grpcFloor {
	tb.Helper()
	sock := filepath.Join(tb.TempDir(), "floor.sock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), grpcChildEnv+"="+sock)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			tb.Fatal("the gRPC floor's server did not listen")
		}
	}
	opts := append(pluginproto.DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{})))
	conn, err := grpc.NewClient("unix://"+sock, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	f := (&grpcFloor{conn: conn, Pid: cmd.Process.Pid}).open(tb)
	f.roundTrip(tb)
	return f
}

// open returns a client of the same server on a stream of its own (a
// stream is one caller's at a time).
func (f *grpcFloor) open(tb testing.TB) *grpcFloor {
	stream, err := f.conn.NewStream(context.Background(), &floorStream, "/godotmcp.bench.Floor/Echo")
	if err != nil {
		tb.Fatal(err)
	}
	// About the size of the echo tool's call and result messages.
	return &grpcFloor{conn: f.conn, stream: stream, msg: make([]byte, 200), Pid: f.Pid}
}

// roundTrip sends one message and waits for it to come back.
func (f *grpcFloor) roundTrip(tb testing.TB) {
	if err := f.stream.SendMsg(&f.msg); err != nil {
		tb.Fatal(err)
	}
	if err := f.stream.RecvMsg(&f.msg); err != nil {
		tb.Fatal(err)
	}
}

// rawFloor is a client of a line-echo child process (see echoChild).
type rawFloor struct {
	in   io.WriteCloser
	out  *bufio.Reader
	line []byte
}

// startRawFloor starts the line-echo child.
func startRawFloor(tb testing.TB) *rawFloor {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), echoChildEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { in.Close(); cmd.Wait() })
	f := &rawFloor{in: in, out: bufio.NewReader(out), line: []byte(strings.Repeat("x", 199) + "\n")}
	f.roundTrip(tb)
	return f
}

// roundTrip sends one line and reads it back.
func (f *rawFloor) roundTrip(tb testing.TB) {
	if _, err := f.in.Write(f.line); err != nil {
		tb.Fatal(err)
	}
	if got, err := f.out.ReadBytes('\n'); err != nil || len(got) != len(f.line) {
		tb.Fatalf("raw floor echo: %q, %v", got, err)
	}
}
