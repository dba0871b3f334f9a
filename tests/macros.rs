//! `rbtest!` and `eqnice!`, after ripgrep's `rgtest!` and `eqnice!`.

/// Defines a test that gets a fresh [`Dir`](crate::util::Dir) (holding the
/// example robots.txt as `robots.txt`) and a
/// [`TestCommand`](crate::util::TestCommand) running in it.
#[macro_export]
macro_rules! rbtest {
    ($name:ident, $fun:expr) => {
        #[test]
        fn $name() {
            let (dir, cmd) = $crate::util::setup(stringify!($name));
            $fun(dir, cmd);
        }
    };
}

/// Asserts that two outputs (anything that is `AsRef<[u8]>`) are equal,
/// and shows both in full, as text, when they are not.
#[macro_export]
macro_rules! eqnice {
    ($expected:expr, $got:expr) => {{
        let (expected, got) = (&$expected, &$got);
        let expected: &[u8] = ::std::convert::AsRef::<[u8]>::as_ref(expected);
        let got: &[u8] = ::std::convert::AsRef::<[u8]>::as_ref(got);
        if expected != got {
            let at = expected
                .iter()
                .zip(got)
                .position(|(a, b)| a != b)
                .unwrap_or(expected.len().min(got.len()));
            panic!(
                "\nprinted outputs differ (first difference at byte {})!\
                 \n\nexpected:\n{}\n{}\n{}\n\ngot:\n{}\n{}\n{}\n",
                at,
                "~".repeat(79),
                $crate::util::show(expected),
                "~".repeat(79),
                "~".repeat(79),
                $crate::util::show(got),
                "~".repeat(79),
            );
        }
    }};
}
