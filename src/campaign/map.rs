//! The strategic map as a graph: which areas a road joins, and how many
//! roads apart two areas are.

use super::file::{CampaignFile, Road};
use crate::muster::TableEdge;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

pub struct Map<'a> {
    /// For each area, its neighbours in name order, with the road.
    next: BTreeMap<&'a str, BTreeMap<&'a str, &'a Road>>,
}

impl<'a> Map<'a> {
    pub fn new(file: &'a CampaignFile) -> Self {
        let mut next: BTreeMap<&str, BTreeMap<&str, &Road>> = file
            .areas
            .iter()
            .map(|a| (a.id.as_str(), BTreeMap::new()))
            .collect();
        for r in &file.roads {
            let [a, b] = &r.between;
            next.entry(a).or_default().insert(b, r);
            next.entry(b).or_default().insert(a, r);
        }
        Map { next }
    }

    pub fn road(&self, from: &str, to: &str) -> Option<&'a Road> {
        self.next.get(from)?.get(to).copied()
    }

    /// The areas a road joins to `area`, in name order.
    pub fn next_to(&self, area: &str) -> impl Iterator<Item = (&'a str, &'a Road)> + '_ {
        self.next
            .get(area)
            .into_iter()
            .flat_map(|m| m.iter().map(|(a, r)| (*a, *r)))
    }

    /// The table edge an army coming from `from` enters a battle at `to` by.
    pub fn edge_into(&self, from: &str, to: &str) -> Option<TableEdge> {
        let r = self.road(from, to)?;
        Some(if r.between[1] == to {
            r.edges[1]
        } else {
            r.edges[0]
        })
    }

    /// The areas at most `roads` roads from any of `from`.
    pub fn within(&self, from: &[&str], roads: u32) -> BTreeSet<&'a str> {
        let mut seen: BTreeSet<&'a str> = BTreeSet::new();
        let mut queue: VecDeque<(&'a str, u32)> = VecDeque::new();
        for f in from {
            if let Some((&k, _)) = self.next.get_key_value(*f)
                && seen.insert(k)
            {
                queue.push_back((k, 0));
            }
        }
        while let Some((a, d)) = queue.pop_front() {
            if d == roads {
                continue;
            }
            for (b, _) in self.next_to(a) {
                if seen.insert(b) {
                    queue.push_back((b, d + 1));
                }
            }
        }
        seen
    }
}
