//! Fetching beacon rounds from a drand relay over HTTPS, for games that take
//! their dice from a beacon (docs/DICE.md, "Protocol version 2"). The only
//! network the daemon has besides mail; what it fetches is verified by
//! `game::beacon` before anything uses it, so a relay can delay a step but
//! never choose its dice.

use crate::dice::beacon::Chain;
use crate::server::Server;
use std::time::Duration;

/// A round's JSON is a few hundred bytes.
const MAX_BODY: u64 = 4096;

/// Fetch every round an open step needs and that is published by `now`,
/// from `relay` (for example `https://api.drand.sh`), and log what happened.
pub fn fetch_due(
    server: &mut Server,
    relay: &str,
    now: i64,
    timeout: Duration,
) -> anyhow::Result<()> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into();
    let relay = relay.trim_end_matches('/');
    let mut fetch = |chain: &Chain, round: u64| -> anyhow::Result<Option<String>> {
        let url = format!("{relay}/{}/public/{round}", chain.hash);
        let mut resp = agent.get(&url).call()?;
        match resp.status().as_u16() {
            200 => Ok(Some(
                resp.body_mut()
                    .with_config()
                    .limit(MAX_BODY)
                    .read_to_string()?,
            )),
            // Not published yet, or the relay is behind: ask again next batch.
            404 | 425 => Ok(None),
            code => anyhow::bail!("{url} answered HTTP {code}"),
        }
    };
    for line in server.fetch_beacon_rounds(now, &mut fetch)? {
        tracing::info!(beacon = %line, "beacon round");
    }
    Ok(())
}
