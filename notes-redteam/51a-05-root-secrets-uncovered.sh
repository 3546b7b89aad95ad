#!/bin/bash
# As root: root-only (0600) secrets of the system that --cover misses; the
# sandboxed command runs as uid 0 (no capabilities, but their owner) and
# reads them. Creates each missing file for the test, removes it after.
# Prints HOLE (any read) or stopped; "skip" when not root.
. "$(dirname "$0")/51a-lib.sh"
[ "$(id -u)" = 0 ] || { echo "skip (needs root: the files are root's 0600)"; exit 0; }
files=(
 /etc/kubernetes/admin.conf            # kubeadm cluster-admin kubeconfig
 /etc/kubernetes/pki/ca.key            # the cluster CA key
 /etc/rancher/k3s/k3s.yaml             # k3s admin kubeconfig
 /var/lib/rancher/k3s/server/token     # k3s join token
 /etc/pki/tls/private/server.key       # RHEL/Fedora's /etc/ssl/private
 /etc/mysql/debian.cnf                 # Debian's MySQL maintenance password
 /var/lib/tailscale/tailscaled.state   # Tailscale node keys
 /etc/wpa_supplicant/wpa_supplicant.conf # Wi-Fi PSKs
 /etc/gitlab-runner/config.toml        # runner tokens
 /etc/sssd/sssd.conf                   # LDAP bind password
 /etc/security/opasswd                 # old password hashes
 /etc/openvpn/client/client.key        # VPN key
 /etc/ipsec.secrets                    # IPsec PSKs
 /etc/ceph/ceph.client.admin.keyring   # Ceph admin key
 /var/lib/cloud/instance/user-data.txt # cloud-init user data (often secrets)
)
made=()
for f in "${files[@]}"; do
  [ -e "$f" ] && continue
  d=$(dirname "$f"); top=$d; while [ ! -e "$(dirname "$top")" ]; do top=$(dirname "$top"); done
  [ -e "$d" ] || { mkdir -p "$d"; made+=("DIR:$top"); }
  echo "SECRET $f" > "$f"; chmod 600 "$f"; made+=("$f")
done
mkhome rootsec
read_all='for f in '"${files[*]}"'; do grep -q SECRET "$f" 2>/dev/null && echo "READ $f"; done'
echo "== control (unrestricted)"; run_unres "$read_all" | grep -c READ
echo "== default sandbox"; out=$(run_box "$read_all" 2>/dev/null); echo "$out"
for m in "${made[@]}"; do case $m in DIR:*) :;; *) rm -f "$m";; esac; done
for m in "${made[@]}"; do case $m in DIR:*) rm -rf "${m#DIR:}";; esac; done
rm -rf "$H"
n=$(grep -c READ <<<"$out")
if [ "$n" -gt 0 ]; then echo "HOLE ($n of ${#files[@]} read as root)"; exit 1; fi
echo stopped; exit 0
