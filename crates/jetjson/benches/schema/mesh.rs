//! simdjson `mesh.json`: one three.js-style mesh, almost all of it flat
//! number arrays: 10,800 position and 10,800 normal coordinates, 7,200
//! texture coordinates (short doubles), 33,408 triangle indices and 3,600
//! packed colours (integers), and 3,600 [weight, bone] influences.
//! (Read benchmarks only so far: the write benches include this module
//! without using it.)
#![allow(dead_code)]

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Mesh {
    pub batches: Vec<Batch>,
    pub morph_targets: MorphTargets,
    /// x, y, z per vertex.
    pub positions: Vec<f64>,
    /// u, v per vertex.
    pub tex0: Vec<f64>,
    /// Packed ARGB, one per vertex (`4278190080` = opaque black).
    pub colors: Vec<u32>,
    /// [weight, bone index] per vertex (weights are written `1.0`).
    pub influences: Vec<(f64, u32)>,
    /// x, y, z per vertex.
    pub normals: Vec<f64>,
    /// Three vertex indices per triangle.
    pub indices: Vec<u32>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Batch {
    /// [first, end) into `indices`.
    pub index_range: [u32; 2],
    /// [first, end) of the vertices.
    pub vertex_range: [u32; 2],
    pub used_bones: Vec<u32>,
}

/// `{}` in the document, which says nothing about what a morph target
/// holds: a struct without fields reads and writes exactly that.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct MorphTargets {}
