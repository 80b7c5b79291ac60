package benchgo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

// Case is one row of the Rust suite done by Go: Family/Case/Op are the
// Rust row's names, so the report can join them. Check verifies the output
// once (before any timing); Run is the timed body.
type Case struct {
	Family, Case, Op string
	Bytes            int
	Check            func() error
	Run              func() error
}

func (c Case) Name() string { return c.Family + "/" + c.Case + "/" + c.Op }

func load(name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(fmt.Sprintf("%v (regenerate: cargo run -p jetjson-bench -- --write-go-data bench/go/testdata)", err))
	}
	return b
}

func sameBytes(what string, got, want []byte) error {
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s: Go wrote %d bytes that differ from jetjson's go profile (%d bytes)\n got: %.200s\nwant: %.200s", what, len(got), len(want), got, want)
	}
	return nil
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Cases lists every Go row, in the Rust suite's order.
func Cases() []Case {
	var cs []Case
	cs = append(cs, ociCases[Manifest]("manifest-5")...)
	cs = append(cs, ociCases[Manifest]("manifest-50")...)
	cs = append(cs, ociCases[Index]("index-10")...)
	cs = append(cs, bindingCases()...)
	cs = append(cs, sdkCases[Simple]("simple")...)
	cs = append(cs, sdkCases[Complex]("complex")...)
	for _, n := range EnvelopeSizes {
		cs = append(cs, envelopeCases(n)...)
	}
	return cs
}

func ociCases[T any](name string) []Case {
	file := load("oci-" + name + ".json")
	var doc T
	if err := json.Unmarshal(file, &doc); err != nil {
		panic(err)
	}
	want := digestOf(file)
	return []Case{
		{"oci", name, "serialize", len(file),
			func() error { b, err := json.Marshal(&doc); return errors.Join(err, sameBytes(name, b, file)) },
			func() error { _, err := json.Marshal(&doc); return err }},
		{"oci", name, "parse", len(file),
			func() error {
				var got T
				if err := json.Unmarshal(file, &got); err != nil || !reflect.DeepEqual(got, doc) {
					return fmt.Errorf("%s: parse differs (%v)", name, err)
				}
				return nil
			},
			func() error { var got T; return json.Unmarshal(file, &got) }},
		{"oci", name, "digest", len(file),
			func() error {
				b, err := json.Marshal(&doc)
				if d := digestOf(b); err != nil || d != want {
					return fmt.Errorf("%s: digest %s, want %s (%v)", name, d, want, err)
				}
				return nil
			},
			func() error { b, err := json.Marshal(&doc); _ = digestOf(b); return err }},
	}
}

func bindingCases() []Case {
	body := load("binding-body.json")
	wantGo := load("binding-body-go.json")
	trailing := trailingBody(body)
	oversize := oversizeBody()
	return []Case{
		{"binding", "order-1k", "bind", len(body),
			func() error {
				var r CreateOrder
				if err := bindBytes(body, &r); err != nil {
					return err
				}
				b, err := json.Marshal(&r)
				return errors.Join(err, sameBytes("binding", b, wantGo))
			},
			func() error { var r CreateOrder; return bindBytes(body, &r) }},
		{"binding", "order-1k", "reject-trailing", len(trailing),
			func() error {
				var r CreateOrder
				var syntax *json.SyntaxError
				if err := bindBytes(trailing, &r); !errors.As(err, &syntax) {
					return fmt.Errorf("trailing data: want a syntax error, got %v", err)
				}
				return nil
			},
			func() error {
				var r CreateOrder
				if bindBytes(trailing, &r) == nil {
					return errors.New("accepted")
				}
				return nil
			}},
		{"binding", "order-1k", "reject-oversize", len(oversize),
			func() error {
				var r CreateOrder
				if len(oversize) != OversizeLen || bindReader(bytes.NewReader(oversize), &r) != errTooLarge {
					return errors.New("oversized body not refused for its size")
				}
				return bindReader(bytes.NewReader(body), &r)
			},
			func() error {
				var r CreateOrder
				if bindReader(bytes.NewReader(oversize), &r) == nil {
					return errors.New("accepted")
				}
				return nil
			}},
	}
}

func sdkCases[T any](name string) []Case {
	file := load("sdk-" + name + ".json")
	rev := load("sdk-" + name + "-reversed.json")
	var rec T
	if err := json.Unmarshal(file, &rec); err != nil {
		panic(err)
	}
	parseCheck := func(input []byte) func() error {
		return func() error {
			var got T
			if err := json.Unmarshal(input, &got); err != nil {
				return err
			}
			b, err := json.Marshal(&got)
			return errors.Join(err, sameBytes(name, b, file))
		}
	}
	parse := func(input []byte) func() error { return func() error { var got T; return json.Unmarshal(input, &got) } }
	return []Case{
		{"sdk", name, "serialize", len(file),
			func() error { b, err := json.Marshal(&rec); return errors.Join(err, sameBytes(name, b, file)) },
			func() error { _, err := json.Marshal(&rec); return err }},
		{"sdk", name, "deserialize", len(file), parseCheck(file), parse(file)},
		{"sdk", name, "deserialize-reversed", len(rev), parseCheck(rev), parse(rev)},
		{"sdk", name, "round-trip", len(file), parseCheck(file),
			func() error {
				var got T
				if err := json.Unmarshal(file, &got); err != nil {
					return err
				}
				_, err := json.Marshal(&got)
				return err
			}},
	}
}

func envelopeCases(n int) []Case {
	name := fmt.Sprintf("items-%d", n)
	file := load(fmt.Sprintf("envelope-%d.json", n))
	var typed Envelope[Message]
	var raw Envelope[json.RawMessage]
	if err := json.Unmarshal(file, &typed); err != nil {
		panic(err)
	}
	// The producer's pre-serialized message: the data member of the file.
	if err := json.Unmarshal(file, &raw); err != nil {
		panic(err)
	}
	return []Case{
		{"envelope", name, "serialize-typed", len(file),
			func() error { b, err := json.Marshal(&typed); return errors.Join(err, sameBytes(name, b, file)) },
			func() error { _, err := json.Marshal(&typed); return err }},
		{"envelope", name, "serialize-raw", len(file),
			func() error { b, err := json.Marshal(&raw); return errors.Join(err, sameBytes(name, b, file)) },
			func() error { _, err := json.Marshal(&raw); return err }},
		{"envelope", name, "parse-typed", len(file),
			func() error {
				var got Envelope[Message]
				if err := json.Unmarshal(file, &got); err != nil || len(got.Data.Items) != n || !reflect.DeepEqual(got, typed) {
					return fmt.Errorf("%s: typed parse differs (%v)", name, err)
				}
				return nil
			},
			func() error { var got Envelope[Message]; return json.Unmarshal(file, &got) }},
		{"envelope", name, "parse-raw", len(file),
			func() error {
				var got Envelope[json.RawMessage]
				if err := json.Unmarshal(file, &got); err != nil || !bytes.Equal(got.Data, raw.Data) || got.ID != typed.ID {
					return fmt.Errorf("%s: raw parse differs (%v)", name, err)
				}
				return nil
			},
			func() error { var got Envelope[json.RawMessage]; return json.Unmarshal(file, &got) }},
	}
}
