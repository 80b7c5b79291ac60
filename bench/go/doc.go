// Package benchgo runs Go's encoding/json over the inputs of jetjson's
// workload benchmarks 1 to 4 (OCI manifests, request binding, SDK records,
// message envelopes), so the report can set Go's numbers next to jetjson's.
//
// The inputs are the files in testdata/, written by the Rust generators
// (`cargo run -p jetjson-bench -- --write-go-data bench/go/testdata`; a Rust
// test fails when they are stale). The Go types below mirror the Rust
// models field for field; TestInputs checks that Go writes back exactly the
// bytes jetjson's `go` profile wrote, so both sides measure the same data.
//
//	go test                                # checks (make test-bench-go)
//	go test -run '^$' -bench . -benchmem   # benchmarks
//
// Standard library only: GOTOOLCHAIN=local GOPROXY=off works.
package benchgo
