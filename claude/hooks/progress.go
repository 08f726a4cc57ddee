package hooks

import "sync"

// progressReporter passes the progress lines of one handler run to Options.Progress until
// the run's end is reported; later lines are dropped, so that a run's lines never follow its end.
type progressReporter struct {
	mu    sync.Mutex
	ended bool
	run   HandlerRun
	fn    func(HandlerRun, string, string)
}

func (p *progressReporter) report(stream, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended {
		p.fn(p.run, stream, line)
	}
}

// end stops the reports; a report in progress completes first.
func (p *progressReporter) end() {
	p.mu.Lock()
	p.ended = true
	p.mu.Unlock()
}
