//! simdjson `gsoc-2018.json`: Google Summer of Code 2018 projects as
//! schema.org records, in one object keyed by project number ("0".."1263").
//! Long, mostly-ASCII prose strings with newlines and quotes.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Keys kept as text (a `BTreeMap` orders them as strings: "0", "1", "10", ...).
pub type Projects = BTreeMap<String, Project>;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Project {
    #[serde(rename = "@context")]
    pub context: String,
    #[serde(rename = "@type")]
    pub kind: String,
    pub name: String,
    pub description: String,
    pub sponsor: Sponsor,
    pub author: Author,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Sponsor {
    #[serde(rename = "@type")]
    pub kind: String,
    pub name: String,
    pub disambiguating_description: String,
    pub description: String,
    pub url: String,
    pub logo: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Author {
    #[serde(rename = "@type")]
    pub kind: String,
    pub name: String,
}
