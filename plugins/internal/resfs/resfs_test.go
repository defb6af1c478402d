package resfs

import "testing"

func TestCursorRoundTrip(t *testing.T) {
	for _, c := range []struct{ o, s int }{{0, 0}, {1, 0}, {9999, 12}} {
		o, s, err := DecodeCursor("k", EncodeCursor("k", c.o, c.s))
		if err != nil || o != c.o || s != c.s {
			t.Fatalf("%+v → %d %d %v", c, o, s, err)
		}
	}
	for _, bad := range []string{"!", "e30", EncodeCursor("other", 1, 0)} {
		if _, _, err := DecodeCursor("k", bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}

func TestCleanPath(t *testing.T) {
	cases := []struct {
		in, want string
		root, ok bool
	}{
		{"res://a/b.tres", "res://a/b.tres", false, true},
		{"res://a//b/./c.gd", "res://a/b/c.gd", false, true},
		{"res://", "res://", true, true},
		{"res://", "", false, false},
		{"res://.godot/x", "", false, false},
		{"res://a/.hidden/x", "", false, false},
		{"res://../x", "", false, false},
		{"/tmp/x", "", false, false},
	}
	for _, c := range cases {
		got, err := CleanPath("path", c.in, c.root)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("CleanPath(%q, %v) = %q, %v", c.in, c.root, got, err)
		}
	}
}
