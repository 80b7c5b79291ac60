// Command oracle-go is a test oracle for jetjson: it reproduces the exact
// output of Go's encoding/json for inputs fed line by line on stdin.
//
// Protocol: stdin is split on '\n' only (a final segment without '\n' is a
// line too; an empty final segment after the last '\n' is not). For every
// input line exactly one output line is written: the standard base64
// (base64.StdEncoding, padded) of the exact bytes Go produced, or
// "ERROR: <message>" (message never contains '\r' or '\n'). Output is
// buffered and flushed whenever no complete input line is buffered, so both
// batch and lock-step request/response use work.
//
// See README.md for the modes.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"
)

var (
	mode       = flag.String("mode", "marshal", "marshal | bignum | string | bytes | float64 | float32 | raw | sortkeys | time")
	escapeHTML = flag.Bool("escape-html", true, "escape <, >, & as \\u003c etc. (false: json.Encoder.SetEscapeHTML(false))")
	indent     = flag.Int("indent", 0, "if > 0, indent with this many spaces (json.MarshalIndent / Encoder.SetIndent)")
)

// encode marshals v honouring -escape-html and -indent.
func encode(v any) ([]byte, error) {
	ind := ""
	if *indent > 0 {
		ind = strings.Repeat(" ", *indent)
	}
	if *escapeHTML {
		if ind != "" {
			return json.MarshalIndent(v, "", ind)
		}
		return json.Marshal(v)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if ind != "" {
		enc.SetIndent("", ind)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	if n := len(out); n > 0 && out[n-1] == '\n' {
		out = out[:n-1]
	}
	return out, nil
}

// convertNumbers replaces every json.Number by int64, uint64 or float64;
// with bigInts, integers beyond 64 bits become *big.Int, and "-0" float64.
func convertNumbers(v any, bigInts bool) (any, error) {
	switch t := v.(type) {
	case json.Number:
		s := string(t)
		if bigInts && s == "-0" {
			return math.Copysign(0, -1), nil
		}
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u, nil
		}
		if bigInts && !strings.ContainsAny(s, ".eE") {
			if b, ok := new(big.Int).SetString(s, 10); ok {
				return b, nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, err
		}
		return f, nil
	case map[string]any:
		for k, e := range t {
			c, err := convertNumbers(e, bigInts)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
		return t, nil
	case []any:
		for i, e := range t {
			c, err := convertNumbers(e, bigInts)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
		return t, nil
	default:
		return v, nil
	}
}

func decodeOne(line []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if err == io.EOF {
			return nil, errors.New("empty line: no JSON value")
		}
		return nil, err
	}
	var extra any
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, fmt.Errorf("trailing data after JSON value: %v", err)
		}
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

func b64(line []byte) ([]byte, error) {
	s := strings.TrimRight(string(line), " \t\r")
	return base64.StdEncoding.DecodeString(s)
}

func hexBits(line []byte, maxDigits int) (uint64, error) {
	s := strings.TrimRight(string(line), " \t\r")
	if len(s) < 1 || len(s) > maxDigits {
		return 0, fmt.Errorf("expected 1-%d hex digits, got %q", maxDigits, s)
	}
	return strconv.ParseUint(s, 16, 64)
}

func process(line []byte) ([]byte, error) {
	switch *mode {
	case "marshal", "bignum":
		v, err := decodeOne(line)
		if err != nil {
			return nil, err
		}
		if v, err = convertNumbers(v, *mode == "bignum"); err != nil {
			return nil, err
		}
		return encode(v)
	case "string":
		b, err := b64(line)
		if err != nil {
			return nil, err
		}
		return encode(string(b))
	case "bytes":
		b, err := b64(line)
		if err != nil {
			return nil, err
		}
		return encode(b)
	case "float64":
		bits, err := hexBits(line, 16)
		if err != nil {
			return nil, err
		}
		return encode(math.Float64frombits(bits))
	case "float32":
		bits, err := hexBits(line, 8)
		if err != nil {
			return nil, err
		}
		return encode(math.Float32frombits(uint32(bits)))
	case "raw":
		b, err := b64(line)
		if err != nil {
			return nil, err
		}
		return encode(json.RawMessage(b))
	case "sortkeys":
		var keys []string
		if err := json.Unmarshal(line, &keys); err != nil {
			return nil, err
		}
		m := make(map[string]int, len(keys))
		for i, k := range keys {
			m[k] = i
		}
		return encode(m)
	case "time":
		var f [8]int
		if err := json.Unmarshal(line, &f); err != nil {
			return nil, err
		}
		return encode(time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], f[6], time.FixedZone("", f[7])))
	}
	return nil, fmt.Errorf("unknown mode %q", *mode)
}

var msgCleaner = strings.NewReplacer("\r", `\r`, "\n", `\n`)

func main() {
	flag.Parse()
	switch *mode {
	case "marshal", "bignum", "string", "bytes", "float64", "float32", "raw", "sortkeys", "time":
	default:
		fmt.Fprintf(os.Stderr, "oracle-go: unknown -mode %q\n", *mode)
		os.Exit(2)
	}
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "oracle-go: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}

	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	var enc []byte
	for {
		line, rerr := in.ReadBytes('\n')
		if rerr != nil && rerr != io.EOF {
			out.Flush()
			fmt.Fprintf(os.Stderr, "oracle-go: reading stdin: %v\n", rerr)
			os.Exit(1)
		}
		if rerr == io.EOF && len(line) == 0 {
			return
		}
		line = bytes.TrimSuffix(line, []byte{'\n'})
		res, err := process(line)
		if err != nil {
			out.WriteString("ERROR: ")
			out.WriteString(msgCleaner.Replace(err.Error()))
		} else {
			n := base64.StdEncoding.EncodedLen(len(res))
			if cap(enc) < n {
				enc = make([]byte, n)
			}
			enc = enc[:n]
			base64.StdEncoding.Encode(enc, res)
			out.Write(enc)
		}
		out.WriteByte('\n')
		if rerr == io.EOF {
			return
		}
		// Flush when no complete line is waiting, so a peer doing lock-step
		// request/response never deadlocks.
		if buffered, _ := in.Peek(in.Buffered()); bytes.IndexByte(buffered, '\n') < 0 {
			if err := out.Flush(); err != nil {
				os.Exit(1)
			}
		}
	}
}
