//! JSON number syntax (RFC 8259 §6).

/// Length of the number literal at the start of `b`, and whether it is an
/// integer; `Err(offset)` points at the byte that breaks the grammar.
#[inline]
pub(crate) fn scan_number(b: &[u8]) -> Result<(usize, bool), usize> {
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            i += 1;
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        _ => return Err(i),
    }
    let mut integer = true;
    if b.get(i) == Some(&b'.') {
        integer = false;
        i += 1;
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return Err(i);
        }
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        integer = false;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return Err(i);
        }
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
    }
    Ok((i, integer))
}

/// True when `b` is exactly one JSON number literal.
pub fn is_json_number(b: &[u8]) -> bool {
    matches!(scan_number(b), Ok((n, _)) if n == b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        for ok in ["0", "-0", "1", "-12", "1.5", "1e5", "1E+5", "1.0e-05", "123456789012345678901234567890"] {
            assert!(is_json_number(ok.as_bytes()), "{ok}");
        }
        for bad in ["", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1", "1 ", "NaN", "Infinity", "--1", "1.e5"] {
            assert!(!is_json_number(bad.as_bytes()), "{bad}");
        }
        assert_eq!(scan_number(b"12,"), Ok((2, true)));
        assert_eq!(scan_number(b"1.5]"), Ok((3, false)));
    }
}
