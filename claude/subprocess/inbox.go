package subprocess

import (
	"context"
	"sync"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// inbox is an unbounded FIFO between the stdout reader and the consumer, so that the reader never
// blocks on a slow consumer. Items are messages or non-fatal errors; after close, pop drains what is
// left and then returns the terminal error.
type inbox struct {
	mu     sync.Mutex
	items  []inboxItem
	head   int
	notify chan struct{} // capacity 1: "something changed"
	closed bool
	err    error
}

type inboxItem struct {
	msg shared.Message
	err error
}

func newInbox() *inbox { return &inbox{notify: make(chan struct{}, 1)} }

func (q *inbox) push(it inboxItem) {
	q.mu.Lock()
	if !q.closed {
		q.items = append(q.items, it)
	}
	q.mu.Unlock()
	q.wake()
}

func (q *inbox) wake() {
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// close ends the queue; err is what pop returns once the queue is drained.
func (q *inbox) close(err error) {
	q.mu.Lock()
	if !q.closed {
		q.closed, q.err = true, err
	}
	q.mu.Unlock()
	q.wake()
}

func (q *inbox) pop(ctx context.Context) (inboxItem, error) {
	for {
		q.mu.Lock()
		if q.head < len(q.items) {
			it := q.items[q.head]
			q.items[q.head] = inboxItem{}
			q.head++
			if q.head == len(q.items) {
				q.items, q.head = q.items[:0], 0
			}
			more := q.head < len(q.items) || q.closed
			q.mu.Unlock()
			if more {
				q.wake() // let another waiter see what is left
			}
			return it, nil
		}
		if q.closed {
			err := q.err
			q.mu.Unlock()
			q.wake()
			return inboxItem{}, err
		}
		q.mu.Unlock()
		select {
		case <-q.notify:
		case <-ctx.Done():
			return inboxItem{}, ctx.Err()
		}
	}
}
