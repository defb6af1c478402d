package mcpserver

import (
	"container/list"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
)

// sessionIDs is mcp-go's SessionIdManager for the streamable HTTP
// transport: it mints random ids at initialize and serves only those. A
// terminated id is forgotten, so it gets 404 like one never issued; beyond
// max live sessions the least recently used is forgotten too.
type sessionIDs struct {
	max int

	mu    sync.Mutex
	ids   map[string]*list.Element
	order *list.List // front: most recently used
	// ledgers: each live session's deliveryLedger (delivery.go), made on
	// its first request and forgotten with the session.
	ledgers map[string]*deliveryLedger
}

func newSessionIDs(max int) *sessionIDs {
	return &sessionIDs{max: max, ids: map[string]*list.Element{}, order: list.New(), ledgers: map[string]*deliveryLedger{}}
}

const sessionPrefix = "mcp-session-"

func (s *sessionIDs) Generate() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := sessionPrefix + hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids[id] = s.order.PushFront(id)
	for s.order.Len() > s.max {
		old := s.order.Back()
		s.order.Remove(old)
		delete(s.ids, old.Value.(string))
		delete(s.ledgers, old.Value.(string))
	}
	return id
}

var errUnknownSession = errors.New("unknown or terminated session id")

func (s *sessionIDs) Validate(id string) (isTerminated bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.ids[id]
	if !ok {
		return false, errUnknownSession
	}
	s.order.MoveToFront(e)
	return false, nil
}

func (s *sessionIDs) Terminate(id string) (isNotAllowed bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[id]; ok {
		s.order.Remove(e)
		delete(s.ids, id)
	}
	delete(s.ledgers, id)
	return false, nil
}

// ledger is the deliveryLedger of live session id (nil for an id not
// served).
func (s *sessionIDs) ledger(id string) *deliveryLedger {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ids[id]; !ok {
		return nil
	}
	l := s.ledgers[id]
	if l == nil {
		l = newDeliveryLedger()
		s.ledgers[id] = l
	}
	return l
}

func (s *sessionIDs) known(id string) bool {
	_, err := s.Validate(id)
	return err == nil
}
