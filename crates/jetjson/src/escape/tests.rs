use super::*;

#[test]
fn smoke() {
    for e in Escaper::all_available(EscapeSet::default()) {
        let mut out = Vec::new();
        e.escape(&mut out, "a\"b\\c\x1f");
        assert_eq!(out, b"a\\\"b\\\\c\\u001f", "{}", e.isa_name());
    }
}
