//! Built-in lists of agents, for audits of many crawlers at once.

/// A crawler in a built-in list: its product token and who runs it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct KnownAgent {
    /// The product token the crawler's operator documents for robots.txt.
    pub token: &'static str,
    /// Who runs it, and what it is for.
    pub about: &'static str,
}

/// The product tokens of well-known AI crawlers and AI-use controls, as
/// their operators documented them in 2025: the `--agents ai` list.
///
/// Every entry is a valid RFC 9309 product token (letters, `-` and `_`),
/// so it can name a group. Tokens that are not valid product tokens are
/// left out, because under RFC 9309 no group can name them: a group
/// `User-agent: AI2Bot` (Allen Institute) is read as the token `AI`, and
/// `Kangaroo Bot` as `Kangaroo`. Lists of AI crawlers age fast; give your
/// own with `--agents-file` to audit others.
pub const AI_CRAWLERS: &[KnownAgent] = &[
    KnownAgent { token: "GPTBot", about: "OpenAI, model training" },
    KnownAgent { token: "OAI-SearchBot", about: "OpenAI, ChatGPT search" },
    KnownAgent { token: "ChatGPT-User", about: "OpenAI, fetches for users" },
    KnownAgent { token: "ClaudeBot", about: "Anthropic, model training" },
    KnownAgent { token: "Claude-SearchBot", about: "Anthropic, search" },
    KnownAgent { token: "Claude-User", about: "Anthropic, fetches for users" },
    KnownAgent { token: "anthropic-ai", about: "Anthropic, older token" },
    KnownAgent { token: "Claude-Web", about: "Anthropic, older token" },
    KnownAgent {
        token: "Google-Extended",
        about: "Google, use in Gemini training and grounding (no crawler \
                of its own: Googlebot fetches)",
    },
    KnownAgent { token: "GoogleOther", about: "Google, research crawls" },
    KnownAgent {
        token: "Applebot-Extended",
        about: "Apple, use in model training (Applebot fetches)",
    },
    KnownAgent {
        token: "CCBot",
        about: "Common Crawl, an open crawl many models train on",
    },
    KnownAgent { token: "PerplexityBot", about: "Perplexity, search index" },
    KnownAgent {
        token: "Perplexity-User",
        about: "Perplexity, fetches for users",
    },
    KnownAgent { token: "Bytespider", about: "ByteDance, model training" },
    KnownAgent { token: "Amazonbot", about: "Amazon, Alexa and models" },
    KnownAgent { token: "meta-externalagent", about: "Meta, model training" },
    KnownAgent {
        token: "meta-externalfetcher",
        about: "Meta, fetches for users",
    },
    KnownAgent { token: "FacebookBot", about: "Meta, older training token" },
    KnownAgent { token: "cohere-ai", about: "Cohere, fetches for users" },
    KnownAgent {
        token: "cohere-training-data-crawler",
        about: "Cohere, model training",
    },
    KnownAgent {
        token: "MistralAI-User",
        about: "Mistral, fetches for users",
    },
    KnownAgent { token: "DuckAssistBot", about: "DuckDuckGo, AI answers" },
    KnownAgent { token: "YouBot", about: "You.com, AI search" },
    KnownAgent { token: "Diffbot", about: "Diffbot, knowledge graph" },
    KnownAgent { token: "Timpibot", about: "Timpi, search index" },
    KnownAgent { token: "omgili", about: "Webz.io, data sold for training" },
    KnownAgent { token: "omgilibot", about: "Webz.io, older token" },
    KnownAgent { token: "Webzio-Extended", about: "Webz.io, AI-use control" },
    KnownAgent { token: "ImagesiftBot", about: "ImageSift, image index" },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::is_valid_product_token;

    #[test]
    fn ai_crawlers_are_product_tokens_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for agent in AI_CRAWLERS {
            assert!(is_valid_product_token(agent.token), "{agent:?}");
            assert!(seen.insert(agent.token.to_ascii_lowercase()));
        }
    }
}
