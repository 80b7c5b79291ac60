package benchgo

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServe lets the Rust harness time Go as one more contender of its
// interleaved rounds, so Go's numbers see the same machine noise as the
// Rust ones (a separate `go test -bench` run happens at another time on a
// shared machine). Run only when JETJSON_BENCH_SERVE=1, from the compiled
// test binary (`go test -c`), with this line protocol on stdin/stdout:
//
//	-> ready <name> <name> ...         (after every Check passed)
//	<- time <name> <n>     -> <ns>     (n calls, timed here)
//	<- allocs <name> <n>   -> <allocs per call> <bytes per call>
//	<- quit
func TestServe(t *testing.T) {
	if os.Getenv("JETJSON_BENCH_SERVE") != "1" {
		t.Skip("set JETJSON_BENCH_SERVE=1 (the Rust harness does)")
	}
	byName := map[string]Case{}
	var names []string
	for _, c := range Cases() {
		if err := c.Check(); err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
		byName[c.Name()] = c
		names = append(names, c.Name())
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	reply := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	reply("ready " + strings.Join(names, " "))
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 1 && f[0] == "quit" {
			return
		}
		if len(f) != 3 {
			t.Fatalf("bad request %q", in.Text())
		}
		c, ok := byName[f[1]]
		n, err := strconv.Atoi(f[2])
		if !ok || err != nil || n < 1 {
			t.Fatalf("bad request %q", in.Text())
		}
		switch f[0] {
		case "time":
			start := time.Now()
			for i := 0; i < n; i++ {
				if err := c.Run(); err != nil {
					t.Fatalf("%s: %v", c.Name(), err)
				}
			}
			reply(strconv.FormatInt(time.Since(start).Nanoseconds(), 10))
		case "allocs":
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < n; i++ {
				_ = c.Run()
			}
			runtime.ReadMemStats(&after)
			reply(fmt.Sprintf("%d %d", (after.Mallocs-before.Mallocs)/uint64(n), (after.TotalAlloc-before.TotalAlloc)/uint64(n)))
		default:
			t.Fatalf("bad request %q", in.Text())
		}
	}
}
