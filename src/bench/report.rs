//! The benchmark's table: rows in sections, printed as text or markdown,
//! with the machine and the command that reproduces it.

use std::fmt::Write;

/// One figure.
pub struct Row {
    pub section: String,
    pub what: String,
    pub figure: String,
    pub note: String,
}

/// Every figure of a run.
#[derive(Default)]
pub struct Report {
    pub rows: Vec<Row>,
}

impl Report {
    pub fn add(
        &mut self,
        section: impl Into<String>,
        what: impl Into<String>,
        figure: impl Into<String>,
        note: impl Into<String>,
    ) {
        let row = Row {
            section: section.into(),
            what: what.into(),
            figure: figure.into(),
            note: note.into(),
        };
        println!(
            "{:<12} {:<58} {:>22}  {}",
            row.section, row.what, row.figure, row.note
        );
        self.rows.push(row);
    }

    /// The report as markdown tables, one per section, in first-seen order.
    pub fn markdown(&self, machine: &Machine, command: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# Performance\n");
        let _ = writeln!(
            out,
            "Figures printed by Galloper itself (`galloper bench`, `src/bench/`). Reproduce them with:\n\n```\n{command}\n```\n"
        );
        let _ = writeln!(
            out,
            "Machine: {} ({} cores seen by `nproc`), {}; commit `{}`; {} build.\n",
            machine.cpu, machine.cores, machine.os, machine.commit, machine.profile
        );
        let mut sections: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !sections.contains(&r.section.as_str()) {
                sections.push(&r.section);
            }
        }
        for s in sections {
            let _ = writeln!(out, "## {s}\n\n| measure | figure | note |\n|---|---:|---|");
            for r in self.rows.iter().filter(|r| r.section == s) {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} |",
                    r.what.replace('|', "/"),
                    r.figure,
                    r.note.replace('|', "/")
                );
            }
            out.push('\n');
        }
        out
    }
}

const BEGIN: &str = "<!-- bench:begin -->";
const END: &str = "<!-- bench:end -->";

/// The file's text with the run's markdown put between its bench markers,
/// so that words written around the tables survive a new run; the markdown
/// alone, between markers, when the file has none.
pub fn splice(old: &str, generated: &str) -> String {
    let block = format!("{BEGIN}\n{generated}{END}\n");
    match (old.find(BEGIN), old.find(END)) {
        (Some(a), Some(b)) if a < b => {
            format!(
                "{}{block}{}",
                &old[..a],
                old[b + END.len()..].trim_start_matches('\n')
            )
        }
        _ => block,
    }
}

/// What the figures were measured on.
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub os: String,
    pub commit: String,
    pub profile: &'static str,
}

impl Machine {
    /// Read at the edge: /proc, the OS and git, each optional.
    pub fn here() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("model name"))
                    .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
            })
            .unwrap_or_else(|| "unknown CPU".into());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let commit = std::process::Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown".into());
        Machine {
            cpu,
            cores,
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            commit,
            profile: if cfg!(debug_assertions) {
                "debug (dev profile)"
            } else {
                "release"
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_replaces_only_what_lies_between_the_markers() {
        let old = format!("# Notes\nkept\n{BEGIN}\nold table\n{END}\nafter\n");
        let new = splice(&old, "new table\n");
        assert_eq!(
            new,
            format!("# Notes\nkept\n{BEGIN}\nnew table\n{END}\nafter\n")
        );
        assert_eq!(splice("", "t\n"), format!("{BEGIN}\nt\n{END}\n"));
    }
}
