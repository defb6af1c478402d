// Package archtest holds the module's architecture tests: which packages
// may import which. It has no code of its own.
package archtest
