package bridge

// SetMaxConns sets the bridge's connection limit for bridges created
// afterwards; the returned func restores it.
func SetMaxConns(n int) func() {
	old := maxConns
	maxConns = n
	return func() { maxConns = old }
}
