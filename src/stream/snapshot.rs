//! Exact serde for the floats a saved stream holds (`Engine::snapshot`).
//! A vector is the hex of its little-endian bytes and a lone float its bit
//! pattern: restored, a stream must decide exactly as if it had never
//! stopped, and JSON numbers round-trip only with serde_json's
//! `float_roundtrip`, which would change how every other file is parsed.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

fn to_hex(bytes: impl Iterator<Item = u8>) -> String {
    bytes.map(|b| format!("{b:02x}")).collect()
}

fn from_hex<E: serde::de::Error>(text: &str) -> Result<Vec<u8>, E> {
    if text.len() % 2 != 0 || !text.is_ascii() {
        return Err(E::custom("a saved vector is not hex"));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|_| E::custom("a saved vector is not hex")))
        .collect()
}

/// Floats of `text`, `width` bytes each.
fn floats<E: serde::de::Error, F>(text: &str, width: usize, read: impl Fn(&[u8]) -> F) -> Result<Vec<F>, E> {
    let bytes = from_hex::<E>(text)?;
    if bytes.len() % width != 0 {
        return Err(E::custom("a saved vector has a partial float"));
    }
    Ok(bytes.chunks_exact(width).map(read).collect())
}

fn f32s_from<E: serde::de::Error, T: TryFrom<Vec<f32>>>(text: &str) -> Result<T, E> {
    let values = floats::<E, f32>(text, 4, |b| f32::from_le_bytes(b.try_into().expect("4 bytes")))?;
    let length = values.len();
    T::try_from(values).map_err(|_| E::custom(format!("a saved vector has {length} floats, not the expected number")))
}

fn f32s_hex(values: &[f32]) -> String {
    to_hex(values.iter().flat_map(|x| x.to_le_bytes()))
}

/// A vector of f32 (an embedding or a `Vec<f32>`).
pub mod f32s {
    use super::*;

    pub fn serialize<S: Serializer, T: AsRef<[f32]>>(values: &T, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&f32s_hex(values.as_ref()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: TryFrom<Vec<f32>>>(deserializer: D) -> Result<T, D::Error> {
        f32s_from(&String::deserialize(deserializer)?)
    }
}

/// An optional embedding.
pub mod option_f32s {
    use super::*;

    pub fn serialize<S: Serializer, T: AsRef<[f32]>>(values: &Option<T>, serializer: S) -> Result<S::Ok, S::Error> {
        match values {
            Some(values) => serializer.serialize_some(&f32s_hex(values.as_ref())),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: TryFrom<Vec<f32>>>(deserializer: D) -> Result<Option<T>, D::Error> {
        Option::<String>::deserialize(deserializer)?.map(|text| f32s_from(&text)).transpose()
    }
}

/// A sequence of embeddings (any collection of them).
pub mod f32s_seq {
    use super::*;

    pub fn serialize<'a, S, C, T>(values: &'a C, serializer: S) -> Result<S::Ok, S::Error>
    where
        S: Serializer,
        &'a C: IntoIterator<Item = &'a T>,
        T: AsRef<[f32]> + 'a,
    {
        serializer.collect_seq(values.into_iter().map(|v| f32s_hex(v.as_ref())))
    }

    pub fn deserialize<'de, D, C, T>(deserializer: D) -> Result<C, D::Error>
    where
        D: Deserializer<'de>,
        C: FromIterator<T>,
        T: TryFrom<Vec<f32>>,
    {
        Vec::<String>::deserialize(deserializer)?.iter().map(|text| f32s_from(text)).collect()
    }
}

/// A vector of f64 (the running centroid's sums).
pub mod f64s {
    use super::*;

    pub fn serialize<S: Serializer>(values: &[f64], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&to_hex(values.iter().flat_map(|x| x.to_le_bytes())))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<f64>, D::Error> {
        floats(&String::deserialize(deserializer)?, 8, |b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
}

/// One f32, as its bits.
pub mod f32_bits {
    use super::*;

    pub fn serialize<S: Serializer>(value: &f32, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(value.to_bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f32, D::Error> {
        u32::deserialize(deserializer).map(f32::from_bits).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};
    use std::collections::VecDeque;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Saved {
        #[serde(with = "super::f32s")]
        vector: [f32; 3],
        #[serde(with = "super::option_f32s")]
        maybe: Option<[f32; 3]>,
        #[serde(with = "super::f32s_seq")]
        recent: VecDeque<[f32; 3]>,
        #[serde(with = "super::f64s")]
        sums: Vec<f64>,
        #[serde(with = "super::f32_bits")]
        weight: f32,
    }

    #[test]
    fn floats_round_trip_bit_for_bit() {
        let awkward = [0.1f32, -1e-38, f32::MIN_POSITIVE / 3.0];
        let saved = Saved {
            vector: awkward,
            maybe: Some([1.0 / 3.0, 0.0, -0.0]),
            recent: VecDeque::from([awkward, [2.0 / 7.0; 3]]),
            sums: vec![0.1 + 0.2, 1e300, -5e-324],
            weight: 0.3,
        };
        let json = serde_json::to_string(&saved).unwrap();
        let back: Saved = serde_json::from_str(&json).unwrap();
        assert_eq!(format!("{back:?}"), format!("{saved:?}"));
        assert_eq!(back.sums[0].to_bits(), (0.1f64 + 0.2).to_bits());
        assert!(back.maybe.unwrap()[2].is_sign_negative());
    }

    #[test]
    fn damaged_vectors_are_refused() {
        let json = r#"{"vector":"00","maybe":null,"recent":[],"sums":"","weight":0}"#;
        assert!(serde_json::from_str::<Saved>(json).unwrap_err().to_string().contains("partial float"));
        let json = r#"{"vector":"0000803f","maybe":null,"recent":[],"sums":"","weight":0}"#;
        assert!(serde_json::from_str::<Saved>(json).unwrap_err().to_string().contains("1 floats"));
        let json = r#"{"vector":"zz","maybe":null,"recent":[],"sums":"","weight":0}"#;
        assert!(serde_json::from_str::<Saved>(json).unwrap_err().to_string().contains("not hex"));
    }
}
