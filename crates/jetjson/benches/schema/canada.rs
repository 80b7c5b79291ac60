//! nativejson-benchmark `canada.json`: one GeoJSON Polygon feature, 480 rings
//! of [longitude, latitude] pairs (~111k doubles).

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FeatureCollection {
    #[serde(rename = "type")]
    pub kind: String,
    pub features: Vec<Feature>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Feature {
    #[serde(rename = "type")]
    pub kind: String,
    pub properties: Properties,
    pub geometry: Polygon,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Properties {
    pub name: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Polygon {
    #[serde(rename = "type")]
    pub kind: String,
    /// Rings of positions.
    pub coordinates: Vec<Vec<[f64; 2]>>,
}
