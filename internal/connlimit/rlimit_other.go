//go:build !unix

package connlimit

// FileLimit is 0 where RLIMIT_NOFILE does not exist: Budget then uses its want.
func FileLimit() uint64 { return 0 }
