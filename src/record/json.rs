//! The URL of a JSON object, found by a dotted path of field names while
//! every other value is only validated, never built.

use std::borrow::Cow;
use std::fmt;

use crate::time::Timestamp;
use serde::de::{
    DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor,
};

/// What a JSON text holds at the URL's path.
#[derive(Debug)]
pub(crate) struct Found<'de> {
    /// The URL, or why there is none.
    pub(crate) url: Result<Cow<'de, str>, &'static str>,
    /// The object has a top-level field named like one robots-batch adds.
    pub(crate) clash: bool,
    /// The object has at least one field (a comma goes before ours).
    pub(crate) fields: bool,
    /// The fetch time at the time field's path (see [`find_timed`]), or
    /// why there is none.
    pub(crate) time: Result<Timestamp, &'static str>,
}

/// Finds the string at `path` (field names from the outermost object in)
/// in the JSON text `text`; `added` are the field names robots-batch adds
/// at the top level. `Err` when `text` is not one JSON object.
pub(crate) fn find<'de>(
    text: &'de [u8],
    path: &[String],
    added: &[String],
) -> Result<Found<'de>, &'static str> {
    find_timed(text, path, &[], added)
}

/// [`find`], finding in the same pass the fetch time at `time` (a path
/// as `path` is; empty: none sought).
pub(crate) fn find_timed<'de>(
    text: &'de [u8],
    path: &[String],
    time: &[String],
    added: &[String],
) -> Result<Found<'de>, &'static str> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let found = Object { path, time, added: Some(added) }
        .deserialize(&mut de)
        .map_err(|_| NOT_JSON)?;
    de.end().map_err(|_| NOT_JSON)?;
    found.ok_or(NOT_OBJECT)
}

/// The record is not valid JSON.
pub(crate) const NOT_JSON: &str = "not valid JSON";
/// The record is JSON, but no object.
pub(crate) const NOT_OBJECT: &str = "not a JSON object";
/// No value at the URL's path.
pub(crate) const MISSING: &str = "no URL field";
/// `null` at the URL's path.
pub(crate) const NULL: &str = "the URL field is null";
/// Something other than a string at the URL's path.
pub(crate) const NOT_STRING: &str = "the URL field is not a string";
/// No value at the time's path.
pub(crate) const NO_TIME: &str = "no fetch time field";
/// A value at the time's path that is no date.
pub(crate) const NOT_TIME: &str =
    "the fetch time is not a date (RFC 3339, a 14-digit timestamp or seconds)";

/// Looks through an object for `path`, and `time` if not empty; `None`
/// when the value is no object.
struct Object<'p> {
    path: &'p [String],
    time: &'p [String],
    /// The names to check for clashes: only at the top level.
    added: Option<&'p [String]>,
}

impl<'de> DeserializeSeed<'de> for Object<'_> {
    type Value = Option<Found<'de>>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        de: D,
    ) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Object<'_> {
    type Value = Option<Found<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<Self::Value, A::Error> {
        let mut found = Found {
            url: Err(MISSING),
            clash: false,
            fields: false,
            time: Err(NO_TIME),
        };
        while let Some(key) = map.next_key::<Key<'de>>()? {
            found.fields = true;
            let key = key.0;
            if let Some(added) = self.added {
                found.clash |= added.iter().any(|a| **a == *key);
            }
            // Of fields with the same name, the last one counts, as jq,
            // Python and JavaScript read it.
            let url = self.path.first().is_some_and(|p| **p == *key);
            let time = self.time.first().is_some_and(|p| **p == *key);
            if url && self.path.len() == 1 {
                found.url = map.next_value::<UrlValue<'de>>()?.0;
            } else if time && self.time.len() == 1 {
                found.time = map.next_value::<TimeValue>()?.0;
            } else if url || time {
                // Both paths may go on into the same object.
                let inner = Object {
                    path: if url { &self.path[1..] } else { &[] },
                    time: if time { &self.time[1..] } else { &[] },
                    added: None,
                };
                let (inner_url, inner_time) =
                    match map.next_value_seed(inner)? {
                        Some(inner) => (inner.url, inner.time),
                        None => (Err(MISSING), Err(NO_TIME)),
                    };
                if url {
                    found.url = inner_url;
                }
                if time {
                    found.time = inner_time;
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Some(found))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A field name, borrowed from the text when it holds no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_str(StrVisitor).map(Key)
    }
}

struct StrVisitor;

impl<'de> Visitor<'de> for StrVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_string()))
    }
}

/// The URL's value: a string, or why it is none.
struct UrlValue<'de>(Result<Cow<'de, str>, &'static str>);

impl<'de> serde::Deserialize<'de> for UrlValue<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(UrlVisitor)
    }
}

struct UrlVisitor;

impl<'de> Visitor<'de> for UrlVisitor {
    type Value = UrlValue<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(UrlValue(Ok(Cow::Borrowed(v))))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(UrlValue(Ok(Cow::Owned(v.to_string()))))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(UrlValue(Err(NULL)))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(UrlValue(Err(NOT_STRING)))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(UrlValue(Err(NOT_STRING)))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(UrlValue(Err(NOT_STRING)))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(UrlValue(Err(NOT_STRING)))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(UrlValue(Err(NOT_STRING)))
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(UrlValue(Err(NOT_STRING)))
    }
}

/// The fetch time's value: a date in a string, or whole seconds.
struct TimeValue(Result<Timestamp, &'static str>);

impl<'de> serde::Deserialize<'de> for TimeValue {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(TimeVisitor)
    }
}

struct TimeVisitor;

impl<'de> Visitor<'de> for TimeVisitor {
    type Value = TimeValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(TimeValue(Timestamp::parse(v).ok_or(NOT_TIME)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(TimeValue(Ok(Timestamp::from_seconds(v))))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        let seconds = i64::try_from(v).map_err(|_| NOT_TIME);
        Ok(TimeValue(seconds.map(Timestamp::from_seconds)))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(TimeValue(Err(NO_TIME)))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(TimeValue(Err(NOT_TIME)))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(TimeValue(Err(NOT_TIME)))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(TimeValue(Err(NOT_TIME)))
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(TimeValue(Err(NOT_TIME)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str, path: &str) -> Result<String, &'static str> {
        let path: Vec<String> = path.split('.').map(String::from).collect();
        find(text.as_bytes(), &path, &[])?.url.map(|u| u.into_owned())
    }

    #[test]
    fn finds_top_level_and_nested_urls() {
        assert_eq!(
            url(r#"{"a":1,"url":"http://x/"}"#, "url"),
            Ok("http://x/".into())
        );
        assert_eq!(
            url(
                r#"{"meta":{"src":{"url":"http://x/\u0041"}}}"#,
                "meta.src.url"
            ),
            Ok("http://x/A".into())
        );
        assert_eq!(url(r#"{"meta":3}"#, "meta.url"), Err(MISSING));
        assert_eq!(url(r#"{"b":"x"}"#, "url"), Err(MISSING));
        assert_eq!(url(r#"{"url":null}"#, "url"), Err(NULL));
        assert_eq!(url(r#"{"url":[1]}"#, "url"), Err(NOT_STRING));
        assert_eq!(url(r#"{"url":7}"#, "url"), Err(NOT_STRING));
        assert_eq!(url(r#"[1,2]"#, "url"), Err(NOT_OBJECT));
        assert_eq!(url(r#"{"url":"x""#, "url"), Err(NOT_JSON));
        assert_eq!(url(r#"{"url":"x"} {}"#, "url"), Err(NOT_JSON));
    }

    #[test]
    fn the_last_of_duplicate_fields_counts() {
        assert_eq!(
            url(r#"{"url":"http://a/ok","url":"http://a/x"}"#, "url"),
            Ok("http://a/x".into())
        );
        assert_eq!(
            url(r#"{"url":"http://a/ok","u\u0072l":null}"#, "url"),
            Err(NULL)
        );
        // The whole last value of an outer field, as jq's `.m.url`.
        assert_eq!(
            url(r#"{"m":{"url":"http://a/ok"},"m":{"x":1}}"#, "m.url"),
            Err(MISSING)
        );
        assert_eq!(
            url(r#"{"m":{"url":"a","url":"b"},"n":1}"#, "m.url"),
            Ok("b".into())
        );
    }

    fn time(text: &str, url: &str, time: &str) -> Result<i64, &'static str> {
        let split =
            |p: &str| p.split('.').map(String::from).collect::<Vec<_>>();
        let found =
            find_timed(text.as_bytes(), &split(url), &split(time), &[])?;
        assert!(found.url.is_ok(), "{text}");
        found.time.map(Timestamp::seconds)
    }

    #[test]
    fn finds_the_time_in_the_same_pass() {
        let t = r#"{"url":"http://a/","ts":"2024-06-01T12:00:00Z"}"#;
        assert_eq!(time(t, "url", "ts"), Ok(1_717_243_200));
        let t = r#"{"m":{"ts":1717243200,"url":"http://a/"}}"#;
        assert_eq!(time(t, "m.url", "m.ts"), Ok(1_717_243_200));
        let t = r#"{"url":"http://a/","m":{"ts":"20240601120000"}}"#;
        assert_eq!(time(t, "url", "m.ts"), Ok(1_717_243_200));
        let t = r#"{"url":"http://a/","ts":"yesterday"}"#;
        assert_eq!(time(t, "url", "ts"), Err(NOT_TIME));
        let t = r#"{"url":"http://a/","ts":1.5}"#;
        assert_eq!(time(t, "url", "ts"), Err(NOT_TIME));
        let t = r#"{"url":"http://a/","ts":null}"#;
        assert_eq!(time(t, "url", "ts"), Err(NO_TIME));
        assert_eq!(time(r#"{"url":"http://a/"}"#, "url", "ts"), Err(NO_TIME));
    }

    #[test]
    fn clashes_are_top_level_names_only() {
        let added = ["robots_verdict".to_string()];
        let path = ["url".to_string()];
        let f = find(br#"{"robots_verdict":1}"#, &path, &added).unwrap();
        assert!(f.clash && f.fields);
        let f = find(br#"{"a":{"robots_verdict":1}}"#, &path, &added).unwrap();
        assert!(!f.clash);
        let f = find(b"{}", &path, &added).unwrap();
        assert!(!f.fields);
    }
}
