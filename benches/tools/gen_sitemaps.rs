//! Writes a sitemap set for `scripts/bench-sitemaps`: gzip-compressed
//! `urlset` files of 50,000 URLs each (the protocol's maximum), until they
//! hold `MB` megabytes of XML, and a `sitemap_index.xml` listing them.
//!
//! Usage: `gen_sitemaps DIR MB`
//!
//! The URLs are those of one site (`https://www.example.com/`), in a few
//! dozen sections with a page number and, for one in four, a query, each
//! with a `<lastmod>`, a `<changefreq>` and a `<priority>` as site
//! generators write them. The same arguments always give the same files.
//! Prints the number of files, URLs and XML bytes.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;

const URLS_PER_FILE: usize = 50_000;

const SECTIONS: [&str; 8] =
    ["docs", "blog", "private", "products", "help", "news", "search", "tags"];

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        anyhow::bail!("usage: gen_sitemaps DIR MB");
    }
    let dir = PathBuf::from(&args[1]);
    let target: u64 = args[2].parse::<u64>().context("MB")? * 1_000_000;
    std::fs::create_dir_all(&dir)?;
    let (mut bytes, mut urls, mut files) = (0u64, 0u64, 0usize);
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex \
         xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    while bytes < target {
        files += 1;
        let name = format!("sitemap-{files:04}.xml.gz");
        let mut xml = String::with_capacity(URLS_PER_FILE * 200);
        xml.push_str(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset \
             xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for i in 0..URLS_PER_FILE {
            // xorshift: a fixed sequence, no dependency.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let section = SECTIONS[(seed % 8) as usize];
            let page = (files * URLS_PER_FILE + i) as u64;
            let query = match seed >> 60 {
                0..=3 => {
                    format!("?ref={}&amp;p={}", seed % 97, (seed >> 8) % 50)
                }
                _ => String::new(),
            };
            let day = 1 + (seed >> 20) % 28;
            let month = 1 + (seed >> 30) % 12;
            xml.push_str(&format!(
                "  <url>\n    <loc>https://www.example.com/{section}/page-{page}.html{query}</loc>\n    \
                 <lastmod>2025-{month:02}-{day:02}</lastmod>\n    \
                 <changefreq>weekly</changefreq>\n    <priority>0.{}</priority>\n  </url>\n",
                1 + seed % 9
            ));
        }
        xml.push_str("</urlset>\n");
        let mut gz = flate2::write::GzEncoder::new(
            std::fs::File::create(dir.join(&name))?,
            flate2::Compression::new(6),
        );
        gz.write_all(xml.as_bytes())?;
        gz.finish()?;
        bytes += xml.len() as u64;
        urls += URLS_PER_FILE as u64;
        index.push_str(&format!(
            "  <sitemap><loc>https://www.example.com/{name}</loc></sitemap>\n"
        ));
    }
    index.push_str("</sitemapindex>\n");
    std::fs::write(dir.join("sitemap_index.xml"), &index)?;
    println!("files={files} urls={urls} xml_bytes={bytes}");
    Ok(())
}
