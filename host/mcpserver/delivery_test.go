package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// The event store keeps a session's last ringEvents events: a resume from
// one of them replays what followed on its stream, in order; from an
// evicted one it is refused as unknown, and a purged session has none.
func TestRingEventStoreKeepsTheLastEvents(t *testing.T) {
	ctx := context.Background()
	s := newRingEventStore()
	var ids []string
	for i := range ringEvents + 44 {
		stream := "a"
		if i%2 == 1 {
			stream = "b"
		}
		id, err := s.StoreEvent(ctx, "s1", stream, json.RawMessage(fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if _, err := s.StoreEvent(ctx, "s2", "a", json.RawMessage(`"other"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplayEventsAfter(ctx, "s1", ids[0], func(string, json.RawMessage) error { return nil }); !errors.Is(err, server.ErrUnknownEventID) {
		t.Fatalf("evicted event: err %v, want ErrUnknownEventID", err)
	}
	from := len(ids) - 10 // an "a" event (even index)
	var got []string
	stream, err := s.ReplayEventsAfter(ctx, "s1", ids[from], func(id string, m json.RawMessage) error {
		got = append(got, string(m))
		return nil
	})
	if err != nil || stream != "a" {
		t.Fatalf("replay: stream %q err %v", stream, err)
	}
	want := []string{}
	for i := from + 2; i < len(ids); i += 2 {
		want = append(want, fmt.Sprint(i))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("replayed %v, want %v", got, want)
	}
	if _, err := s.ReplayEventsAfter(ctx, "s2", ids[from], func(string, json.RawMessage) error { return nil }); !errors.Is(err, server.ErrUnknownEventID) {
		t.Fatalf("another session's event: err %v", err)
	}
	_ = s.PurgeSession(ctx, "s1")
	if _, err := s.ReplayEventsAfter(ctx, "s1", ids[len(ids)-1], func(string, json.RawMessage) error { return nil }); !errors.Is(err, server.ErrUnknownEventID) {
		t.Fatalf("purged session: err %v", err)
	}
}
