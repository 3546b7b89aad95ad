#!/usr/bin/env bash
# Class: secrets read (issue 30 §5). The hide list is of the home only. A
# sandboxed command as root has no capability, but uid 0 owns the system's
# secret files, so their owner bits let it read them: /etc/shadow and
# /etc/gshadow (password hashes), and any 0600 root file (an SSH host key,
# /etc/ssl/private, NetworkManager's wifi passwords, root-owned .env of a
# service). Here a 0600 file of root's outside the home stands for them.
# As sluicedev the same files are refused by their modes (no hole).
. "$(dirname "$0")/env.sh"
mkdir -p "$RT/etc-ssl-private"; echo "PRIVATE-KEY-MARK" >"$RT/etc-ssl-private/site.key"; chmod 600 "$RT/etc-ssl-private/site.key"
boxed "id -u; for f in /etc/shadow /etc/gshadow /etc/ssh/ssh_host_ed25519_key /etc/ssl/private/* $RT/etc-ssl-private/site.key; do
  if head -c 300 \"\$f\" >/dev/null 2>&1; then echo \"READABLE \$f (\$(stat -c '%a %U' \"\$f\"))\"; fi; done; head -2 /etc/shadow"
