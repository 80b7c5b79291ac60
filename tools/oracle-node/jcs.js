#!/usr/bin/env node
// jcs.js — RFC 8785 (JSON Canonicalization Scheme) test oracle for jetjson.
// Node.js standard library only; no npm packages.
//
// Usage:
//   node tools/oracle-node/jcs.js                  # NDJSON -> canonical JSON
//   node tools/oracle-node/jcs.js --mode numbers   # hex float64 bits -> ES Number::toString
//   node tools/oracle-node/jcs.js --whole          # all of stdin is ONE document
//
// Line protocol (default and --mode numbers): stdin is split on byte 0x0A only
// (never on '\r', U+2028 or U+2029; a trailing '\r' is JSON whitespace). A final
// segment without '\n' is a line too; the empty segment after a final '\n' is
// not. For each input line exactly one output line is written: the standard
// base64 (padded) of the UTF-8 bytes of the result, or "ERROR: <message>"
// (message contains no '\r'/'\n'). Output is written after every stdin chunk,
// so lock-step request/response works as well as batch use.
//
// Default mode: each line is decoded as strict UTF-8 (invalid UTF-8 -> ERROR,
// a BOM is kept and then rejected by JSON.parse), parsed with JSON.parse
// (duplicate keys: last one wins, as in JavaScript), and serialized per RFC 8785:
// object keys sorted recursively by UTF-16 code units (Array.prototype.sort()
// with no comparator), arrays in order, strings/literals via JSON.stringify,
// numbers via JSON.stringify (ES Number::toString; -0 -> "0"). Non-finite
// numbers (e.g. 1e400 -> Infinity) and strings/keys containing lone surrogates
// (e.g. "\ud800") are rejected with ERROR, as RFC 8785 requires.
//
// --mode numbers: each line is 1-16 hex digits of IEEE-754 float64 bits; output
// is base64 of JSON.stringify(number), ERROR for NaN/Infinity.
//
// --whole: all of stdin is one JSON document (may span lines); the canonical
// UTF-8 bytes are written raw (no base64, no trailing newline) and the exit
// code is 0; on failure "ERROR: <message>\n" is written to stdout, exit code 1.
'use strict';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function checkString(s, what) {
  if (LONE_SURROGATE.test(s)) throw new Error(`lone surrogate in ${what}`);
  return JSON.stringify(s);
}

function canon(v) {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`non-finite number ${v}`);
      return JSON.stringify(v);
    case 'string':
      return checkString(v, 'string');
    case 'object': {
      if (Array.isArray(v)) {
        const parts = new Array(v.length);
        for (let i = 0; i < v.length; i++) parts[i] = canon(v[i]);
        return '[' + parts.join(',') + ']';
      }
      const keys = Object.keys(v).sort(); // UTF-16 code unit order
      const parts = new Array(keys.length);
      for (let i = 0; i < keys.length; i++) {
        parts[i] = checkString(keys[i], 'key') + ':' + canon(v[keys[i]]);
      }
      return '{' + parts.join(',') + '}';
    }
    default:
      throw new Error(`unexpected value type ${typeof v}`);
  }
}

function canonicalize(buf) {
  return canon(JSON.parse(decoder.decode(buf)));
}

const HEX = /^[0-9a-fA-F]{1,16}$/;
const dv = new DataView(new ArrayBuffer(8));
function number(buf) {
  const s = buf.toString('latin1').replace(/[ \t\r]+$/, '');
  if (!HEX.test(s)) throw new Error(`expected 1-16 hex digits, got ${JSON.stringify(s)}`);
  dv.setBigUint64(0, BigInt('0x' + s));
  const n = dv.getFloat64(0);
  if (!Number.isFinite(n)) throw new Error(`non-finite number ${n}`);
  return JSON.stringify(n);
}

function errLine(e) {
  const msg = (e && e.message !== undefined) ? String(e.message) : String(e);
  return 'ERROR: ' + msg.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

function main(argv) {
  let mode = 'jcs';
  let whole = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--whole') whole = true;
    else if (a === '--mode' && i + 1 < argv.length) mode = argv[++i];
    else if (a.startsWith('--mode=')) mode = a.slice(7);
    else { process.stderr.write(`jcs.js: unknown argument ${a}\n`); process.exit(2); }
  }
  if (mode !== 'jcs' && mode !== 'numbers') {
    process.stderr.write(`jcs.js: unknown mode ${mode} (jcs | numbers)\n`);
    process.exit(2);
  }
  const fn = mode === 'numbers' ? number : canonicalize;

  if (whole) {
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => {
      try {
        process.stdout.write(Buffer.from(fn(Buffer.concat(chunks)), 'utf8'));
      } catch (e) {
        process.stdout.write(errLine(e) + '\n');
        process.exitCode = 1;
      }
    });
    return;
  }

  const handle = (lineBuf) => {
    try {
      return Buffer.from(fn(lineBuf), 'utf8').toString('base64');
    } catch (e) {
      return errLine(e);
    }
  };

  let pending = []; // pieces of an incomplete line
  process.stdin.on('data', (chunk) => {
    const out = [];
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(0x0a, start)) !== -1) {
      let line = chunk.subarray(start, nl);
      if (pending.length) {
        pending.push(line);
        line = Buffer.concat(pending);
        pending = [];
      }
      out.push(handle(line));
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
    if (out.length) process.stdout.write(out.join('\n') + '\n');
  });
  process.stdin.on('end', () => {
    if (pending.length) {
      const line = Buffer.concat(pending);
      pending = [];
      if (line.length) process.stdout.write(handle(line) + '\n');
    }
  });
}

main(process.argv.slice(2));
