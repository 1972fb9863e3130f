//! Minimal argument parsing shared by the subcommands: positionals, `--flag`, `--key value`.

pub struct Args {
    pub positional: Vec<String>,
    pub flags: Vec<(String, Option<String>)>,
}

/// Options that take a value; everything else starting with `--` is a boolean flag.
const VALUED: &[&str] = &["--k", "--modality", "-o", "--out", "--config", "--base-url", "--model", "--embedder", "--dims", "--vision", "--vision-pages", "--store", "--token", "--static-weight", "--static-table"];

impl Args {
    pub fn parse(raw: &[String]) -> Result<Args, String> {
        let mut positional = vec![];
        let mut flags = vec![];
        let mut it = raw.iter();
        while let Some(a) = it.next() {
            if VALUED.contains(&a.as_str()) {
                let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
                flags.push((a.clone(), Some(v.clone())));
            } else if a.starts_with("--") {
                flags.push((a.clone(), None));
            } else {
                positional.push(a.clone());
            }
        }
        Ok(Args { positional, flags })
    }
    pub fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(k, _)| k == name)
    }
    pub fn value(&self, name: &str) -> Option<&str> {
        self.flags.iter().find(|(k, _)| k == name).and_then(|(_, v)| v.as_deref())
    }
}
