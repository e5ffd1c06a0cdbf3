//! Club campaigns: armies that march on a strategic map a day at a time,
//! battles made from the ledger and fought as games of any ruleset, and
//! their losses carried back. Pure, like a ruleset: the ledger is a
//! function of the campaign file, each day's orders, the battles' ends and
//! the dice. See `docs/CAMPAIGNS.md`.

pub mod battle;
pub mod day;
pub mod file;
pub mod fog;
pub mod map;
pub mod orders;
pub mod state;
pub mod trial;

#[cfg(test)]
mod tests;

pub use file::CampaignFile;
pub use state::Ledger;
