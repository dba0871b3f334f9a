//! The URL of a JSON object, found by a dotted path of field names while
//! every other value is only validated, never built.

use std::borrow::Cow;
use std::fmt;

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
}

/// Finds the string at `path` (field names from the outermost object in)
/// in the JSON text `text`; `added` are the field names robots-batch adds
/// at the top level. `Err` when `text` is not one JSON object.
pub(crate) fn find<'de>(
    text: &'de [u8],
    path: &[String],
    added: &[String],
) -> Result<Found<'de>, &'static str> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let found = Object { path, added: Some(added) }
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

/// Looks through an object for `path`; `None` when the value is no object.
struct Object<'p> {
    path: &'p [String],
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
        let mut found =
            Found { url: Err(MISSING), clash: false, fields: false };
        while let Some(key) = map.next_key::<Key<'de>>()? {
            found.fields = true;
            let key = key.0;
            if let Some(added) = self.added {
                found.clash |= added.iter().any(|a| **a == *key);
            }
            // Of fields with the same name, the last one counts, as jq,
            // Python and JavaScript read it.
            if self.path.first().is_some_and(|p| **p == *key) {
                if self.path.len() == 1 {
                    found.url = map.next_value::<UrlValue<'de>>()?.0;
                } else {
                    let inner = Object { path: &self.path[1..], added: None };
                    found.url = match map.next_value_seed(inner)? {
                        Some(inner) => inner.url,
                        None => Err(MISSING),
                    };
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
