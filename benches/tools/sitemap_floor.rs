//! The floor of `scripts/bench-sitemaps`: the sitemap files given read with
//! the XML crate alone, as robots-batch reads them (gzip decompressed by
//! flate2, parsed by quick-xml from a buffered reader, every `<loc>`'s
//! text and references taken), without judging or writing anything.
//!
//! Usage: `sitemap_floor FILE...`
//!
//! Prints the number of `<loc>`s and the bytes of their texts, which the
//! script checks against robots-batch's count of rows.

use std::io::BufReader;

use quick_xml::events::Event;
use quick_xml::Reader;

fn main() -> anyhow::Result<()> {
    let (mut locs, mut text_bytes) = (0u64, 0u64);
    let mut buf = vec![];
    let mut loc = String::new();
    for path in std::env::args().skip(1) {
        let file = std::fs::File::open(&path)?;
        let gz = flate2::bufread::MultiGzDecoder::new(BufReader::new(file));
        let mut reader =
            Reader::from_reader(BufReader::with_capacity(1 << 16, gz));
        let mut in_loc = false;
        loop {
            buf.clear();
            match reader.read_event_into(&mut buf)? {
                Event::Start(e) if e.local_name().as_ref() == "loc" => {
                    in_loc = true;
                    loc.clear();
                }
                Event::End(e) if e.local_name().as_ref() == "loc" => {
                    in_loc = false;
                    locs += 1;
                    text_bytes += loc.trim().len() as u64;
                }
                Event::Text(t) if in_loc => loc.push_str(&t.xml10_content()),
                Event::GeneralRef(r) if in_loc => {
                    loc.push_str(if &*r.xml10_content() == "amp" {
                        "&"
                    } else {
                        "?"
                    })
                }
                Event::Eof => break,
                _ => {}
            }
        }
    }
    println!("locs={locs} text_bytes={text_bytes}");
    Ok(())
}
