//! Hand-made files on which the classifiers differ, each with every
//! classifier's exact answer.

use super::{Classified, Classifier};
use crate::survey::{GroupKind, Scope};
use crate::{Dialect, Robots};

use GroupKind::{Named, Star};
use Scope::{Full, Partial, Unknown};

/// A file, an agent, and what exact, cc-disallow-all and dpi say.
struct Case {
    why: &'static str,
    body: &'static str,
    agent: &'static str,
    want: [(GroupKind, Scope, usize); 3],
}

const NONE: Scope = Scope::None;
const NO_GROUP: GroupKind = GroupKind::None;

const CASES: &[Case] = &[
    Case {
        why: "the one rule every classifier calls full",
        body: "User-agent: *\nDisallow: /\n",
        agent: "GPTBot",
        want: [(Star, Full, 1), (Star, Full, 1), (Star, Full, 1)],
    },
    Case {
        why: "`/*` disallows every path, but is not the text `/`",
        body: "User-agent: *\nDisallow: /*\n",
        agent: "GPTBot",
        want: [(Star, Full, 1), (Star, Partial, 1), (Star, Partial, 1)],
    },
    Case {
        why: "an allow makes it partial for all three",
        body: "User-agent: *\nDisallow: /\nAllow: /public\n",
        agent: "GPTBot",
        want: [(Star, Partial, 2), (Star, Partial, 2), (Star, Partial, 2)],
    },
    Case {
        why: "dpi leaves out an allow with a `?`: all",
        body: "User-agent: *\nDisallow: /\nAllow: /?page\n",
        agent: "GPTBot",
        want: [(Star, Partial, 2), (Star, Partial, 2), (Star, Full, 2)],
    },
    Case {
        why: "dpi leaves out a disallow with a `?`: none",
        body: "User-agent: *\nDisallow: /*?\n",
        agent: "GPTBot",
        want: [(Star, Partial, 1), (Star, Partial, 1), (Star, NONE, 1)],
    },
    Case {
        why: "cc wants exactly one rule",
        body: "User-agent: *\nDisallow: /\nDisallow:\n",
        agent: "GPTBot",
        want: [(Star, Full, 2), (Star, Partial, 2), (Star, Full, 2)],
    },
    Case {
        why: "the allow wins the tie; cc sees two rules; dpi equal lists",
        body: "User-agent: *\nDisallow: /a\nAllow: /a\n",
        agent: "GPTBot",
        want: [(Star, NONE, 2), (Star, Partial, 2), (Star, NONE, 2)],
    },
    Case {
        why: "`GPTBot/1.0` names GPTBot in RFC 9309, not in the studies",
        body: "User-agent: GPTBot/1.0\nAllow: /\n\nUser-agent: *\n\
               Disallow: /\n",
        agent: "GPTBot",
        want: [(Named, NONE, 1), (Star, Full, 1), (Star, Full, 1)],
    },
    Case {
        why: "after the first rule, both studies give a group's rules to \
              its last User-agent line only",
        body: "User-agent: a\nDisallow: /x\n\nUser-agent: GPTBot\n\
               User-agent: b\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
        agent: "GPTBot",
        want: [(Named, Full, 1), (Star, NONE, 1), (Named, NONE, 0)],
    },
    Case {
        why: "the names' case: exact and dpi merge the groups; cc takes \
              the first spelling in sorted order",
        body: "User-agent: GPTBot\nDisallow: /\n\nUser-agent: gptbot\n\
               Allow: /x\n",
        agent: "GPTBot",
        want: [(Named, Partial, 2), (Named, Full, 1), (Named, Partial, 2)],
    },
    Case {
        why: "dpi wants no space before the colon",
        body: "User-agent : GPTBot\nDisallow : /\n",
        agent: "GPTBot",
        want: [(Named, Full, 1), (Named, Full, 1), (NO_GROUP, NONE, 0)],
    },
    Case {
        why: "cc ends lines at `\\n` only: one line, no rule",
        body: "User-agent: *\rDisallow: /\r",
        agent: "GPTBot",
        want: [(Star, Full, 1), (NO_GROUP, Unknown, 0), (Star, Full, 1)],
    },
    Case {
        why: "cc skips a body whose first line is HTML",
        body: "<html>\nUser-agent: *\nDisallow: /\n",
        agent: "GPTBot",
        want: [(Star, Full, 1), (NO_GROUP, Unknown, 0), (Star, Full, 1)],
    },
    Case {
        why: "a file without rules: cc does not count it",
        body: "# nothing\nSitemap: /s.xml\n",
        agent: "GPTBot",
        want: [
            (NO_GROUP, NONE, 0),
            (NO_GROUP, Unknown, 0),
            (NO_GROUP, NONE, 0),
        ],
    },
    Case {
        why: "rules, but none for the agent or `*`: allowed everywhere",
        body: "User-agent: CCBot\nDisallow: /\n",
        agent: "GPTBot",
        want: [(NO_GROUP, NONE, 0), (NO_GROUP, NONE, 0), (NO_GROUP, NONE, 0)],
    },
    Case {
        why: "the agent `*` gets the `*` rules",
        body: "User-agent: CCBot\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
        agent: "*",
        want: [(Star, Full, 1), (Star, Full, 1), (Star, Full, 1)],
    },
];

#[test]
fn classifiers_on_hand_made_files() {
    for case in CASES {
        let robots = Robots::parse(case.body.as_bytes());
        let agents = [case.agent.to_string()];
        for (c, want) in Classifier::ALL.into_iter().zip(case.want) {
            let got = c.classify(
                case.body.as_bytes(),
                &robots,
                &agents,
                Dialect::Rfc9309,
            );
            let (group, scope, rules) = want;
            assert_eq!(
                got,
                [Classified { group, scope, rules }],
                "{}: {}",
                c.name(),
                case.why
            );
        }
    }
}

#[test]
fn names_round_trip() {
    for c in Classifier::ALL {
        assert_eq!(c.name().parse::<Classifier>().unwrap(), c);
        assert_eq!(c.to_string(), c.name());
    }
    assert_eq!("DPI".parse::<Classifier>().unwrap(), Classifier::Dpi);
    let err = "cc".parse::<Classifier>().unwrap_err();
    let names: Vec<&str> = Classifier::ALL.iter().map(|c| c.name()).collect();
    let listed = format!("(expected one of: {})", names.join(", "));
    assert!(err.to_string().ends_with(&listed), "{err}");
}

#[test]
fn dpi_counts_a_twice_listed_agent_twice() {
    // Before the first rule, each User-agent line adds its agent, even one
    // already there: each rule goes to it twice, and two disallows `` are
    // not one.
    let body = b"User-agent: GPTBot\nUser-agent: gptbot\nDisallow:\n";
    let got = super::dpi::classes(body, &["GPTBot".to_string()]);
    assert_eq!(got, [(Named, Scope::Partial, 2)]);
}

#[test]
fn cc_values_stop_at_a_comment_or_carriage_return() {
    let agents = ["GPTBot".to_string()];
    for body in [
        &b"\xef\xbb\xbfUser-agent:   GPTBot  # ours\nDisallow: / # all\n"[..],
        b"  user-AGENT\t:GPTBot\r\nDISALLOW:/\r\n",
        b"User-agent: GPTBot\nCrawl-delay: 5\nDisallow: /\nNoindex: /x\n",
    ] {
        let got = super::cc::classes(body, &agents);
        let text = String::from_utf8_lossy(body);
        assert_eq!(got, [(Named, Full, 1)], "{text:?}");
    }
    // `<htmlx` is not HTML to the job's `\b`; `<!doctype html>` is.
    let got =
        super::cc::classes(b"<htmlx\nUser-agent: *\nDisallow: /\n", &agents);
    assert_eq!(got, [(Star, Full, 1)]);
    let got = super::cc::classes(b"<!doctype html>\nUser-agent: *\n", &agents);
    assert_eq!(got, [(NO_GROUP, Unknown, 0)]);
}
