#!/usr/bin/env bash
# Stop the lab's Postfix and Dovecot (started by start.sh).
#   stop.sh           stop both
#   stop.sh postfix   stop Postfix only (the fault tests; start.sh brings it back)
#   stop.sh --purge   stop both and delete the lab's mail, queue, logs and config
set -euo pipefail
LAB=${GALLOPER_LAB_DIR:-/tmp/galloper-lab}
what=${1:-all}
[[ $(id -u) == 0 ]] || { echo "[lab] needs root" >&2; exit 1; }

if [[ -f $LAB/postfix/main.cf ]] && postfix -c "$LAB/postfix" status >/dev/null 2>&1; then
  postfix -c "$LAB/postfix" stop </dev/null >/dev/null 2>&1 || true
fi
if [[ $what != postfix ]]; then
  pid=$(cat "$LAB/dovecot/run/master.pid" 2>/dev/null || true)
  if [[ $pid =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-c $LAB/dovecot/dovecot.conf"; then
    dovecot -c "$LAB/dovecot/dovecot.conf" stop </dev/null >/dev/null 2>&1 || true
    for _ in $(seq 50); do
      [[ -d /proc/$pid ]] || break
      sleep 0.1
    done
  fi
fi
if [[ $what == --purge ]]; then
  rm -rf "$LAB/mail" "$LAB/spool" "$LAB/data" "$LAB/log" "$LAB/postfix" "$LAB/dovecot" "$LAB/lab.env"
fi
echo "[lab] stopped ($what)" >&2
