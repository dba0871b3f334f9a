//! Rows of named fields, for tables whose columns are not verdicts (a
//! survey's): the header and each row in CSV, TSV or JSON Lines, quoted
//! and escaped as the verdict tables are.

use super::fields::{push_field, push_json_string, separator};
use super::format::Format;

/// One field of a row of [`Columns`].
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Field<'a> {
    /// Text: a string in JSON, a field as it is (quoted if need be) in
    /// CSV and TSV.
    Text(&'a [u8]),
    /// A count: a JSON number.
    Number(u64),
    /// No value: an empty field in CSV and TSV, `null` in JSON.
    Null,
    /// A share, the first count of the second: a decimal with four
    /// places (a JSON number), rounded half up; no value when the second
    /// is 0.
    Share(u64, u64),
}

/// The columns of a table and the format its rows are written in.
#[derive(Clone, Debug)]
pub struct Columns {
    format: Format,
    names: Vec<String>,
}

impl Columns {
    /// A table with columns `names`, in `format`.
    pub fn new<S: AsRef<str>>(format: Format, names: &[S]) -> Columns {
        let names = names.iter().map(|n| n.as_ref().to_string()).collect();
        Columns { format, names }
    }

    /// The header line: the column names (nothing for JSON Lines, whose
    /// objects name their fields).
    pub fn header(&self) -> Vec<u8> {
        let mut out = vec![];
        if self.format == Format::Jsonl {
            return out;
        }
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                out.push(separator(self.format));
            }
            push_field(self.format, &mut out, name.as_bytes());
        }
        out.push(b'\n');
        out
    }

    /// Appends one row, a field per column (missing ones are empty, extra
    /// ones dropped), ending in a line feed.
    pub fn push(&self, out: &mut Vec<u8>, fields: &[Field<'_>]) {
        let jsonl = self.format == Format::Jsonl;
        if jsonl {
            out.push(b'{');
        }
        for (i, name) in self.names.iter().enumerate() {
            let field = fields.get(i).copied().unwrap_or(Field::Text(b""));
            if i > 0 {
                out.push(if jsonl { b',' } else { separator(self.format) });
            }
            if jsonl {
                push_json_string(out, name.as_bytes());
                out.push(b':');
            }
            match field {
                Field::Number(n) => {
                    out.extend_from_slice(n.to_string().as_bytes())
                }
                Field::Text(t) => push_field(self.format, out, t),
                Field::Null | Field::Share(_, 0) if jsonl => {
                    out.extend_from_slice(b"null")
                }
                Field::Null | Field::Share(_, 0) => {}
                Field::Share(part, whole) => {
                    let (part, whole) = (u128::from(part), u128::from(whole));
                    let r = (part * 20_000 + whole) / (2 * whole);
                    let text = format!("{}.{:04}", r / 10_000, r % 10_000);
                    out.extend_from_slice(text.as_bytes())
                }
            }
        }
        if jsonl {
            out.push(b'}');
        }
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_in_each_format() {
        let fields = [Field::Text(b"a,b\t\"c\""), Field::Number(7)];
        let row = |format| {
            let r = Columns::new(format, &["site", "rules"]);
            let mut out = r.header();
            r.push(&mut out, &fields);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(row(Format::Csv), "site,rules\n\"a,b\t\"\"c\"\"\",7\n");
        assert_eq!(row(Format::Tsv), "site\trules\na,b\\t\"c\"\t7\n");
        assert_eq!(
            row(Format::Jsonl),
            "{\"site\":\"a,b\\t\\\"c\\\"\",\"rules\":7}\n"
        );
    }

    #[test]
    fn shares() {
        let row = |format, fields: &[Field<'_>]| {
            let mut out = vec![];
            Columns::new(format, &["a", "b", "c", "d"]).push(&mut out, fields);
            String::from_utf8(out).unwrap()
        };
        let fields = [
            Field::Share(1, 3),
            Field::Share(2, 3),
            Field::Share(5, 5),
            Field::Share(0, 0),
        ];
        assert_eq!(row(Format::Csv, &fields), "0.3333,0.6667,1.0000,\n");
        assert_eq!(
            row(Format::Jsonl, &fields),
            "{\"a\":0.3333,\"b\":0.6667,\"c\":1.0000,\"d\":null}\n"
        );
        let half = [Field::Share(1, 20_000), Field::Share(u64::MAX, u64::MAX)];
        assert_eq!(row(Format::Tsv, &half), "0.0001\t1.0000\t\t\n");
    }
}
