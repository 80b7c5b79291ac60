//! nativejson-benchmark `citm_catalog.json`: a ticketing catalogue whose
//! lookup tables are objects keyed by numeric ids (modelled as `u64` keys, so
//! the writers' integer-map-key path is exercised), plus 243 performances.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type Id = u64;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Catalog {
    pub area_names: BTreeMap<Id, String>,
    pub audience_sub_category_names: BTreeMap<Id, String>,
    pub block_names: BTreeMap<Id, String>,
    pub events: BTreeMap<Id, Event>,
    pub performances: Vec<Performance>,
    pub seat_category_names: BTreeMap<Id, String>,
    pub sub_topic_names: BTreeMap<Id, String>,
    pub subject_names: BTreeMap<Id, String>,
    pub topic_names: BTreeMap<Id, String>,
    pub topic_sub_topics: BTreeMap<Id, Vec<Id>>,
    /// Keyed by venue code (text, not an id).
    pub venue_names: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub description: Option<String>,
    pub id: Id,
    pub logo: Option<String>,
    pub name: String,
    pub sub_topic_ids: Vec<Id>,
    pub subject_code: Option<String>,
    pub subtitle: Option<String>,
    pub topic_ids: Vec<Id>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Performance {
    pub event_id: Id,
    pub id: Id,
    pub logo: Option<String>,
    pub name: Option<String>,
    pub prices: Vec<Price>,
    pub seat_categories: Vec<SeatCategory>,
    pub seat_map_image: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub start: u64,
    pub venue_code: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Price {
    pub amount: u64,
    pub audience_sub_category_id: Id,
    pub seat_category_id: Id,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SeatCategory {
    pub areas: Vec<Area>,
    pub seat_category_id: Id,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Area {
    pub area_id: Id,
    pub block_ids: Vec<Id>,
}
