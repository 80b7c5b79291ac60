//! Sorted objects larger than the writer's look-ahead threshold (64
//! members): the `Value` writer prefetches the data of the member a few
//! places ahead in sorted order while it writes. Prefetching changes no
//! byte: the output must equal the serde route's (which collects and
//! moves members) and a sort done here, for every sorted profile.

mod common;

use common::{document, Rng};
use jetjson::{Map, Value, WriteOptions};

#[test]
fn large_sorted_objects_equal_the_serde_route_and_a_plain_sort() {
    let mut rng = Rng::new(0x1A26E);
    for n in [63, 64, 65, 66, 70, 100, 257, 1264] {
        // Keys as gsoc-2018's ("0".."n-1", whose byte order is not their
        // numeric order) and random ones, values of every kind.
        let mut members: Vec<(String, Value)> = (0..n)
            .map(|i| {
                let key = if rng.chance(50) { i.to_string() } else { format!("k{}-{}", rng.next() % 1000, i) };
                (key, document(&mut rng, 2))
            })
            .collect();
        let mut map = Map::new();
        for (k, v) in &members {
            map.insert(k.clone(), v.clone());
        }
        let value = Value::Object(map);
        for options in
            [WriteOptions::go(), WriteOptions::go().escape_html(false), WriteOptions::jcs(), WriteOptions::compact().sort_keys(true)]
        {
            let direct = value.to_vec_with(&options).expect("writable");
            let serde = jetjson::to_vec_with(&value, &options).expect("writable");
            assert_eq!(String::from_utf8_lossy(&direct), String::from_utf8_lossy(&serde), "{n} members");
        }
        // UTF-8 byte order, by hand: the members sorted, each written alone.
        members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let go = WriteOptions::go();
        let mut want = b"{".to_vec();
        for (i, (k, v)) in members.iter().enumerate() {
            if i > 0 {
                want.push(b',');
            }
            want.extend(jetjson::to_vec_with(k, &go).unwrap());
            want.push(b':');
            want.extend(v.to_vec_with(&go).unwrap());
        }
        want.push(b'}');
        assert_eq!(String::from_utf8_lossy(&value.to_vec_with(&go).unwrap()), String::from_utf8_lossy(&want), "{n} members");
    }
}
