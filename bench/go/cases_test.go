package benchgo

import "testing"

// TestInputs checks every row once and runs its body once, so the Go side
// of the suite cannot rot (make test-bench-go).
func TestInputs(t *testing.T) {
	cases := Cases()
	if len(cases) != 3*3+3+2*4+4*4 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		if err := c.Check(); err != nil {
			t.Errorf("%s: %v", c.Name(), err)
		}
		if err := c.Run(); err != nil {
			t.Errorf("%s: run: %v", c.Name(), err)
		}
	}
}

// BenchmarkWorkloads/<family>/<case>/<op> matches the Rust rows by name.
func BenchmarkWorkloads(b *testing.B) {
	for _, c := range Cases() {
		b.Run(c.Name(), func(b *testing.B) {
			if err := c.Check(); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(c.Bytes))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
