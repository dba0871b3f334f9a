//! Fetch times out of an Arrow column: strings read as
//! [`Timestamp::parse`] reads them, Arrow timestamps and dates, and
//! integers of whole seconds.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Int32Type, Int64Type, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
    UInt32Type, UInt64Type,
};
use arrow_array::Array;
use arrow_schema::{DataType, TimeUnit};

use super::json::{NOT_TIME, NO_TIME};
use crate::time::Timestamp;

/// The time of each row of `array` (a null: why there is none), or why
/// the column holds no times at all.
pub fn arrow_times(
    array: &dyn Array,
) -> Result<Vec<Result<Timestamp, &'static str>>, String> {
    let n = array.len();
    let each = |get: &dyn Fn(usize) -> Result<Timestamp, &'static str>| {
        (0..n)
            .map(|i| if array.is_null(i) { Err(NO_TIME) } else { get(i) })
            .collect()
    };
    let seconds = |s: i64| Ok(Timestamp::from_seconds(s));
    Ok(match array.data_type() {
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            each(&|i| Timestamp::parse(a.value(i)).ok_or(NOT_TIME))
        }
        DataType::LargeUtf8 => {
            let a = array.as_string::<i64>();
            each(&|i| Timestamp::parse(a.value(i)).ok_or(NOT_TIME))
        }
        DataType::Utf8View => {
            let a = array.as_string_view();
            each(&|i| Timestamp::parse(a.value(i)).ok_or(NOT_TIME))
        }
        DataType::Timestamp(unit, _) => {
            let per_second: i64 = match unit {
                TimeUnit::Second => 1,
                TimeUnit::Millisecond => 1_000,
                TimeUnit::Microsecond => 1_000_000,
                TimeUnit::Nanosecond => 1_000_000_000,
            };
            let raw = |i: usize| match unit {
                TimeUnit::Second => {
                    array.as_primitive::<TimestampSecondType>().value(i)
                }
                TimeUnit::Millisecond => {
                    array.as_primitive::<TimestampMillisecondType>().value(i)
                }
                TimeUnit::Microsecond => {
                    array.as_primitive::<TimestampMicrosecondType>().value(i)
                }
                TimeUnit::Nanosecond => {
                    array.as_primitive::<TimestampNanosecondType>().value(i)
                }
            };
            each(&|i| seconds(raw(i).div_euclid(per_second)))
        }
        DataType::Date32 => {
            let a = array.as_primitive::<Date32Type>();
            each(&|i| seconds(i64::from(a.value(i)) * 86_400))
        }
        DataType::Date64 => {
            let a = array.as_primitive::<Date64Type>();
            each(&|i| seconds(a.value(i).div_euclid(1_000)))
        }
        DataType::Int64 => {
            let a = array.as_primitive::<Int64Type>();
            each(&|i| seconds(a.value(i)))
        }
        DataType::Int32 => {
            let a = array.as_primitive::<Int32Type>();
            each(&|i| seconds(i64::from(a.value(i))))
        }
        DataType::UInt32 => {
            let a = array.as_primitive::<UInt32Type>();
            each(&|i| seconds(i64::from(a.value(i))))
        }
        DataType::UInt64 => {
            let a = array.as_primitive::<UInt64Type>();
            each(&|i| {
                i64::try_from(a.value(i))
                    .map_err(|_| NOT_TIME)
                    .and_then(seconds)
            })
        }
        other => {
            return Err(format!(
                "holds {other}, not times (strings, timestamps, dates or \
                 integers of seconds)"
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{
        ArrayRef, Int64Array, StringArray, TimestampMillisecondArray,
    };

    use super::*;

    fn seconds(array: ArrayRef) -> Vec<Result<i64, &'static str>> {
        let times = arrow_times(&array).unwrap();
        times.into_iter().map(|t| t.map(Timestamp::seconds)).collect()
    }

    #[test]
    fn strings_timestamps_and_seconds() {
        let noon = 1_717_243_200;
        let strings: ArrayRef = Arc::new(StringArray::from(vec![
            Some("2024-06-01T12:00:00Z"),
            None,
            Some("noon"),
        ]));
        assert_eq!(seconds(strings), [Ok(noon), Err(NO_TIME), Err(NOT_TIME)]);
        let millis: ArrayRef = Arc::new(
            TimestampMillisecondArray::from(vec![noon * 1000 + 999])
                .with_timezone("UTC"),
        );
        assert_eq!(seconds(millis), [Ok(noon)]);
        let ints: ArrayRef = Arc::new(Int64Array::from(vec![noon, -1]));
        assert_eq!(seconds(ints), [Ok(noon), Ok(-1)]);
        let floats: ArrayRef =
            Arc::new(arrow_array::Float64Array::from(vec![1.0]));
        assert!(arrow_times(&floats).is_err());
    }
}
