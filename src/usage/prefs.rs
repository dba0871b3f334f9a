//! The vocabulary of usage preferences: the categories, what a line says
//! of each, and the lines themselves, below the index and the selection
//! that use them.

/// A category of use that the usage columns report.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub enum Category {
    /// AI model training: AIPREF's `train-ai`, Content-Signal's
    /// `ai-train`.
    TrainAi,
    /// Search: AIPREF's and Content-Signal's `search`.
    Search,
    /// Use as live input to AI answers: Content-Signal's `ai-input`, which
    /// has no AIPREF label.
    AiInput,
}

impl Category {
    /// Every category, in the order of the usage columns.
    pub const ALL: [Category; 3] =
        [Category::TrainAi, Category::Search, Category::AiInput];

    /// The category's name in reports (the column's name): `train-ai`,
    /// `search` or `ai-input`.
    pub fn name(self) -> &'static str {
        match self {
            Category::TrainAi => "train-ai",
            Category::Search => "search",
            Category::AiInput => "ai-input",
        }
    }

    /// The AIPREF label of the category, if it has one (vocab-07 has
    /// `train-ai` and `search`).
    pub(super) fn aipref_label(self) -> Option<&'static str> {
        match self {
            Category::TrainAi => Some("train-ai"),
            Category::Search => Some("search"),
            Category::AiInput => None,
        }
    }

    /// The Content-Signal key of the category.
    pub(super) fn signal_key(self) -> &'static [u8] {
        match self {
            Category::TrainAi => b"ai-train",
            Category::Search => b"search",
            Category::AiInput => b"ai-input",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The preference for one category of use.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
pub enum Preference {
    /// The use is allowed (`y`, `yes`).
    Allowed,
    /// The use is disallowed (`n`, `no`).
    Disallowed,
    /// Nothing (understood) was said.
    #[default]
    Unknown,
}

impl Preference {
    /// `allowed`, `disallowed` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Preference::Allowed => "allowed",
            Preference::Disallowed => "disallowed",
            Preference::Unknown => "unknown",
        }
    }
}

/// The preference for every category, as one line states it or as the
/// lines that apply to a path combine, with the line that decided each.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
pub struct UsagePrefs {
    prefs: [Preference; 3],
    lines: [Option<u32>; 3],
}

impl UsagePrefs {
    /// The preference for `category`.
    pub fn get(&self, category: Category) -> Preference {
        self.prefs[category.index()]
    }

    /// The line that decided the preference for `category`: the first line
    /// in file order that states the winning preference; `None` when the
    /// preference is unknown.
    pub fn line(&self, category: Category) -> Option<u32> {
        self.lines[category.index()]
    }

    /// Combines `other` into these preferences, per category, the most
    /// restrictive winning (AIPREF vocab, "Combining Preferences"): any
    /// disallow gives disallowed, else any allow gives allowed, else
    /// unknown. Of two lines stating the winner, the first in file order
    /// decides.
    pub(crate) fn combine(&mut self, other: &UsagePrefs) {
        for i in 0..3 {
            let (a, b) = (self.prefs[i], other.prefs[i]);
            let rank = |p: Preference| match p {
                Preference::Disallowed => 2,
                Preference::Allowed => 1,
                Preference::Unknown => 0,
            };
            if rank(b) > rank(a) {
                self.prefs[i] = b;
                self.lines[i] = other.lines[i];
            } else if rank(b) == rank(a) && b != Preference::Unknown {
                self.lines[i] = match (self.lines[i], other.lines[i]) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                };
            }
        }
    }

    /// Sets the preference for `category` as `line` states it (no line
    /// when it is unknown).
    pub(crate) fn set(
        &mut self,
        category: Category,
        pref: Preference,
        line: u32,
    ) {
        self.prefs[category.index()] = pref;
        self.lines[category.index()] =
            (pref != Preference::Unknown).then_some(line);
    }
}

/// The kind of line a [`UsageLine`] comes from.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub enum UsageSource {
    /// A `Content-Usage` line (IETF AIPREF).
    ContentUsage,
    /// A `Content-Signal` line (Cloudflare's Content Signals Policy).
    ContentSignal,
}

/// One `Content-Usage` or `Content-Signal` line that applies to the agent
/// (a *line*, not a *rule*: rules are Allow and Disallow lines, which
/// decide verdicts).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct UsageLine {
    pub(super) line: u32,
    pub(super) source: UsageSource,
    /// The path pattern after the dialect's normalisation; `None` when
    /// the line has none (every Content-Signal line).
    pub(super) pattern: Option<Vec<u8>>,
    pub(super) prefs: UsagePrefs,
    pub(super) text: Vec<u8>,
}

impl UsageLine {
    /// The robots.txt line, counting from 1.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// Which kind of line it is.
    pub fn source(&self) -> UsageSource {
        self.source
    }

    /// The path pattern after the dialect's normalisation (as a rule's),
    /// `None` when the line gives none: then it applies to every path,
    /// with a length of 0.
    pub fn pattern(&self) -> Option<&[u8]> {
        self.pattern.as_deref()
    }

    /// The preferences the line states.
    pub fn prefs(&self) -> &UsagePrefs {
        &self.prefs
    }

    /// The line as written, without its line end.
    pub fn text(&self) -> &[u8] {
        &self.text
    }
}
