//! The AI crawlers of ai.robots.txt's community list, for audits of many
//! crawlers at once: `--agents ai` and `--agents ai:CATEGORY`.
//!
//! The list is `datasets/ai-robots-txt/robots.json` (MIT, its licence
//! beside it), embedded in the library and parsed at first use: one parse
//! of 70 KB costs well under a millisecond, and keeping the file as
//! published lets `scripts/refresh-ai-agents` replace it without a
//! generation step.

mod category;

use std::sync::OnceLock;

pub use self::category::CATEGORIES as AI_CATEGORIES;
use crate::rules::{is_valid_product_token, product_token};

/// ai.robots.txt's `robots.json`, as published.
const ROBOTS_JSON: &str =
    include_str!("../../datasets/ai-robots-txt/robots.json");

/// One crawler of the ai.robots.txt list.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct AiAgent {
    /// The name as the list writes it (`GPTBot`, `AI2Bot`, `Kangaroo Bot`).
    pub name: String,
    /// The product token robots-batch judges it by: the name when it is a
    /// valid product token; else its leading token when the rest is only a
    /// version, another word or a domain suffix (`Kangaroo Bot` gives
    /// `Kangaroo`, `iaskspider/2.0` gives `iaskspider`, `bigsur.ai` gives
    /// `bigsur`); else `None`, and the entry is left out of `--agents ai`,
    /// because the token would be another word (`AI2Bot` gives `AI`).
    pub token: Option<String>,
    /// What Google's parser (and RFC 9309) reads from a robots.txt line
    /// `User-agent: <name>`: the name's leading letters, `-` and `_`.
    pub google_reads: String,
    /// The operator, as the list writes it (Markdown links kept).
    pub operator: String,
    /// The category, one of [`AI_CATEGORIES`]: the group the `function`
    /// field names or describes (`AI Data Scrapers` and `Scrapes data to
    /// train OpenAI's products.` are both `data-scrapers`), else `other`.
    pub category: &'static str,
    /// The list's `function` field as written (free text).
    pub function: String,
}

/// Every entry of the embedded list, in case-insensitive order of name.
///
/// ```
/// let agents = robots_batch::agents::ai_agents();
/// let gpt = agents.iter().find(|a| a.name == "GPTBot").unwrap();
/// assert_eq!(gpt.token.as_deref(), Some("GPTBot"));
/// let ai2 = agents.iter().find(|a| a.name == "AI2Bot").unwrap();
/// assert_eq!((ai2.token.as_deref(), ai2.google_reads.as_str()), (None, "AI"));
/// ```
pub fn ai_agents() -> &'static [AiAgent] {
    static AGENTS: OnceLock<Vec<AiAgent>> = OnceLock::new();
    AGENTS.get_or_init(|| parse_list(ROBOTS_JSON).unwrap_or_default())
}

/// The product tokens `--agents ai` (`category` `None`) or
/// `--agents ai:CATEGORY` judges, in list order, each once (compared
/// case-insensitively, as groups are). `None` when the category is none of
/// [`AI_CATEGORIES`] (compared case-insensitively).
pub fn ai_agent_tokens(category: Option<&str>) -> Option<Vec<&'static str>> {
    let category = match category {
        Some(c) => Some(category::known(c)?),
        None => None,
    };
    let mut seen = std::collections::HashSet::new();
    let tokens = ai_agents()
        .iter()
        .filter(|a| category.is_none_or(|c| a.category == c))
        .filter_map(|a| a.token.as_deref())
        .filter(|t| seen.insert(t.to_ascii_lowercase()))
        .collect();
    Some(tokens)
}

/// Every category of [`AI_CATEGORIES`], in its order, with how many
/// entries of the list it has (maybe none).
pub fn ai_categories() -> Vec<(&'static str, usize)> {
    AI_CATEGORIES
        .iter()
        .map(|&(c, _)| {
            (c, ai_agents().iter().filter(|a| a.category == c).count())
        })
        .collect()
}

/// Parses a `robots.json`: an object of entries by name, each an object
/// with string fields (`operator`, `function`, ...).
fn parse_list(json: &str) -> Result<Vec<AiAgent>, serde_json::Error> {
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(json)?;
    let field = |v: &serde_json::Value, k: &str| {
        v.get(k).and_then(|f| f.as_str()).unwrap_or("").trim().to_string()
    };
    let mut agents: Vec<AiAgent> = map
        .iter()
        .map(|(name, v)| AiAgent {
            name: name.clone(),
            token: judged_token(name).map(str::to_string),
            google_reads: product_token(name).to_string(),
            operator: field(v, "operator"),
            category: category::category_of(&field(v, "function")),
            function: field(v, "function"),
        })
        .collect();
    agents.sort_by(|a, b| {
        let key = |s: &str| s.to_ascii_lowercase();
        key(&a.name).cmp(&key(&b.name)).then(a.name.cmp(&b.name))
    });
    Ok(agents)
}

/// The token robots-batch judges a listed name by (see [`AiAgent::token`]).
fn judged_token(name: &str) -> Option<&str> {
    if is_valid_product_token(name) {
        return Some(name);
    }
    let token = product_token(name);
    let next = name.as_bytes().get(token.len());
    match next {
        Some(b' ' | b'/' | b'.') if !token.is_empty() => Some(token),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_list_parses() {
        assert!(parse_list(ROBOTS_JSON).is_ok());
        let agents = ai_agents();
        assert!(agents.len() > 100, "{}", agents.len());
        for name in ["GPTBot", "ClaudeBot", "CCBot", "Google-Extended"] {
            let a = agents.iter().find(|a| a.name == name).unwrap();
            assert_eq!(a.token.as_deref(), Some(name));
            assert!(!a.operator.is_empty());
        }
    }

    #[test]
    fn tokens_are_product_tokens_and_distinct() {
        let tokens = ai_agent_tokens(None).unwrap();
        let mut seen = std::collections::HashSet::new();
        for t in &tokens {
            assert!(is_valid_product_token(t), "{t:?}");
            assert!(seen.insert(t.to_ascii_lowercase()), "{t:?}");
        }
    }

    #[test]
    fn names_that_are_not_tokens() {
        assert_eq!(judged_token("GPTBot"), Some("GPTBot"));
        assert_eq!(judged_token("Kangaroo Bot"), Some("Kangaroo"));
        assert_eq!(judged_token("iaskspider/2.0"), Some("iaskspider"));
        assert_eq!(judged_token("bigsur.ai"), Some("bigsur"));
        assert_eq!(judged_token("AI2Bot"), None);
        assert_eq!(judged_token("Crawl4AI"), None);
        assert_eq!(judged_token("2bot"), None);
        assert_eq!(product_token("AI2Bot"), "AI");
    }

    #[test]
    fn categories_select() {
        let cats = ai_categories();
        assert_eq!(cats.len(), AI_CATEGORIES.len());
        assert!(cats.iter().all(|(_, n)| *n > 0), "{cats:?}");
        let total: usize = cats.iter().map(|(_, n)| n).sum();
        assert_eq!(total, ai_agents().len());
        let scrapers = ai_agent_tokens(Some("data-scrapers")).unwrap();
        assert!(!scrapers.is_empty());
        let all = ai_agent_tokens(None).unwrap();
        assert!(scrapers.iter().all(|t| all.contains(t)));
        assert!(ai_agent_tokens(Some("no-such-category")).is_none());
        assert!(ai_agent_tokens(Some("data-scraper")).is_none());
    }

    #[test]
    fn every_scraper_is_a_data_scraper() {
        // The list names some scrapers by group and describes the rest:
        // all of them are one category, and the text is kept as written.
        let of = |name: &str| {
            ai_agents().iter().find(|a| a.name == name).unwrap().clone()
        };
        for name in ["GPTBot", "ClaudeBot", "Bytespider", "Google-Extended"] {
            assert_eq!(of(name).category, "data-scrapers", "{name}");
        }
        assert_eq!(
            of("GPTBot").function,
            "Scrapes data to train OpenAI's products."
        );
        assert_eq!(of("CCBot").category, "data-providers");
        assert_eq!(of("OAI-SearchBot").category, "search-crawlers");
        assert_eq!(of("OpenAI").category, "undocumented");
        let scrapers = ai_agent_tokens(Some("data-scrapers")).unwrap();
        for token in ["GPTBot", "ClaudeBot", "Bytespider", "GoogleOther"] {
            assert!(scrapers.contains(&token), "{token}");
        }
    }

    #[test]
    fn a_bad_list_is_an_error() {
        assert!(parse_list("[1, 2]").is_err());
        assert!(parse_list("{\"A\": 1}").unwrap()[0].category == "other");
    }
}
