#!/usr/bin/env bash
# Start a private Postfix (SMTP) and Dovecot (IMAP) on loopback for Galloper's
# mail tests. Both run from configuration written under $LAB; the system's
# /etc/postfix and /etc/dovecot are never read or changed and no system service
# is started. Safe to run again while the lab is up (it then only checks that
# both answer). Needs root and the Debian 12 packages postfix, dovecot-core and
# dovecot-imapd (.ci/run installs them; this script does too when missing).
#
# Prints KEY=VALUE lines (also kept in $LAB/lab.env); progress goes to stderr.
set -euo pipefail

LAB=${GALLOPER_LAB_DIR:-/tmp/galloper-lab}
SMTP_PORT=${GALLOPER_LAB_SMTP_PORT:-2525}
IMAP_PORT=${GALLOPER_LAB_IMAP_PORT:-1143}
DOMAIN=pbem.test
USERS="club alice bob gm"
PASSWORD=secret
VUID=5000

say() { printf '[lab] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

[[ $(id -u) == 0 ]] || die "the mail lab runs Postfix and Dovecot and needs root"
[[ $LAB == /* && ${#LAB} -le 60 ]] || die "GALLOPER_LAB_DIR must be an absolute path of at most 60 characters"
umask 022
mkdir -p "$LAB"
# One caller at a time (several test binaries may start the lab together).
# The daemons must not inherit the lock, hence 9>&- when starting them.
exec 9>"$LAB/.lock"
flock -w 300 9 || die "another process holds $LAB/.lock"

have() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }
missing=()
for p in postfix dovecot-core dovecot-imapd; do have "$p" || missing+=("$p"); done
if ((${#missing[@]})); then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # "No configuration": the system Postfix instance never runs.
  printf '%s\n' "postfix postfix/main_mailer_type select No configuration" \
    "postfix postfix/mailname string localhost" | debconf-set-selections
  blocker=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    # Keep the packages' install scripts from starting the system daemons.
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    blocker=1
  fi
  apt-get -q -o DPkg::Lock::Timeout=300 update >"$LAB/apt.log" 2>&1 \
    || { tail "$LAB/apt.log" >&2; die "apt-get update failed"; }
  apt-get -q -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "${missing[@]}" >>"$LAB/apt.log" 2>&1 \
    || { tail "$LAB/apt.log" >&2; die "apt-get install failed"; }
  if ((blocker)); then rm -f /usr/sbin/policy-rc.d; fi
  if [[ -d /run/systemd/system ]]; then
    systemctl disable --now postfix.service dovecot.service dovecot.socket >/dev/null 2>&1 || true
  fi
fi

ROOT=$LAB/mail/$DOMAIN
PF=$LAB/postfix
DC=$LAB/dovecot
mkdir -p "$PF" "$DC/run" "$DC/state" "$LAB/log" "$LAB/spool"
install -d -o postfix -g postfix -m 0700 "$LAB/data"
install -d -o "$VUID" -g "$VUID" -m 0755 "$LAB/mail" "$ROOT"
install -d -o "$VUID" -g "$VUID" -m 0750 "$DC/index"

mailboxes=""
passwd=""
for u in $USERS postmaster; do
  mailboxes+="$u@$DOMAIN $DOMAIN/$u/"$'\n'
  passwd+="$u@$DOMAIN:{PLAIN}$PASSWORD:$VUID:$VUID::$ROOT/$u::"$'\n'
  for d in "" /new /cur /tmp; do install -d -o "$VUID" -g "$VUID" -m 0755 "$ROOT/$u$d"; done
done

changed_pf=0
changed_dc=0
# update FILE FLAG: replace FILE with stdin when it differs, and raise FLAG.
update() {
  local t
  t=$(mktemp "$1.XXXX")
  cat >"$t"
  if [[ -f $1 ]] && cmp -s "$t" "$1"; then
    rm -f "$t"
  else
    mv -f "$t" "$1"
    chmod 0644 "$1"
    printf -v "$2" 1
  fi
}

update "$PF/vmailbox" changed_pf <<<"$mailboxes"
update "$PF/main.cf" changed_pf <<END_MAIN
# Galloper test lab: private Postfix, loopback only, delivers to $DOMAIN Maildirs.
compatibility_level = 3.6
queue_directory = $LAB/spool
data_directory = $LAB/data
mail_owner = postfix
setgid_group = postdrop
maillog_file = $LAB/log/postfix.log
maillog_file_prefixes = $LAB/log
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = $DOMAIN
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = reject_unauth_destination
smtpd_recipient_restrictions =
# nothing ever leaves the machine
default_transport = error:the lab delivers to $DOMAIN only
relay_transport = error:the lab delivers to $DOMAIN only
smtpd_peername_lookup = no
smtpd_error_sleep_time = 0
smtpd_tls_security_level = none
smtp_tls_security_level = none
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $DC/run/auth-postfix
smtpd_sasl_security_options = noanonymous
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_base = $LAB/mail
virtual_mailbox_maps = texthash:$PF/vmailbox
virtual_uid_maps = static:$VUID
virtual_gid_maps = static:$VUID
virtual_minimum_uid = $VUID
virtual_mailbox_limit = 0
message_size_limit = 104857600
recipient_delimiter = +
in_flow_delay = 0
biff = no
END_MAIN
update "$PF/master.cf" changed_pf <<END_MASTER
# Galloper test lab: no chroot, only the services the lab uses.
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
pickup    unix  n - n 60    1 pickup
cleanup   unix  n - n -     0 cleanup
qmgr      unix  n - n 300   1 qmgr
rewrite   unix  - - n -     - trivial-rewrite
bounce    unix  - - n -     0 bounce
defer     unix  - - n -     0 bounce
trace     unix  - - n -     0 bounce
verify    unix  - - n -     1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -     - proxymap
showq     unix  n - n -     - showq
error     unix  - - n -     - error
retry     unix  - - n -     - error
discard   unix  - - n -     - discard
virtual   unix  - n n -     - virtual
anvil     unix  - - n -     1 anvil
scache    unix  - - n -     1 scache
postlog   unix-dgram n - n - 1 postlogd
END_MASTER

update "$DC/users" changed_dc <<<"$passwd"
chmod 0640 "$DC/users"
chgrp dovecot "$DC/users"
update "$DC/dovecot.conf" changed_dc <<END_DOVECOT
# Galloper test lab: private Dovecot (Debian 12, 2.3 syntax); /etc/dovecot is not read.
instance_name = galloper-lab
base_dir = $DC/run
state_dir = $DC/state
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_default_realm = $DOMAIN
auth_failure_delay = 0
log_path = $LAB/log/dovecot.log
mail_location = maildir:~:INDEX=$DC/index/%d/%n:CONTROL=$DC/index/%d/%n
first_valid_uid = $VUID
last_valid_uid = $VUID
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $DC/users
}
userdb {
  driver = passwd-file
  args = username_format=%u $DC/users
}
protocol imap {
  mail_max_userip_connections = 1000
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
service auth {
  unix_listener auth-postfix {
    mode = 0600
    user = postfix
    group = postfix
  }
}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
END_DOVECOT

postfix_up() { postfix -c "$PF" status >/dev/null 2>&1; }
dovecot_up() {
  local pid
  pid=$(cat "$DC/run/master.pid" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-c $DC/dovecot.conf"
}
# greets PORT PREFIX: something on 127.0.0.1:PORT says hello with PREFIX
greets() {
  timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/$0 || exit 1; IFS= read -r -t 2 l <&3 || exit 1; [[ $l == "$1"* ]]' "$1" "$2" 2>/dev/null
}
await() {
  local until=$((SECONDS + 30))
  until greets "$2" "$3"; do
    ((SECONDS < until)) || die "$1 does not answer on 127.0.0.1:$2 (see $LAB/log/)"
    sleep 0.05
  done
}

if dovecot_up && ((changed_dc)); then
  dovecot -c "$DC/dovecot.conf" stop 9>&- </dev/null >/dev/null 2>&1 || true
  sleep 0.5
fi
if postfix_up && ((changed_pf)); then
  postfix -c "$PF" stop 9>&- >/dev/null 2>&1 || true
fi
if ! dovecot_up; then
  dovecot -c "$DC/dovecot.conf" 9>&- </dev/null >/dev/null 2>>"$LAB/log/dovecot-start.err" || die "dovecot did not start (see $LAB/log/dovecot.log)"
fi
await dovecot "$IMAP_PORT" "* OK"
if ! postfix_up; then
  postfix -c "$PF" start 9>&- </dev/null >/dev/null 2>>"$LAB/log/postfix-start.err" \
    || { cat "$LAB/log/postfix-start.err" >&2; die "postfix did not start"; }
fi
await postfix "$SMTP_PORT" "220 "

cat >"$LAB/lab.env" <<END_ENV
LAB_DIR=$LAB
LAB_SMTP_PORT=$SMTP_PORT
LAB_IMAP_PORT=$IMAP_PORT
LAB_DOMAIN=$DOMAIN
LAB_MAILDIRS=$ROOT
LAB_PASSWORD=$PASSWORD
END_ENV
cat "$LAB/lab.env"
say "SMTP 127.0.0.1:$SMTP_PORT, IMAP 127.0.0.1:$IMAP_PORT, Maildirs under $ROOT ($USERS)"
