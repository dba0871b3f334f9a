//! The categories of AI crawlers: a small fixed set, the groups the
//! ai.robots.txt list takes from Dark Visitors (`AI Data Scrapers`,
//! `AI Assistants`, ...), onto which each entry's free-text `function`
//! field is mapped.
//!
//! About half of the list's entries name their group; the rest describe
//! what the crawler does in a sentence (`Scrapes data to train OpenAI's
//! products.`, `LLM training.`). A slug per distinct sentence gave dozens
//! of one-entry categories, so that `ai:data-scrapers` missed most
//! scrapers; the sentences are read here by the words they use instead.

/// The categories, in the order `agents --categories` lists them: the
/// slug and what its crawlers do.
pub const CATEGORIES: &[(&str, &str)] = &[
    ("data-scrapers", "collect pages to train AI models"),
    ("data-providers", "collect pages for datasets others use or buy"),
    ("search-crawlers", "index pages for AI search and its answers"),
    ("assistants", "fetch pages when a user asks an AI assistant"),
    ("agents", "act on pages for a user (browse, fill in, buy)"),
    ("coding-agents", "fetch pages for AI coding tools"),
    ("undocumented", "AI crawlers whose purpose is not documented"),
    ("other", "any other function"),
];

/// The list's group names, as the list writes them, with their category.
const GROUPS: &[(&str, &str)] = &[
    ("AI Data Scrapers", "data-scrapers"),
    ("AI Data Providers", "data-providers"),
    ("AI Search Crawlers", "search-crawlers"),
    ("AI Assistants", "assistants"),
    ("AI Agents", "agents"),
    ("AI Coding Agents", "coding-agents"),
    ("Undocumented AI Agents", "undocumented"),
];

/// For a sentence, the first rule with an alternative whose every word
/// begins a word of the sentence (`scrap` meets `Scrapes`) gives the
/// category. The order settles sentences that name two functions:
/// `Collects data for AI search` is search, not scraping, and `SEO
/// Writing Assistant` is a tool, not an assistant.
const RULES: &[(&str, &[&[&str]])] = &[
    ("undocumented", &[&["undocumented"], &["unclear"]]),
    ("coding-agents", &[&["coding"]]),
    ("other", &[&["seo"]]),
    (
        "data-providers",
        &[
            &["sold"],
            &["sells"],
            &["data", "provider"],
            &["provid", "dataset"],
        ],
    ),
    ("search-crawlers", &[&["search"]]),
    ("agents", &[&["agent"], &["takes", "action"]]),
    (
        "assistants",
        &[
            &["assistant"],
            &["user"],
            &["prompt"],
            &["answer"],
            &["chat"],
            &["companion"],
        ],
    ),
    (
        "data-scrapers",
        &[
            &["scrap"],
            &["train"],
            &["llm"],
            &["dataset"],
            &["data", "set"],
            &["machine", "learning"],
            &["collect"],
            &["gather"],
            &["extract"],
            &["research", "crawler"],
        ],
    ),
];

/// The category of a `function` field: its group's, else the first rule
/// that matches its words, else `other`.
pub fn category_of(function: &str) -> &'static str {
    let text = function.trim().trim_end_matches('.');
    if let Some((_, slug)) =
        GROUPS.iter().find(|(group, _)| group.eq_ignore_ascii_case(text))
    {
        return slug;
    }
    let words: Vec<String> = function
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let has = |stem: &&str| words.iter().any(|w| w.starts_with(stem));
    RULES
        .iter()
        .find(|(_, alternatives)| {
            alternatives.iter().any(|all| all.iter().all(has))
        })
        .map_or("other", |(slug, _)| slug)
}

/// The category a slug names (compared case-insensitively), as its
/// `&'static str`; `None` when it is none of [`CATEGORIES`].
pub fn known(slug: &str) -> Option<&'static str> {
    CATEGORIES.iter().map(|(c, _)| *c).find(|c| c.eq_ignore_ascii_case(slug))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_map_to_their_category() {
        for (group, slug) in GROUPS {
            assert_eq!(category_of(group), *slug, "{group}");
            assert!(known(slug).is_some(), "{slug}");
        }
        assert_eq!(category_of("ai data scrapers"), "data-scrapers");
    }

    #[test]
    fn sentences_map_by_their_words() {
        for (text, slug) in [
            ("Scrapes data to train OpenAI's products.", "data-scrapers"),
            ("LLM training.", "data-scrapers"),
            ("AI data scraper", "data-scrapers"),
            ("Scrapes data.", "data-scrapers"),
            ("Data Scraper from RSS Feeds.", "data-scrapers"),
            ("Scrapes data for business data sets and machine learning models.", "data-scrapers"),
            ("Provides open crawl dataset, used for many purposes.", "data-providers"),
            ("Data is sold.", "data-providers"),
            ("Collects data for AI search", "search-crawlers"),
            ("Search result generation.", "search-crawlers"),
            ("Retrieves data to provide responses to user-initiated prompts.", "assistants"),
            ("Takes action based on user prompts.", "agents"),
            ("Unclear at this time.", "undocumented"),
            ("Checks URLs on your site for SEO Writing Assistant.", "other"),
            ("AI powered translation service", "other"),
            ("", "other"),
        ] {
            assert_eq!(category_of(text), slug, "{text:?}");
        }
    }

    #[test]
    fn slugs_are_known_in_any_case() {
        assert_eq!(known("Data-Scrapers"), Some("data-scrapers"));
        assert_eq!(known("data-scraper"), None);
        assert_eq!(known(""), None);
        assert!(CATEGORIES.iter().all(|(c, _)| c.len() <= 16));
    }
}
