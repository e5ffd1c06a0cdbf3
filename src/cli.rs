//! The command line: parse arguments, call the library, say what happened.

use crate::envelope;
use crate::game::{PlayerSpec, Server, audit};
use crate::rulesets;
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
    /// Fill in fresh entropy and sign an orders file, writing FILE.sig.
    Sign {
        file: PathBuf,
        /// The player's OpenSSH private key.
        #[arg(long)]
        key: PathBuf,
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
    /// Check a public archive: signatures, commitments, every die, and after the game a full replay.
    Audit { dir: PathBuf },
    /// Print a JSON Schema.
    Schema {
        #[command(subcommand)]
        what: SchemaWhat,
    },
    /// Sandbox: resolve one step of a scenario with given orders and dice, touching no store.
    Resolve(crate::sandbox::ResolveArgs),
    /// Play a whole demonstration game, audit it, and leave everything in a folder.
    Demo(crate::demo::DemoArgs),
    /// Measure this machine: each step's phases, audit, intake, scaling, ratios.
    Bench(crate::bench::BenchArgs),
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
}

#[derive(Subcommand)]
enum SchemaWhat {
    /// The `orders:` block of a ruleset.
    Orders {
        #[arg(long)]
        ruleset: String,
    },
}

/// Run the command line; the exit code says how it went.
pub fn main() -> ExitCode {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .try_init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Keygen { file, comment } => {
            let k = sig::keygen(&comment)?;
            write_key(&file, &k)?;
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
            schedule,
            beacon,
        } => {
            let text = std::fs::read_to_string(&scenario)
                .with_context(|| format!("cannot read {}", scenario.display()))?;
            // Checked before the game exists, so a bad file creates nothing.
            let schedule = match &schedule {
                Some(p) => {
                    let y = std::fs::read_to_string(p)
                        .with_context(|| format!("cannot read the schedule {}", p.display()))?;
                    crate::game::schedule::Schedule::parse(&y)
                        .with_context(|| format!("the schedule {}", p.display()))?;
                    Some(y)
                }
                None => None,
            };
            let specs = players
                .iter()
                .map(|p| parse_player(p))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let beacon = match &beacon {
                Some(name) => Some(crate::game::beacon::BeaconStart {
                    chain: crate::dice::beacon::chain(name).ok_or_else(|| {
                        anyhow!("unknown beacon {name:?}: the server knows quicknet")
                    })?,
                    now: unix_now(),
                }),
                None => None,
            };
            let mut server = Server::open(&cli.data)?;
            server.new_game_with(&game, &text, &specs, schedule.as_deref(), beacon)?;
            println!(
                "game {game} created; archive in {}",
                server.archive_dir(&game).display()
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
            let server = Server::open(&cli.data)?;
            print_status(&server, game.as_deref())?;
        }
        Command::Orders {
            command: OrdersCommand::Template { game, side },
        } => {
            let server = Server::open(&cli.data)?;
            print!("{}", template(&server, &game, &SideId::new(side))?);
        }
        Command::Sign {
            file,
            key,
            keep_entropy,
        } => {
            let private = std::fs::read_to_string(&key)
                .with_context(|| format!("cannot read the key {}", key.display()))?;
            let mut text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            if !keep_entropy {
                text = envelope::with_entropy(&text, &fresh_entropy()?);
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
            let mut server = Server::open(&cli.data)?;
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
        }
        Command::Process {
            outbox,
            config: None,
        } => {
            let mut server = Server::open(&cli.data)?;
            // A beacon game's next step takes its deadline from the time.
            server.see_time(unix_now());
            let done = server.process(&outbox)?;
            for r in &done {
                println!(
                    "resolved {} step {} ({}){}",
                    r.game,
                    r.step,
                    r.heading,
                    if r.over { ": game over" } else { "" }
                );
            }
            if done.is_empty() {
                println!("nothing to resolve");
            }
        }
        Command::Render {
            game,
            step,
            reader,
            out,
        } => {
            let viewer = match reader.as_str() {
                "umpire" => crate::view::Viewer::Umpire,
                "public" => crate::view::Viewer::Public,
                side => crate::view::Viewer::Side(SideId::new(side)),
            };
            let server = Server::open(&cli.data)?;
            let view = server.report(&game, step, &viewer)?;
            crate::game::report::write_view(&out, &view)?;
            println!("wrote {}: report.html, report.txt, map.png", out.display());
        }
        Command::Audit { dir } => match audit::audit(&dir) {
            Ok(v) => {
                for l in &v.lines {
                    println!("{l}");
                }
                println!(
                    "AUDIT PASSED: {} step(s), {} public dice re-derived{}",
                    v.steps,
                    v.public_dice,
                    if v.replayed {
                        ", full replay identical"
                    } else {
                        ""
                    }
                );
            }
            Err(f) => {
                eprintln!("{f}");
                return Ok(ExitCode::from(1));
            }
        },
        Command::Schema {
            what: SchemaWhat::Orders { ruleset },
        } => {
            let r = rulesets::by_name(&ruleset).ok_or_else(|| {
                anyhow!(
                    "unknown ruleset {ruleset:?}; known: {}",
                    rulesets::names().join(", ")
                )
            })?;
            println!("{}", serde_json::to_string_pretty(&r.orders_schema())?);
        }
        Command::Resolve(args) => crate::sandbox::run(&args)?,
        Command::Demo(args) => return crate::demo::run(&args),
        Command::Bench(args) => return crate::bench::run(&args),
    }
    Ok(ExitCode::SUCCESS)
}

/// 32 bytes of fresh entropy, hex.
pub fn fresh_entropy() -> anyhow::Result<String> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| anyhow!("the OS gave no randomness: {e}"))?;
    Ok(hex::encode(b))
}

pub fn sig_path(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".sig");
    PathBuf::from(s)
}

pub fn write_key(file: &Path, k: &sig::KeyPair) -> anyhow::Result<()> {
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(file, &k.private_openssh)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
    }
    let mut public = file.as_os_str().to_owned();
    public.push(".pub");
    std::fs::write(PathBuf::from(public), format!("{}\n", k.public_line))?;
    Ok(())
}

fn parse_player(s: &str) -> anyhow::Result<PlayerSpec> {
    let mut parts = s.splitn(3, ':');
    let (Some(side), Some(email), Some(key)) = (parts.next(), parts.next(), parts.next()) else {
        bail!("--player takes SIDE:EMAIL:PUBLIC_KEY_FILE, not {s:?}");
    };
    let public_key = std::fs::read_to_string(key)
        .with_context(|| format!("cannot read the public key {key}"))?
        .trim()
        .to_string();
    Ok(PlayerSpec {
        side: SideId::new(side),
        email: email.into(),
        public_key,
    })
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
    Ok(envelope::compose(
        game,
        step.step,
        side,
        "FILLED-IN-BY-GALLOPER-SIGN",
        &body,
    ))
}

fn print_status(server: &Server, only: Option<&str>) -> anyhow::Result<()> {
    for g in server.store().games()? {
        if only.is_some_and(|o| o != g.id) {
            continue;
        }
        match server.due(&g.id)? {
            Some((step, due)) => {
                println!(
                    "{} ({}): step {} - {}",
                    g.id, g.ruleset, step.step, due.heading
                );
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
            None => println!("{} ({}): over", g.id, g.ruleset),
        }
        if let Some(b) = server.beacon_wait(&g.id)? {
            println!("  beacon: {b}");
        }
    }
    Ok(())
}

/// The time now, read at the edge (unix seconds).
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
