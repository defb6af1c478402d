//go:build unix

package analysis

import (
	"syscall"
)

// readFile reads a file whose size the walk saw: open, read, close with
// plain system calls (os.Open also registers a file with the runtime's
// poller, a fourth call per file that costs more than the read of a small
// one); a read of more than the size that comes back short is the end.
// O_NOFOLLOW: a file swapped for a link since the walk is not followed.
func readFile(name string, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	buf := make([]byte, size+1)
	n := 0
	for {
		if n == len(buf) { // grew since the walk
			buf = append(buf, make([]byte, len(buf))...)
		}
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		n += m
		if m == 0 || n < len(buf) { // a short read of a regular file is its end
			return buf[:n], nil
		}
	}
}
