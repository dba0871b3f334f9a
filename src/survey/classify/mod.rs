//! Survey classifiers: the exact [`scope`](crate::survey::scope), and the
//! rules two published studies count sites by, so that their figures can be
//! reproduced and compared with the exact answer site by site.
//!
//! Published figures read robots.txt files with their own parsers and
//! class an agent's rules from their text:
//!
//! * [`Classifier::CcDisallowAll`]: Common Crawl's robotstxt-experiments
//!   count a site as "disallow-all" for an agent only when its rules are
//!   exactly one `Disallow: /`.
//! * [`Classifier::Dpi`]: the Data Provenance Initiative's Consent in
//!   Crisis counts all, some or none, leaving out every rule with a `?`.
//!
//! Each reproduces the study's code, its quirks included (which lines start
//! a group, how an agent is named, how its rules are compared), so that a
//! survey's counts are the study's; [`Classifier::Exact`] is the survey's
//! own exhaustive proof. The fetch (a 4xx, a 5xx, a redirect) is judged by
//! the survey's fetch policy whatever the classifier: these classify the
//! bodies only.
//!
//! ```
//! use robots_batch::survey::classify::Classifier;
//! use robots_batch::survey::{GroupKind, Scope};
//! use robots_batch::{Dialect, Robots};
//!
//! let body = b"User-agent: *\nDisallow: /*\n";
//! let robots = Robots::parse(body);
//! let agents = ["GPTBot".to_string()];
//! let class = |c: Classifier| {
//!     c.classify(body, &robots, &agents, Dialect::Rfc9309)[0].scope
//! };
//! assert_eq!(class(Classifier::Exact), Scope::Full);
//! assert_eq!(class(Classifier::CcDisallowAll), Scope::Partial);
//! assert_eq!(class(Classifier::Dpi), Scope::Partial);
//! ```

mod cc;
mod dpi;
mod python;

use std::fmt;
use std::str::FromStr;

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind};
use crate::robots::Robots;
use crate::survey::{survey, GroupKind, Scope};

/// How a survey classes an agent's rules into a [`Scope`].
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
pub enum Classifier {
    /// The exact scope for the dialect ([`scope`](crate::survey::scope)):
    /// `full` when every path but the implicit `/robots.txt` is disallowed,
    /// `none` when no path is, `partial` otherwise.
    #[default]
    Exact,
    /// Common Crawl's robotstxt-experiments: `full` ("disallow-all") only
    /// when the agent's rules are exactly one `Disallow: /`; `none`
    /// ("allow-all") when they are exactly one `Allow: /`, `Allow: *`,
    /// `Allow: /*`, `Allow:` or `Disallow:`, or when the file has rules but
    /// none for the agent or `*`; `partial` ("allow-part") for any other
    /// rules; `unknown` for a file without any rule (their "Robots.txt no
    /// rules", which their shares leave out). The agent's rules are those
    /// of `User-agent` lines whose whole value is the agent's name in any
    /// case, else those of `User-agent: *`. Source:
    /// `src/jupyter/metrics-top-k-sample.ipynb`
    /// (`classify_robotstxt_rules`) and
    /// `src/cc-pyspark/robotstxt_statistics.py` (`--extract_rulesets`) of
    /// <https://github.com/commoncrawl/robotstxt-experiments>; see
    /// docs/SURVEY.md for every rule.
    CcDisallowAll,
    /// The Data Provenance Initiative's Consent in Crisis (Longpre et al.,
    /// 2024): leaving out every `Allow` and `Disallow` value with a `?`,
    /// `none` when no disallow is left, or only one empty one, or the
    /// allows equal the disallows; else `full` ("all") when a disallow is
    /// `/` and no allow is left; else `partial` ("some"). The agent's
    /// rules are those of `User-agent` lines whose whole value is the
    /// agent's name in any case, else `*`'s, else `none`. Source:
    /// `src/web_analysis/parse_robots.py` (`parse_robots_txt`,
    /// `interpret_agent`) and `src/web_analysis/robots_util.py`
    /// (`compute_url_date_agent_status`) of
    /// <https://github.com/Data-Provenance-Initiative/Data-Provenance-Collection>;
    /// see docs/SURVEY.md for every rule.
    Dpi,
}

impl Classifier {
    /// Every classifier, the default first.
    pub const ALL: [Classifier; 3] =
        [Classifier::Exact, Classifier::CcDisallowAll, Classifier::Dpi];

    /// `exact`, `cc-disallow-all` or `dpi`.
    pub fn name(self) -> &'static str {
        match self {
            Classifier::Exact => "exact",
            Classifier::CcDisallowAll => "cc-disallow-all",
            Classifier::Dpi => "dpi",
        }
    }

    /// Each agent's [`Classified`] for one robots.txt, `body`, in the order
    /// of `agents`. [`Classifier::Exact`] surveys `robots` (`body` parsed)
    /// in `dialect`, as [`survey`] does; the others read `body` with the
    /// study's own parser and ignore `robots` and `dialect`.
    pub fn classify(
        self,
        body: &[u8],
        robots: &Robots,
        agents: &[String],
        dialect: Dialect,
    ) -> Vec<Classified> {
        let of = |(group, scope, rules)| Classified { group, scope, rules };
        match self {
            Classifier::Exact => survey(robots, agents, dialect)
                .into_iter()
                .map(|a| of((a.group, a.scope, a.rules)))
                .collect(),
            Classifier::CcDisallowAll => {
                cc::classes(body, agents).into_iter().map(of).collect()
            }
            Classifier::Dpi => {
                dpi::classes(body, agents).into_iter().map(of).collect()
            }
        }
    }
}

/// One agent's class of a robots.txt, as a [`Classifier`] reads it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Classified {
    /// The group the classifier took the agent's rules from: `named` (a
    /// group names it, as the classifier matches names), `star` (the `*`
    /// rules) or `none`.
    pub group: GroupKind,
    /// The class, as a scope.
    pub scope: Scope,
    /// How many allow and disallow rules the classifier read for the agent.
    pub rules: usize,
}

impl fmt::Display for Classifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Classifier {
    type Err = Error;

    fn from_str(s: &str) -> Result<Classifier, Error> {
        Classifier::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                Error::new(ErrorKind::UnknownClassifier(s.to_string()))
            })
    }
}

#[cfg(test)]
mod tests;
