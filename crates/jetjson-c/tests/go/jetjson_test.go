package jetjson

// Go's own encoding/json is the oracle: documents generated here are
// written through libjetjson's streaming writer (and canonicalized from
// Go's output) in the go profile, and must equal json.Marshal's bytes; the
// OCI catalog's digests are computed through the library.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var pieces = []string{
	"a", "hello", " ", "/", `"`, `\`, "\n", "\t", "\b", "\f", "\x00", "\x1f", "\x7f", "<", ">", "&",
	"é", "€", "\u2028", "\u2029", "😀", "\ufffd", "\xff", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80",
}

func randomString(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(10); n > 0; n-- {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func randomFloat(r *rand.Rand) float64 {
	switch r.IntN(3) {
	case 0:
		for {
			f := math.Float64frombits(r.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	case 1:
		return float64(r.IntN(2000001)-1000000) / 1000
	default:
		// Around the 'f'/'e' switches of Go's format: 1e-6 and 1e21.
		return math.Pow(10, float64(r.IntN(50)-25)) * (1 + r.Float64())
	}
}

// randomValue is a document as json.Unmarshal would build it, plus the
// integer types Go programs marshal.
func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(9)
	if depth == 0 {
		k = 7 + r.IntN(2) // documents are arrays or objects
	} else if depth > 4 {
		k = r.IntN(7)
	}
	switch k {
	case 0:
		return r.Int64() - r.Int64()
	case 1:
		return r.Uint64()
	case 2:
		return randomFloat(r)
	case 3, 4:
		return randomString(r)
	case 5:
		return r.IntN(2) == 0
	case 6:
		return nil
	case 7:
		a := make([]any, r.IntN(6))
		for i := range a {
			a[i] = randomValue(r, depth+1)
		}
		return a
	default:
		m := map[string]any{}
		for n := r.IntN(7); n > 0; n-- {
			m[randomString(r)] = randomValue(r, depth+1)
		}
		return m
	}
}

// write sends v through the writer; maps go in the order Go's map
// iteration gives (random), so the library must sort them.
func write(w *Writer, v any) error {
	switch v := v.(type) {
	case nil:
		return w.Null()
	case bool:
		return w.Bool(v)
	case int64:
		return w.Int64(v)
	case uint64:
		return w.Uint64(v)
	case float64:
		return w.Float64(v)
	case string:
		return w.String(v)
	case []any:
		if err := w.BeginArray(); err != nil {
			return err
		}
		for _, item := range v {
			if err := write(w, item); err != nil {
				return err
			}
		}
		return w.EndArray()
	case map[string]any:
		if err := w.BeginObject(); err != nil {
			return err
		}
		for k, item := range v {
			if err := w.Key(k); err != nil {
				return err
			}
			if err := write(w, item); err != nil {
				return err
			}
		}
		return w.EndObject()
	}
	panic("unexpected type")
}

func writeAll(t *testing.T, o Options, v any) []byte {
	t.Helper()
	w, err := NewWriter(o)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := write(w, v); err != nil {
		t.Fatal(err)
	}
	out, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func marshalNoHTML(t *testing.T, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// remarshal is Go's decode (json.Number for numbers) and Marshal of doc.
func remarshal(t *testing.T, doc []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGeneratedDocumentsAreGoMarshalBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		v := randomValue(r, 0)
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := writeAll(t, Options{Profile: Go}, v); !bytes.Equal(got, want) {
			t.Fatalf("doc %d through the writer:\n got %q\nwant %q", i, got, want)
		}
		// Go's output read back and written again, by Go and by the
		// library (numbers kept as their literals, as json.Number does;
		// a \ufffd escape comes back as the raw character in both; keys
		// that were invalid UTF-8 repeat, and the last one wins in both).
		if got, again := must(Canonicalize(want, Options{Profile: Go}, ReadOptions{Duplicates: 2})), remarshal(t, want); !bytes.Equal(got, again) {
			t.Fatalf("doc %d canonicalized:\n got %q\nwant %q", i, got, again)
		}
		indented, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := writeAll(t, Options{Profile: Go, Indent: 2}, v); !bytes.Equal(got, indented) {
			t.Fatalf("doc %d indented:\n got %q\nwant %q", i, got, indented)
		}
		if got, want := writeAll(t, Options{Profile: Go, HTML: 2}, v), marshalNoHTML(t, v); !bytes.Equal(got, want) {
			t.Fatalf("doc %d with SetEscapeHTML(false):\n got %q\nwant %q", i, got, want)
		}
	}
}

func TestNonFiniteFailsAsInGo(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := json.Marshal(f); err == nil {
			t.Fatal("Go marshals a non-finite float")
		}
		w, err := NewWriter(Options{Profile: Go})
		if err != nil {
			t.Fatal(err)
		}
		var e *Error
		if err := w.Float64(f); !errors.As(err, &e) || e.Status != 5 {
			t.Fatalf("%v: %v", f, err)
		}
		w.Close()
	}
}

// Escape equals json.Marshal of a string between its quotes, invalid
// UTF-8 included (Go writes \ufffd per rejected byte).
func TestEscapeIsGoStringEscaping(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		s := randomString(r) + randomString(r)
		want, _ := json.Marshal(s)
		got, err := Escape(s, Options{Profile: Go})
		if err != nil || !bytes.Equal(got, want[1:len(want)-1]) {
			t.Fatalf("%q: %v\n got %q\nwant %q", s, err, got, want)
		}
		noHTML := marshalNoHTML(t, s)
		if got, err := Escape(s, Options{Profile: Go, HTML: 2}); err != nil || !bytes.Equal(got, noHTML[1:len(noHTML)-1]) {
			t.Fatalf("%q without HTML: %v\n got %q\nwant %q", s, err, got, noHTML)
		}
	}
}

// Structs: fields in declaration order, maps inside sorted, omitempty.
type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type manifest struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType,omitempty"`
	Config        descriptor        `json:"config"`
	Layers        []descriptor      `json:"layers"`
	Annotations   map[string]string `json:"annotations,omitempty"`
}

func writeDescriptor(w *Writer, d descriptor) error {
	steps := []func() error{
		w.BeginStruct,
		func() error { return w.Key("mediaType") }, func() error { return w.String(d.MediaType) },
		func() error { return w.Key("digest") }, func() error { return w.String(d.Digest) },
		func() error { return w.Key("size") }, func() error { return w.Int64(d.Size) },
	}
	if len(d.Annotations) > 0 {
		steps = append(steps, func() error { return w.Key("annotations") }, func() error { return writeStrings(w, d.Annotations) })
	}
	steps = append(steps, w.EndObject)
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func writeStrings(w *Writer, m map[string]string) error {
	if err := w.BeginObject(); err != nil {
		return err
	}
	for k, v := range m {
		if err := w.Key(k); err != nil {
			return err
		}
		if err := w.String(v); err != nil {
			return err
		}
	}
	return w.EndObject()
}

func TestManifestStructsAreGoMarshalBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	annotations := func() map[string]string {
		if r.IntN(3) == 0 {
			return nil
		}
		m := map[string]string{}
		for n := r.IntN(6) + 1; n > 0; n-- {
			m["org.opencontainers.image."+randomString(r)] = randomString(r)
		}
		return m
	}
	desc := func() descriptor {
		sum := sha256.Sum256([]byte(randomString(r)))
		return descriptor{"application/vnd.oci.image.layer.v1.tar+gzip", "sha256:" + hex.EncodeToString(sum[:]), r.Int64N(1 << 40), annotations()}
	}
	for i := 0; i < 500; i++ {
		m := manifest{SchemaVersion: 2, Config: desc(), Annotations: annotations()}
		if r.IntN(2) == 0 {
			m.MediaType = "application/vnd.oci.image.manifest.v1+json"
		}
		for n := r.IntN(4); n > 0; n-- {
			m.Layers = append(m.Layers, desc())
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWriter(Options{Profile: Go})
		if err != nil {
			t.Fatal(err)
		}
		steps := []func() error{w.BeginStruct, func() error { return w.Key("schemaVersion") }, func() error { return w.Int64(int64(m.SchemaVersion)) }}
		if m.MediaType != "" {
			steps = append(steps, func() error { return w.Key("mediaType") }, func() error { return w.String(m.MediaType) })
		}
		steps = append(steps, func() error { return w.Key("config") }, func() error { return writeDescriptor(w, m.Config) }, func() error { return w.Key("layers") })
		if m.Layers == nil {
			steps = append(steps, w.Null)
		} else {
			steps = append(steps, w.BeginArray)
			for _, l := range m.Layers {
				steps = append(steps, func() error { return writeDescriptor(w, l) })
			}
			steps = append(steps, w.EndArray)
		}
		if len(m.Annotations) > 0 {
			steps = append(steps, func() error { return w.Key("annotations") }, func() error { return writeStrings(w, m.Annotations) })
		}
		steps = append(steps, w.EndObject)
		for _, s := range steps {
			if err := s(); err != nil {
				t.Fatal(err)
			}
		}
		got, err := w.Finish()
		w.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("manifest %d: %v\n got %s\nwant %s", i, err, got, want)
		}
		// Its digest, as a registry computes it over the stored bytes.
		sum := sha256.Sum256(want)
		if d, err := DigestBytes(got); err != nil || d != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Fatalf("manifest %d digest %s: %v", i, d, err)
		}
	}
}

func corpus(t *testing.T) string {
	dir := os.Getenv("JETJSON_CORPUS")
	if dir == "" {
		dir = "../../../../../shared/corpus"
	}
	if _, err := os.Stat(filepath.Join(dir, "oci", "CATALOG.tsv")); err != nil {
		t.Fatalf("corpus not found (set JETJSON_CORPUS): %v", err)
	}
	return dir
}

// The Docker schema1 digest is over the JWS payload: the file's first
// formatLength bytes and base64url(formatTail), from the protected header.
func schema1Payload(t *testing.T, doc []byte) []byte {
	var m struct {
		Signatures []struct {
			Protected string `json:"protected"`
		} `json:"signatures"`
	}
	if err := json.Unmarshal(doc, &m); err != nil || len(m.Signatures) == 0 {
		t.Fatalf("schema1 manifest: %v", err)
	}
	header, err := base64.RawURLEncoding.DecodeString(m.Signatures[0].Protected)
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		FormatLength int    `json:"formatLength"`
		FormatTail   string `json:"formatTail"`
	}
	if err := json.Unmarshal(header, &h); err != nil {
		t.Fatal(err)
	}
	tail, err := base64.RawURLEncoding.DecodeString(h.FormatTail)
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]byte{}, doc[:h.FormatLength]...), tail...)
}

func TestOCICatalogDigests(t *testing.T) {
	dir := corpus(t)
	f, err := os.Open(filepath.Join(dir, "oci", "CATALOG.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, upstream := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 || cols[0] == "file" {
			continue
		}
		doc, err := os.ReadFile(filepath.Join(dir, "oci", cols[0]))
		if err != nil {
			t.Fatal(err)
		}
		d, err := DigestBytes(doc)
		if err != nil || d != cols[2] {
			t.Errorf("%s: %s (%v), catalog %s", cols[0], d, err, cols[2])
		}
		if cols[4] != "-" {
			upstream++
			payload := doc
			if strings.HasSuffix(cols[0], "v2s1.manifest.json") {
				payload = schema1Payload(t, doc)
			}
			if d, err := DigestBytes(payload); err != nil || d != cols[4] {
				t.Errorf("%s: upstream %s, computed %s (%v)", cols[0], cols[4], d, err)
			}
		}
		// The canonical digest a Go service would compute by decoding the
		// document and marshaling it again.
		sum := sha256.Sum256(remarshal(t, doc))
		if d, err := DigestCanonical(doc, Options{Profile: Go}); err != nil || d != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("%s: canonical digest %s (%v), Go's %x", cols[0], d, err, sum)
		}
		rows++
	}
	if rows != 28 || upstream < 13 {
		t.Fatalf("%d rows, %d upstream digests", rows, upstream)
	}
}

func TestErrorsCarryPositions(t *testing.T) {
	_, err := Canonicalize([]byte("{\"a\": [1, 2,]}"), Options{Profile: Go}, ReadOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Status != 2 || !e.HasPosition || e.Offset != 12 {
		t.Fatalf("%v", err)
	}
	// compact refuses text that is not UTF-8, at the first bad byte.
	if _, err := Escape("a\xffb", Options{Profile: Compact}); !errors.As(err, &e) || e.Status != 5 || e.Offset != 1 {
		t.Fatalf("%v", err)
	}
}
