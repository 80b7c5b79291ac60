//! `WriteOptions::inapplicable`, the one rule the CLI, Python and C front
//! ends follow to refuse options that cannot change a profile's output:
//! every explicit option against every profile, and the claim behind each
//! refusal checked on real output (a refused option writes the same bytes
//! as the profile without it, or is one the profile forbids).

use jetjson::{NonFinite, Profile, Value, WriteOption, WriteOptions};

const PROFILES: [Profile; 3] = [Profile::Compact, Profile::Go, Profile::Jcs];

/// Sets one option on a profile's defaults.
type Set = fn(WriteOptions) -> WriteOptions;

/// Each option a front end can set, applied to a profile's defaults.
fn options() -> Vec<(WriteOption, Set)> {
    vec![
        (WriteOption::EscapeHtml(true), |o| o.escape_html(true)),
        (WriteOption::EscapeHtml(false), |o| o.escape_html(false)),
        (WriteOption::SortKeys(true), |o| o.sort_keys(true)),
        (WriteOption::SortKeys(false), |o| o.sort_keys(false)),
        (WriteOption::Indent, |o| o.indent(2)),
        (WriteOption::AsciiOnly, |o| o.ascii_only(true)),
        (WriteOption::NonFiniteNull, |o| o.non_finite(NonFinite::Null)),
    ]
}

/// The table the README documents ("Defaults and rules"): refused cells.
fn refused(option: WriteOption, profile: Profile) -> bool {
    use WriteOption::*;
    match profile {
        Profile::Jcs => true,
        Profile::Go => matches!(option, EscapeHtml(true) | NonFiniteNull),
        Profile::Compact => matches!(option, EscapeHtml(false) | SortKeys(false)),
    }
}

#[test]
fn every_option_against_every_profile() {
    for profile in PROFILES {
        assert_eq!(WriteOptions::new(profile).inapplicable(), None, "{profile:?} defaults");
        for (option, set) in options() {
            let found = set(WriteOptions::new(profile)).inapplicable();
            if refused(option, profile) {
                let found = found.unwrap_or_else(|| panic!("{option:?} accepted in {profile:?}"));
                assert_eq!((found.option, found.profile), (option, profile));
                assert!(!found.reason.is_empty());
            } else {
                assert_eq!(found, None, "{option:?} refused in {profile:?}");
            }
        }
    }
}

/// A refusal for "does that already" is true of the output: with and
/// without the option, the bytes are the same (so accepting it silently
/// would hide a misunderstanding, never change a result).
#[test]
fn what_a_profile_does_already_changes_nothing() {
    let doc = Value::from_slice(r#"{"b":"<a&b>","a":[1.5,"\u2028é"],"c":{"z":1,"y":2}}"#.as_bytes()).unwrap();
    for profile in PROFILES {
        let plain = doc.to_vec_with(&WriteOptions::new(profile)).unwrap();
        for (option, set) in options() {
            let Some(found) = set(WriteOptions::new(profile)).inapplicable() else { continue };
            if found.reason.contains("already") || found.reason.contains("to begin with") {
                assert_eq!(doc.to_vec_with(&set(WriteOptions::new(profile))).unwrap(), plain, "{option:?} in {profile:?}");
            }
        }
    }
    // The accepted ones do change something on this document or on NaN.
    let go = WriteOptions::go();
    assert_ne!(doc.to_vec_with(&go.clone().escape_html(false)).unwrap(), doc.to_vec_with(&go).unwrap());
    let compact = WriteOptions::compact();
    assert_ne!(doc.to_vec_with(&compact.clone().escape_html(true)).unwrap(), doc.to_vec_with(&compact).unwrap());
    assert_ne!(doc.to_vec_with(&compact.clone().sort_keys(true)).unwrap(), doc.to_vec_with(&compact).unwrap());
    assert!(jetjson::to_vec_with(&f64::NAN, &compact.clone().non_finite(NonFinite::Null)).is_ok());
    assert!(jetjson::to_vec_with(&f64::NAN, &WriteOptions::go().non_finite(NonFinite::Null)).is_err());
}

/// The first refused option is reported, in the order the front ends
/// document: indent, ascii_only, escape_html, sort_keys, nan.
#[test]
fn the_first_refused_option_is_named() {
    let all = WriteOptions::jcs().non_finite(NonFinite::Null).sort_keys(true).escape_html(false).ascii_only(true).indent(2);
    assert_eq!(all.inapplicable().unwrap().option, WriteOption::Indent);
    assert_eq!(all.clone().indent(0).inapplicable().unwrap().option, WriteOption::AsciiOnly);
    assert_eq!(all.clone().indent(0).ascii_only(false).inapplicable().unwrap().option, WriteOption::EscapeHtml(false));
}
