//! Phase I ingestion (paper §3.2, spec §4): PDF → pages → positioned glyphs → words, lines, blocks in
//! reading order → tables → chunks and corpus documents with deterministic ids.
