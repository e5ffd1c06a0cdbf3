//! The command line: parse arguments, call the library, say what happened.

use crate::audit;
use crate::envelope;
use crate::rulesets;
use crate::server::{PlayerSpec, Server};
use crate::side::SideId;
use crate::sig;
use anyhow::{Context, anyhow, bail};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "galloper",
    version,
    about = "Play-by-email turn processor for horse-and-musket wargames"
)]
struct Cli {
    /// The server's data folder (database, server key, archive).
    #[arg(
        long,
        global = true,
        default_value = "galloper-data",
        env = "GALLOPER_DATA"
    )]
    data: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write a new OpenSSH ed25519 key pair (FILE and FILE.pub).
    Keygen {
        file: PathBuf,
        #[arg(long, default_value = "galloper-player")]
        comment: String,
    },
    /// Create a game from a scenario, with one player per side.
    New {
        /// Scenario YAML file.
        scenario: PathBuf,
        /// Game id: lowercase letters, digits and dashes.
        #[arg(long)]
        game: String,
        /// SIDE:EMAIL:PUBLIC_KEY_FILE, once per side.
        #[arg(long = "player", required = true)]
        players: Vec<String>,
        /// SIDE:ZONE, a player's IANA time zone (e.g. french:Europe/Paris):
        /// his reports and replies show times in it, with UTC beside.
        /// Default: the schedule's zone (UTC without one).
        #[arg(long = "zone")]
        zones: Vec<String>,
        /// Whose table edge is at the bottom of each side's map: `first`
        /// (the first side's, on every map) or `own` (each side's own;
        /// text stays upright).
        #[arg(long = "map-edge", default_value = "first")]
        map_edge: String,
        /// The game's deadlines and missed-orders policy (YAML, see
        /// deploy/schedule.yaml); without it steps wait for every side.
        #[arg(long)]
        schedule: Option<PathBuf>,
        /// Mix a public randomness beacon into every step's dice (protocol
        /// version 2, docs/DICE.md): `quicknet`, drand's 3-second chain.
        /// Needs --schedule: each step's round is the first after its deadline.
        #[arg(long, requires = "schedule")]
        beacon: Option<String>,
    },
    /// Beacon rounds for games that take their dice from a beacon.
    Beacon {
        #[command(subcommand)]
        command: BeaconCommand,
    },
    /// Show games, their open step and who owes orders.
    Status { game: Option<String> },
    /// Orders files.
    Orders {
        #[command(subcommand)]
        command: OrdersCommand,
    },
    /// Fill in fresh entropy (and the notice and revision when missing) and
    /// sign an orders file, writing FILE.sig.
    Sign {
        file: PathBuf,
        /// The player's OpenSSH private key.
        #[arg(long)]
        key: PathBuf,
        /// The notice of the step the orders answer (step-NNNN/notice.yaml
        /// of the game's archive): fills in the file's `notice:` line, or
        /// checks it.
        #[arg(long)]
        notice: Option<PathBuf>,
        /// Keep the entropy already in the file.
        #[arg(long)]
        keep_entropy: bool,
    },
    /// Put a signed orders file straight into the store (as the mail intake does).
    Submit {
        file: PathBuf,
        /// The signature; FILE.sig by default.
        #[arg(long)]
        sig: Option<PathBuf>,
    },
    /// One batch: with --config, read the club's Maildir, answer every
    /// message, resolve every ready step and send due mail; without, resolve
    /// every step that has all its orders and write reports to --outbox.
    Process {
        #[arg(long, default_value = "galloper-outbox")]
        outbox: PathBuf,
        /// The daemon's configuration file (see deploy/galloper.yaml).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Run the daemon: batches every poll interval until SIGTERM.
    Serve {
        /// The daemon's configuration file (see deploy/galloper.yaml).
        #[arg(long)]
        config: PathBuf,
    },
    /// Render a reader's report of a resolved step again (HTML, text, PNG), the umpire's by default.
    Render {
        game: String,
        /// The resolved step; the last one when absent.
        #[arg(long)]
        step: Option<u32>,
        /// A side, `public`, or `umpire` (who sees every hand).
        #[arg(long, default_value = "umpire")]
        reader: String,
        #[arg(long)]
        out: PathBuf,
    },
    /// Apply a game master's command file (the format mailed to the club:
    /// pause, resume, extend, replace_address, replace_key, preview,
    /// rollback, end; docs/MAIL.md) to the data folder, without a signature:
    /// running galloper on the data folder is the game master's authority.
    Gm {
        file: PathBuf,
        /// The daemon's configuration: the players' notices (paused,
        /// deadline moved, ...) are then queued for the daemon to mail.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Where a preview's report is written.
        #[arg(long, default_value = "galloper-preview")]
        out: PathBuf,
    },
    /// Check a public archive: signatures, commitments, every die, and after the game a full replay.
    ///
    /// Exit status: 0 when the audit passed on a game that is over (its
    /// signed end, its sealed secrets and orders checked and the whole game
    /// replayed); 3 when it passed so far on a game in progress (what is
    /// public checks; hidden dice and orders stay sealed until the end);
    /// 1 when it failed (the first failure is printed); 2 for a command
    /// line that cannot be read.
    Audit {
        dir: PathBuf,
        /// The server key you trust, as its fingerprint (`SHA256:...`, as
        /// `galloper` and the reports print it) or a file holding its
        /// public key line: an archive signed by any other key is refused,
        /// however consistent (a forger can re-sign every file with his own).
        #[arg(long, value_name = "FINGERPRINT|KEYFILE")]
        server_key: Option<String>,
    },
    /// Write a static site of games: an index and one page per game that
    /// replays it step by step and audits every public die in the browser.
    /// Works from file:// and from any static host.
    Site {
        /// Game archives (DATA/archive/GAME), one or more.
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        /// The folder to write the site into.
        #[arg(long)]
        out: PathBuf,
        /// The club's server key, pinned for every game of the site: its
        /// fingerprint (`SHA256:...`, as `galloper` and the reports print
        /// it), its public key line (`ssh-ed25519 ...`) or a file holding
        /// that line. `galloper audit` runs with the pin when the site is
        /// made; each page shows the pinned fingerprint beside its verdict,
        /// and its own audit refuses an archive signed by any other key.
        /// Without it a page can only show which key signed, for the reader
        /// to compare with the one the club publishes.
        #[arg(long, value_name = "FINGERPRINT|KEY|KEYFILE")]
        server_key: Option<String>,
        /// The club's name, for the index's title (none when not given).
        #[arg(long, value_name = "NAME")]
        club: Option<String>,
    },
    /// Print a JSON Schema.
    Schema {
        #[command(subcommand)]
        what: SchemaWhat,
    },
    /// Sandbox: resolve one step of a scenario with given orders and dice, touching no store.
    #[command(after_long_help = crate::sandbox::DICE_ORDER)]
    Resolve(crate::sandbox::ResolveArgs),
    /// Play a whole demonstration game, audit it, and leave everything in a folder.
    Demo(crate::demo::DemoArgs),
    /// Measure this machine: each step's phases, audit, intake, scaling, ratios.
    Bench(crate::bench::BenchArgs),
    /// Campaigns (docs/CAMPAIGNS.md).
    Campaign {
        #[command(subcommand)]
        what: CampaignWhat,
    },
}

#[derive(Subcommand)]
enum CampaignWhat {
    /// Read a campaign file and its battlefields, and muster once every
    /// battle its map could give, before the campaign begins.
    Check { file: PathBuf },
}

#[derive(Subcommand)]
enum BeaconCommand {
    /// Verify a round and put it in the server's round folder
    /// (DATA/beacon/CHAIN/ROUND.json), where a waiting step finds it. Copy
    /// ROUND and SIGNATURE from the chain's relay, e.g.
    /// https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/ROUND
    Add {
        round: u64,
        /// The round's signature, hex.
        signature: String,
        #[arg(long, default_value = "quicknet")]
        chain: String,
    },
}

#[derive(Subcommand)]
enum OrdersCommand {
    /// Print a ready orders file for a side's next step.
    Template { game: String, side: String },
    /// Write the orders page of a side's next step: one HTML file, opened
    /// from disk in any browser, where the player draws his orders on the
    /// map and signs them with nothing installed (docs/ORDERS-PAGE.md).
    Page {
        game: String,
        side: String,
        /// Where to write it.
        #[arg(long, default_value = "orders.html")]
        out: PathBuf,
    },
    /// Check an orders file against the open step as the server would
    /// (format, game, step, notice, revision, the rules; the signature when
    /// FILE.sig is beside it), storing nothing.
    Check {
        file: PathBuf,
        /// The signature; FILE.sig by default, when it exists.
        #[arg(long)]
        sig: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum SchemaWhat {
    /// A ruleset's whole orders file (envelope and `orders:`), the schema
    /// each template's `yaml-language-server` modeline names.
    Orders {
        #[arg(long)]
        ruleset: String,
    },
}

/// Run the command line; the exit code says how it went.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The daemon says what it does (a line per message and per step) without
    // RUST_LOG; the player's commands stay quiet but for warnings.
    let daemon = matches!(
        cli.command,
        Command::Serve { .. }
            | Command::Process {
                config: Some(_),
                ..
            }
    );
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        // tiny-skia warns once for each outline it gives up stroking: by the
        // thousand on a map of 1000 units a side, flooding the log. The rest
        // of the map is drawn.
        tracing_subscriber::EnvFilter::new(if daemon {
            "warn,galloper=info,tiny_skia=error"
        } else {
            "warn,tiny_skia=error"
        })
    });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(log_colours(
            std::io::IsTerminal::is_terminal(&std::io::stderr()),
            std::env::var_os("NO_COLOR").as_deref(),
        ))
        .with_writer(std::io::stderr)
        .try_init();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether the log may carry colour codes: only on a terminal, and never
/// when `NO_COLOR` is set to anything but empty (no-color.org): a journal
/// or a cron mail would show them as noise.
fn log_colours(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Keygen { file, comment } => {
            refuse_existing_key(&file)?;
            let k = sig::keygen(&comment)?;
            crate::files::write_key(&file, &k)?;
            println!(
                "wrote {} and {}.pub ({})",
                file.display(),
                file.display(),
                sig::fingerprint(&k.public_line)?
            );
        }
        Command::New {
            scenario,
            game,
            players,
            zones,
            map_edge,
            schedule,
            beacon,
        } => {
            let own_edge = match map_edge.as_str() {
                "own" => true,
                "first" => false,
                other => bail!("--map-edge is `first` or `own`, not {other:?}"),
            };
            let text = crate::scenario_check::read(&scenario)?;
            // Checked before the game exists, so a bad file creates nothing.
            let schedule = match &schedule {
                Some(p) => {
                    let y = std::fs::read_to_string(p)
                        .with_context(|| format!("cannot read the schedule {}", p.display()))?;
                    crate::server::schedule::Schedule::parse(&y)
                        .with_context(|| format!("the schedule {}", p.display()))?;
                    Some(y)
                }
                None => None,
            };
            let specs = players
                .iter()
                .map(|p| parse_player(p))
                .collect::<anyhow::Result<Vec<_>>>()?;
            // The scenario too, before the data folder is made.
            let rules = crate::server::ruleset_of_scenario(&text)?;
            rules.start(&text)?;
            // Told before the game is made, so the organiser may stop and
            // edit the file; nothing is refused.
            for w in rules.scenario_warnings(&text)? {
                eprintln!("warning: {w}");
            }
            let beacon = match &beacon {
                Some(name) => Some(crate::server::beacon::BeaconStart {
                    chain: crate::dice::beacon::chain(name).ok_or_else(|| {
                        anyhow!("unknown beacon {name:?}: the server knows quicknet")
                    })?,
                    now: unix_now(),
                }),
                None => None,
            };
            let zones = zones
                .iter()
                .map(|z| parse_zone(z, &specs))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let mut server = Server::open(&cli.data)?;
            server.new_game_with(&game, &text, &specs, schedule.as_deref(), beacon)?;
            for (side, zone) in &zones {
                server.set_zone(&game, side, zone)?;
            }
            if own_edge {
                server.store_mut().set_own_edge(&game)?;
            }
            println!(
                "game {game} created; archive in {}",
                server.archive_dir(&game).display()
            );
            println!(
                "each player's briefing (scenario, map with the deployment zones, first orders template, deadline) is mailed at the daemon's next batch (galloper serve or process --config)"
            );
            print_status(&server, Some(&game))?;
        }
        Command::Beacon {
            command:
                BeaconCommand::Add {
                    round,
                    signature,
                    chain,
                },
        } => {
            let server = Server::open(&cli.data)?;
            let path = server.add_beacon_round(&chain, round, &signature)?;
            println!(
                "{chain} round {round} verified; written to {}",
                path.display()
            );
        }
        Command::Status { game } => {
            // Read-only commands create nothing: no folder, no store, no key.
            let server = Server::open_existing(&cli.data)?;
            print_status(&server, game.as_deref())?;
        }
        Command::Orders {
            command: OrdersCommand::Check { file, sig },
        } => return check_orders(&cli.data, &file, sig),
        Command::Orders {
            command: OrdersCommand::Template { game, side },
        } => {
            let server = Server::open_existing(&cli.data)?;
            print!("{}", template(&server, &game, &SideId::new(side))?);
        }
        Command::Orders {
            command: OrdersCommand::Page { game, side, out },
        } => {
            let server = Server::open_existing(&cli.data)?;
            let side = SideId::new(side);
            let page = server.orders_page(&game, &side, &template(&server, &game, &side)?)?;
            std::fs::write(&out, page.as_bytes())
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!(
                "wrote {} ({} KB): open it in a browser, draw the orders of {side} for game {game} and sign them there",
                out.display(),
                page.len().div_ceil(1024)
            );
        }
        Command::Sign {
            file,
            key,
            notice,
            keep_entropy,
        } => {
            let private = std::fs::read_to_string(&key)
                .with_context(|| format!("cannot read the key {}", key.display()))?;
            let read = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let mut text = sign_fields(&cli.data, &file, &read, notice.as_deref())?;
            if !keep_entropy {
                text = envelope::with_entropy(&text, &envelope::fresh_entropy()?);
            }
            // A file the server cannot read would only come back refused:
            // say where and what to fix now, before anything is signed.
            let name = file
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("orders.yaml");
            if let Err(problem) = envelope::parse(name, text.as_bytes()) {
                anyhow::bail!("{problem}\nNothing was signed: fix the file and sign it again.");
            }
            if text != read {
                std::fs::write(&file, &text)?;
            }
            let signature = sig::sign(&private, sig::ORDERS_NAMESPACE, text.as_bytes())?;
            let sig_path = sig_path(&file);
            std::fs::write(&sig_path, signature)?;
            println!("signed {} -> {}", file.display(), sig_path.display());
        }
        Command::Submit { file, sig } => {
            let bytes =
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let sig_file = sig.unwrap_or_else(|| sig_path(&file));
            let signature = std::fs::read_to_string(&sig_file)
                .with_context(|| format!("cannot read the signature {} (sign the file first: galloper sign FILE --key KEY)", sig_file.display()))?;
            let mut server = Server::open_existing(&cli.data)?;
            let name = file
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("orders.yaml");
            match server.submit(name, &bytes, &signature) {
                Ok(r) => {
                    println!(
                        "accepted: {} step {} {} sha256 {}",
                        r.game, r.step, r.side, r.sha256
                    );
                    if let Some(old) = r.replaced {
                        println!("(replaces the orders sent earlier, sha256 {old})");
                    }
                }
                Err(e) => {
                    eprintln!("refused: {e}");
                    return Ok(ExitCode::from(1));
                }
            }
        }
        Command::Serve { config } => {
            let cfg = crate::daemon::config::Config::load(&config)?;
            crate::daemon::serve::serve(&cfg)?;
        }
        Command::Process {
            config: Some(config),
            ..
        } => {
            let cfg = crate::daemon::config::Config::load(&config)?;
            let mut server = crate::daemon::serve::open(&cfg)?;
            let stop = std::sync::atomic::AtomicBool::new(false);
            let b = crate::daemon::serve::batch(&mut server, &cfg, &stop)?;
            println!(
                "{} message(s), {} step(s) resolved, {} mail(s) sent, {} to retry, {} given up",
                b.messages, b.steps, b.sent.sent, b.sent.retrying, b.sent.failed
            );
            // The other games went on; cron reports a non-zero exit.
            if !b.stuck.is_empty() || b.failed_messages > 0 {
                eprintln!(
                    "failed: {} game(s) not processed ({}), {} message(s) left pending; the log says what to do",
                    b.stuck.len(),
                    b.stuck.join(", "),
                    b.failed_messages
                );
                return Ok(ExitCode::from(1));
            }
        }
        Command::Process {
            outbox,
            config: None,
        } => {
            let mut server = Server::open_existing(&cli.data)?;
            // A beacon game's next step takes its deadline from the time.
            server.see_time(unix_now());
            let processed = server.process_games(&outbox)?;
            let done = &processed.resolved;
            for r in done {
                println!(
                    "resolved {} step {} ({}){}",
                    r.game,
                    r.step,
                    r.heading,
                    if r.over { ": game over" } else { "" }
                );
            }
            for s in &processed.stuck {
                eprintln!("game {} not processed: {}\n  {}", s.game, s.error, s.advice);
            }
            if done.is_empty() && processed.stuck.is_empty() {
                println!("nothing to resolve");
            }
            if !processed.stuck.is_empty() {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Render {
            game,
            step,
            reader,
            out,
        } => {
            let server = Server::open_existing(&cli.data)?;
            let viewer = reader_of(&server, &game, &reader)?;
            let view = server.report(&game, step, &viewer)?;
            crate::server::report::write_view(&out, &view)?;
            // The template is the one this step's report carried: the
            // orders for the step after it, under that step's notice.
            let template = if view.orders_template.is_some() {
                ", orders-template.yaml (the orders this report asked for)"
            } else {
                ""
            };
            println!(
                "wrote {}: report.html, report.txt, map.png{template}",
                out.display()
            );
        }
        Command::Gm { file, config, out } => return gm_command(&cli.data, &file, config, &out),
        Command::Audit { dir, server_key } => match audit::audit_with(
            &dir,
            &audit::Options {
                server_key: server_key.map(|k| pinned_key(&k)).transpose()?,
            },
        ) {
            Ok(v) => {
                for l in &v.lines {
                    println!("{l}");
                }
                println!("{}", v.summary());
                if v.over.is_none() {
                    return Ok(ExitCode::from(AUDIT_PASSED_SO_FAR));
                }
            }
            Err(f) => {
                eprintln!("{f}");
                return Ok(ExitCode::from(1));
            }
        },
        Command::Site {
            archives,
            out,
            server_key,
            club,
        } => {
            let opts = crate::site::Options {
                server_key: server_key.map(|k| pinned_key(&k)).transpose()?,
                club: club.map(|c| c.trim().to_string()).filter(|c| !c.is_empty()),
            };
            let built = crate::site::build(&archives, &out, &opts)?;
            for (s, path) in &built.pages {
                println!(
                    "{}: {} ({} steps) -> {}",
                    s.game,
                    s.title,
                    s.steps,
                    path.display()
                );
            }
            println!("open {}", built.index.display());
        }
        Command::Schema {
            what: SchemaWhat::Orders { ruleset },
        } => {
            let r = rulesets::by_name(&ruleset).ok_or_else(|| {
                anyhow!(
                    "unknown ruleset {ruleset:?}; known: {}",
                    rulesets::names().join(", ")
                )
            })?;
            let schema = envelope::file_schema(r.name(), r.orders_schema());
            println!("{}", serde_json::to_string_pretty(&schema)?);
        }
        Command::Resolve(args) => crate::sandbox::run(&args)?,
        Command::Demo(args) => return crate::demo::run(&args),
        Command::Bench(args) => return crate::bench::run(&args),
        Command::Campaign {
            what: CampaignWhat::Check { file },
        } => return campaign_check(&file),
    }
    Ok(ExitCode::SUCCESS)
}

/// `galloper orders check FILE`: what the server would answer, nothing stored.
fn check_orders(data: &Path, file: &Path, sig: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let sig_file = sig.clone().unwrap_or_else(|| sig_path(file));
    let signature = match std::fs::read_to_string(&sig_file) {
        Ok(s) => Some(s),
        Err(_) if sig.is_none() => None,
        Err(e) => bail!("cannot read the signature {}: {e}", sig_file.display()),
    };
    let server = Server::open_existing(data)?;
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("orders.yaml");
    // A template not signed yet still holds the entropy placeholder: the
    // rules are checked all the same (with entropy drawn here, in memory),
    // and both answers given, so a player learns what the rules say before
    // he signs.
    let text = String::from_utf8_lossy(&bytes);
    let placeholder = signature.is_none()
        && text.lines().any(|l| {
            l.split('#').next().unwrap_or("").trim()
                == format!("entropy: {}", envelope::ENTROPY_PLACEHOLDER)
        });
    if placeholder {
        let filled = envelope::with_entropy(&text, &envelope::fresh_entropy()?);
        let still = format!(
            "still to do: the `entropy:` line is the template's placeholder: {}",
            envelope::ENTROPY_HOW
        );
        return Ok(match server.check_orders(name, filled.as_bytes(), None) {
            Ok(r) => {
                println!(
                    "the rules take these orders for {} step {} {}; {still}; then sign the file; nothing was stored",
                    r.game, r.step, r.side
                );
                ExitCode::from(1)
            }
            Err(e) => {
                eprintln!(
                    "would be refused: {e}
and {still}"
                );
                ExitCode::from(1)
            }
        });
    }
    match server.check_orders(name, &bytes, signature.as_deref()) {
        Ok(r) => {
            if signature.is_some() {
                println!(
                    "would be accepted: {} step {} {} sha256 {} (checked only: nothing was stored; send it or `galloper submit` it)",
                    r.game, r.step, r.side, r.sha256
                );
            } else {
                println!(
                    "in order for {} step {} {} but not signed: sign it (`galloper sign FILE --key KEY` or `ssh-keygen -Y sign -n galloper-orders -f KEY FILE`) and check again with FILE.sig beside it; nothing was stored",
                    r.game, r.step, r.side
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("would be refused: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `galloper gm FILE`: a command file applied locally.
fn gm_command(
    data: &Path,
    file: &Path,
    config: Option<PathBuf>,
    out: &Path,
) -> anyhow::Result<ExitCode> {
    use crate::server::admin::GameMaster;
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let (mut server, gm_email) = match &config {
        Some(c) => {
            let cfg = crate::daemon::config::Config::load(c)?;
            (crate::daemon::serve::open(&cfg)?, cfg.game_master.clone())
        }
        None => (Server::open_existing(data)?, None),
    };
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("command.yaml");
    let issued = match server.check_local_command(name, &bytes, unix_now()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("refused: {e}; nothing was changed");
            return Ok(ExitCode::from(1));
        }
    };
    // Without a mailbox to send it to, a preview is written to a folder.
    if issued.file.command == crate::server::command::Command::Preview && gm_email.is_none() {
        let p = server.preview_report(&issued.file.game)?;
        println!(
            "Preview of game {} step {}: orders held from {}; missing: {}.",
            issued.file.game,
            p.step,
            words(&p.held, "no side"),
            words(&p.missing, "none")
        );
        match p.rendered {
            Ok(r) => {
                crate::server::report::write_view(out, &r.view)?;
                println!(
                    "wrote {}: the public view with throw-away dice; nothing was stored or sent",
                    out.display()
                );
            }
            Err(e) => println!("the step cannot be resolved with these orders: {e}"),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let gm = GameMaster {
        key: None,
        email: gm_email,
    };
    match server.apply_command(&issued, &gm) {
        Ok(a) => {
            println!(
                "command {} applied to game {}.\n{}",
                a.command, a.game, a.reply
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("refused: {e}; nothing was changed");
            Ok(ExitCode::from(1))
        }
    }
}

fn words(sides: &[SideId], none: &str) -> String {
    if sides.is_empty() {
        none.to_string()
    } else {
        sides
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub fn sig_path(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".sig");
    PathBuf::from(s)
}

/// `render --reader`: a side of the game, `public` or `umpire`; anything
/// else is refused with the list, not rendered as an empty report.
fn reader_of(server: &Server, game: &str, reader: &str) -> anyhow::Result<crate::view::Viewer> {
    let sides: Vec<SideId> = server.players(game)?.into_iter().map(|p| p.side).collect();
    if sides.is_empty() && server.store().game(game)?.is_none() {
        return Err(server.no_game(game));
    }
    Ok(match reader {
        "umpire" => crate::view::Viewer::Umpire,
        "public" => crate::view::Viewer::Public,
        side if sides.iter().any(|s| s.as_str() == side) => {
            crate::view::Viewer::Side(SideId::new(side))
        }
        other => {
            let mut valid: Vec<String> = sides.iter().map(|s| s.to_string()).collect();
            valid.extend(["public".to_string(), "umpire".to_string()]);
            bail!(
                "{other:?} is not a reader of game {game}: give --reader as one of {}",
                valid.join(", ")
            )
        }
    })
}

/// A key already at FILE or FILE.pub is never replaced: the player's
/// registered key would stop matching, and his signatures with it.
fn refuse_existing_key(file: &Path) -> anyhow::Result<()> {
    let mut public = file.as_os_str().to_owned();
    public.push(".pub");
    for f in [file.to_path_buf(), PathBuf::from(public)] {
        if f.exists() {
            bail!(
                "{} exists already: galloper keygen never overwrites a key (the one registered for your side would stop matching). Keep it, or give another FILE; to replace a key on purpose, move the old one away first and ask the game master to register the new .pub",
                f.display()
            );
        }
    }
    Ok(())
}

fn parse_player(s: &str) -> anyhow::Result<PlayerSpec> {
    let mut parts = s.splitn(3, ':');
    let (Some(side), Some(email), Some(key)) = (parts.next(), parts.next(), parts.next()) else {
        bail!("--player takes SIDE:EMAIL:PUBLIC_KEY_FILE, not {s:?}");
    };
    // Checked before anything is created: a bad address would fail every
    // mail of the game later, in the middle of a step.
    let email = crate::mail::address::check(email).with_context(|| format!("--player {side}"))?;
    let public_key = std::fs::read_to_string(key)
        .with_context(|| format!("cannot read the public key {key}"))?
        .trim()
        .to_string();
    Ok(PlayerSpec {
        side: SideId::new(side),
        email,
        public_key,
    })
}

/// `--zone SIDE:ZONE`, checked before the game exists: a side among the
/// players and a zone the bundled database knows.
fn parse_zone(s: &str, players: &[PlayerSpec]) -> anyhow::Result<(SideId, String)> {
    let Some((side, zone)) = s.split_once(':') else {
        bail!("--zone takes SIDE:ZONE, such as french:Europe/Paris, not {s:?}");
    };
    let side = SideId::new(side.trim());
    if !players.iter().any(|p| p.side == side) {
        bail!("--zone {s}: {side} is not one of the sides given with --player");
    }
    crate::server::schedule::zone(zone.trim()).map_err(|_| {
        anyhow!("--zone {s}: {:?} is not an IANA time zone name (such as Europe/Paris or America/New_York)", zone.trim())
    })?;
    Ok((side, zone.trim().to_string()))
}

/// An orders file's `notice:` and `revision:` lines as `galloper sign`
/// leaves them: a notice in the file is kept if it agrees with `notice`
/// (the step's notice file, when given); a missing one comes from
/// `notice`, else from the data folder when it holds the game; a missing
/// revision is 1 (the server's next one when the data folder knows it).
fn sign_fields(
    data: &Path,
    file: &Path,
    text: &str,
    notice: Option<&Path>,
) -> anyhow::Result<String> {
    let mut text = text.to_string();
    let game = envelope::field(&text, "game")
        .unwrap_or_default()
        .to_string();
    let step = envelope::field(&text, "step")
        .unwrap_or_default()
        .to_string();
    let side = SideId::new(envelope::field(&text, "side").unwrap_or_default());
    let has = envelope::field(&text, "notice").map(str::to_string);
    // A server's data folder is only read when it exists: signing never creates one.
    let local = || -> Option<Server> {
        data.join("galloper.db")
            .exists()
            .then(|| Server::open(data).ok())
            .flatten()
            .filter(
                |s| matches!(s.due(&game), Ok(Some((open, _))) if open.step.to_string() == step),
            )
    };
    let wanted = match notice {
        Some(path) => {
            let bytes = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the notice {}", path.display()))?;
            let n: serde_yaml::Value = crate::yaml::from_str(&bytes)
                .with_context(|| format!("{} is not a step's notice.yaml", path.display()))?;
            let said = |k: &str| match n.get(k) {
                Some(serde_yaml::Value::String(v)) => v.clone(),
                Some(serde_yaml::Value::Number(v)) => v.to_string(),
                _ => String::new(),
            };
            let (ngame, nstep) = (said("game"), said("step"));
            if ngame != game || nstep != step {
                bail!(
                    "{} is the notice of game {ngame} step {nstep}, but {} is for game {game} step {step}",
                    path.display(),
                    file.display()
                );
            }
            Some(envelope::notice_sha256(&bytes))
        }
        None if has.is_none() => local().and_then(|s| {
            s.due(&game)
                .ok()
                .flatten()
                .map(|(open, _)| envelope::notice_sha256(&open.notice))
        }),
        None => None,
    };
    match (&has, &wanted) {
        (Some(h), Some(w)) if !h.eq_ignore_ascii_case(w) => bail!(
            "{} answers notice {h}, but the notice given hashes to {w}: if that notice is the one of the step these orders are for, put `notice: {w}` in the file (or take the line out) and sign again",
            file.display()
        ),
        (None, Some(w)) => {
            text = envelope::with_field(&text, "notice", w);
            println!("notice: {w} (filled in)");
        }
        (None, None) => bail!(
            "{} names no notice: copy the `notice:` line from the orders template of game {game} step {step}, or pass --notice with that step's notice.yaml from the game's archive",
            file.display()
        ),
        _ => {}
    }
    if envelope::field(&text, "revision").is_none() {
        let next = local()
            .and_then(|s| s.next_revision(&game, &side).ok())
            .unwrap_or(1);
        text = envelope::with_field(&text, "revision", &next.to_string());
        println!(
            "revision: {next} (filled in; a file that replaces orders sent before needs a higher one)"
        );
    }
    Ok(text)
}

/// A ready orders file for `side`'s next step.
pub fn template(server: &Server, game: &str, side: &SideId) -> anyhow::Result<String> {
    let (step, due) = server
        .due(game)?
        .ok_or_else(|| anyhow!("game {game} has no open step: it is over"))?;
    let g = server
        .store()
        .game(game)?
        .ok_or_else(|| anyhow!("no game {game}"))?;
    let rules =
        rulesets::by_name(&g.ruleset).ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
    let body = rules
        .orders_template(&step.state_before, side)?
        .ok_or_else(|| {
            anyhow!(
                "{side} owes nothing for step {} ({})",
                step.step,
                due.heading
            )
        })?;
    let body = crate::view::enemy::with_enemy(
        &body,
        &rules
            .view(&step.state_before, &crate::view::Viewer::Side(side.clone()))?
            .map,
        side,
    );
    let head = envelope::Head {
        game,
        step: step.step,
        side,
        notice: &envelope::notice_sha256(&step.notice),
        revision: 1,
    };
    Ok(envelope::template(&head, &g.ruleset, &body))
}

/// `galloper audit`'s exit status on a game in progress whose public part
/// passed: not 0, so that a script can tell it from a sealed game that
/// passed in full.
pub const AUDIT_PASSED_SO_FAR: u8 = 3;

fn print_status(server: &Server, only: Option<&str>) -> anyhow::Result<()> {
    let games = server.store().games()?;
    if let Some(o) = only
        && !games.iter().any(|g| g.id == o)
    {
        return Err(server.no_game(o));
    }
    for g in games {
        if only.is_some_and(|o| o != g.id) {
            continue;
        }
        // A game ended by its game master keeps its open step in the store.
        let due = match g.status {
            crate::server::store::GameStatus::Over => None,
            _ => server.due(&g.id)?,
        };
        match due {
            Some((step, due)) => {
                println!(
                    "{} ({}): step {} - {}",
                    g.id, g.ruleset, step.step, due.heading
                );
                if g.status == crate::server::store::GameStatus::Paused {
                    println!(
                        "  paused by the game master: orders are taken, nothing resolves until he resumes the game"
                    );
                }
                if let Some(d) = server.deadline_text(&g.id, None)? {
                    println!("  {d}");
                }
                let got = server.store().latest_orders(&g.id, step.step)?;
                for o in &due.owed {
                    println!(
                        "  {}: {} [{}]",
                        o.side,
                        o.note,
                        if got.contains_key(&o.side) {
                            "received"
                        } else {
                            "waiting"
                        }
                    );
                }
            }
            None => println!("{} ({}): over, {}", g.id, g.ruleset, ending(server, &g)?),
        }
        if let Some(b) = server.beacon_wait(&g.id)? {
            println!("  beacon: {b}");
        }
        // What a signed command writes to name this game and no later one
        // under the same id.
        if let Ok(c) = server.game_created(&g.id) {
            println!("  created: {c} (the `created:` line of a command file)");
        }
    }
    Ok(())
}

/// How an over game ended: its winner (or a draw) from the last state, or
/// the game master's ending.
fn ending(server: &Server, g: &crate::server::store::GameRow) -> anyhow::Result<String> {
    let rules =
        rulesets::by_name(&g.ruleset).ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
    let steps = server.store().steps(&g.id)?;
    let last = steps.iter().rev().find_map(|s| s.result.as_ref());
    let outcome = match last {
        Some(res) => crate::server::ended_words(rules, &res.state_after)?,
        None => None,
    };
    Ok(outcome.unwrap_or_else(|| "ended by the game master".into()))
}

/// `--server-key`: a fingerprint or a public key line as given, or the
/// public key line of the file it names.
fn pinned_key(arg: &str) -> anyhow::Result<String> {
    if arg.starts_with("SHA256:") || arg.starts_with("ssh-ed25519 ") {
        return Ok(arg.to_string());
    }
    let text = std::fs::read_to_string(arg).with_context(|| {
        format!("--server-key {arg:?} is neither a SHA256: fingerprint nor a readable key file")
    })?;
    Ok(text.trim().to_string())
}

/// The time now, read at the edge (unix seconds).
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// `galloper campaign check FILE`: the campaign's ledger on day 1 and every
/// trial battle, or what is wrong, each problem on its line.
fn campaign_check(file: &Path) -> anyhow::Result<ExitCode> {
    use crate::campaign::{CampaignFile, Ledger, trial};
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the campaign file {}", file.display()))?;
    let campaign: CampaignFile =
        crate::yaml::from_str(&text).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let folder = file.parent().unwrap_or(Path::new("."));
    let battlefield = |path: &str| {
        std::fs::read_to_string(folder.join(path))
            .map_err(|e| format!("battlefield {path} (from {}): {e}", folder.display()))
    };
    let ledger = Ledger::start(&campaign, &battlefield, &crate::rulesets::muster_by_name)
        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
    println!(
        "{}: {} days, {} areas, {} roads, {} armies on day 1",
        campaign.title,
        campaign.days,
        campaign.areas.len(),
        campaign.roads.len(),
        ledger.armies.len()
    );
    for a in &ledger.armies {
        let word = crate::rulesets::muster_by_name(ledger.ruleset_at(&a.at))
            .map_or("strength", |h| h.strength_word());
        let (now, full) = a.units.iter().fold((0, 0), |(n, f), u| {
            (n + u.strength.now, f + u.strength.full)
        });
        println!(
            "  {} ({}, {}) at {}: {} units, {now} of {full} {word}",
            a.name,
            a.side,
            a.commander,
            a.at,
            a.units.len()
        );
    }
    let problems = trial::trial_battles(&ledger);
    if problems.is_empty() {
        println!("every battle the map could give musters");
        return Ok(ExitCode::SUCCESS);
    }
    for p in &problems {
        eprintln!("{p}");
    }
    Ok(ExitCode::FAILURE)
}

#[cfg(test)]
mod log_colour_tests {
    #[test]
    fn colours_only_on_a_terminal_without_no_color() {
        use std::ffi::OsStr;
        assert!(super::log_colours(true, None));
        assert!(super::log_colours(true, Some(OsStr::new(""))));
        assert!(!super::log_colours(true, Some(OsStr::new("1"))));
        assert!(!super::log_colours(false, None));
    }
}
