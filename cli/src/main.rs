//! `clair`: the CLAIR-Fin method on the command line, over the same core as the web app.
//!
//! Subcommands and their JSON shapes are stable contracts (README "CLI contracts"):
//! `extract`, `tables`, `ingest`, `search`, `ask`, `eval`, `ragas`.

mod args;
mod cmd_ask;
mod cmd_eval;
mod cmd_extract;
mod cmd_index;
mod http;
mod store;
mod store_http;
mod vision;

use std::process::ExitCode;

/// Reading a PDF allocates and frees small objects by the million (hayro's operand vectors, glyph
/// runs); mimalloc takes a fifth off glibc's time for that (docs/extraction.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage:
  clair extract PDF [--json]
  clair tables PDF [--json]
  clair ingest PDF... -o CORPUS [--embedder offline|api] [--vision off|flagged|all [--vision-pages 3,7] [--estimate]]
  clair ingest PDF... --store milvus://HOST:PORT/COLLECTION [--token T] [--replace]
  clair search CORPUS QUERY [--k K] [--modality text|table|chart] [--json]
  clair search --store milvus://HOST:PORT/COLLECTION QUERY [--token T] [--k K] [--modality M] [--json]
  clair ask CORPUS QUESTION [--json] [--config SETTINGS.toml] [--base-url URL] [--model NAME]
  clair ask --store milvus://HOST:PORT/COLLECTION QUESTION [--token T] [--json] …
  clair eval DATASET --out DIR [--config NAME|SETTINGS.toml]... [--limit N] [--base-url URL] [--model NAME]
  clair eval DATASET --out DIR --store milvus://HOST:PORT/COLLECTION [--token T] …
  clair ragas SAMPLES.jsonl [--base-url URL] [--model NAME] [--embedder offline|api [--dims N]]

Model endpoint: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY,
CLAIR_CHAT_MODEL, CLAIR_VISION_MODEL, CLAIR_EMBEDDING_MODEL; flags override.
A Milvus library's token: --token or CLAIR_MILVUS_TOKEN (scripts/milvus.sh serves one locally).
PDF pages are read on every core; CLAIR_THREADS=N limits that (1 reads on one thread).";

/// Threads to read a PDF's pages on: `CLAIR_THREADS` when it is a positive number, else every core
/// the process may use. The output does not depend on it.
pub(crate) fn reading_threads() -> usize {
    std::env::var("CLAIR_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn main() -> ExitCode {
    quiet_on_a_closed_pipe();
    no_transparent_huge_pages();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = argv.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match cmd.as_str() {
        "extract" => cmd_extract::extract(rest),
        "tables" => cmd_extract::tables(rest),
        "ingest" => cmd_index::ingest(rest),
        "search" => cmd_index::search(rest),
        "ask" => cmd_ask::ask(rest),
        "eval" => cmd_eval::eval(rest),
        "ragas" => cmd_eval::ragas_samples(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clair: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `clair tables x.pdf | head` closes the pipe early: like any Unix tool, stop quietly there
/// (SIGPIPE's default action) rather than panic in `println!` on the broken pipe, which Rust's
/// runtime would make of it by ignoring the signal.
fn quiet_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// mimalloc asks Linux for transparent huge pages on its arenas (`madvise(MADV_HUGEPAGE)`), and the
/// kernel then zeroes 2 MiB on the first touch of each: a quarter of one thread's time on eight
/// FinanceBench 10-Ks (perf: `clear_page_erms` under `mi_page_free_list_extend`), since a page's
/// glyphs and boxes are many small, short-lived allocations. A `clair` run lives for a fraction of
/// a second; ordinary 4 KiB pages cost it far less (docs/extraction.md, "Huge pages"). This comes
/// too late for mimalloc's first arena (Rust's runtime allocates before `main`), so mimalloc is
/// also built without its `madvise` (feature `no_thp`, cli/Cargo.toml).
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_THP_DISABLE, 1) only sets a flag on this process's memory map; it takes
    // no pointers. A kernel without it returns an error, which leaves the default in place.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            1 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        );
    }
}
