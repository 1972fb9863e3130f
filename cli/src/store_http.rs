//! One Milvus REST request sent with ureq, blocking: the CLI's store transport (`crate::store`) and
//! the scale test (`cli/tests/milvus_scale.rs`, which includes this file) send core's requests the
//! same way.

use clair_core::retrieve::milvus::{Method, Reply, Request};

pub fn send_blocking(agent: &ureq::Agent, req: Request) -> Result<Reply, String> {
    let mut r = match req.method {
        Method::Get => agent.get(&req.url),
        Method::Post => agent.post(&req.url),
    };
    for (k, v) in &req.headers {
        r = r.set(k, v);
    }
    let res = match &req.body {
        Some(b) => r.send_string(b),
        None => r.call(),
    };
    match res {
        Ok(resp) | Err(ureq::Error::Status(_, resp)) => {
            // Not `into_string`: it refuses replies over 10 MB, and a search over a large pool
            // returns whole documents.
            let status = resp.status();
            let mut body = String::new();
            std::io::Read::read_to_string(&mut resp.into_reader(), &mut body).map_err(|e| e.to_string())?;
            Ok(Reply { status, body })
        }
        Err(ureq::Error::Transport(t)) => Err(t.to_string()),
    }
}

