//! Typed models of the benchmark documents, written from the documents' own
//! data. Every field that occurs is modelled; `Option` marks values that are
//! null in some records, and `skip_serializing_if` is used only for members
//! that are absent from some records, so the serde_json round trip of each
//! model equals the document (checked at benchmark start-up).
//!
//! Fields that are `null` in every record of a document carry `Option<()>`:
//! the document says nothing else about their type.

pub mod canada;
pub mod citm_catalog;
pub mod github_events;
pub mod gsoc_2018;
pub mod mesh;
// Not used by every bench that includes this module.
#[allow(dead_code)]
pub mod oci;
pub mod twitter;
