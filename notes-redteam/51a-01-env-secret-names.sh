#!/bin/bash
# Credentials in the agent's environment under names [env] drop misses
# reach the sandboxed command. Prints HOLE (any reaches it) or stopped.
. "$(dirname "$0")/51a-lib.sh"
mkhome env
vars=(
 SSHPASS=sshpass-password GOOGLE_CREDENTIALS=terraform-gcp-json-key
 TS_AUTHKEY=tskey-auth-x TAILSCALE_AUTHKEY=tskey-auth-y
 ORG_GRADLE_PROJECT_signingInMemoryKey=pgp-private-key KUBE_CONFIG=base64-kubeconfig
 FIREBASE_SERVICE_ACCOUNT=sa-json DB_PASS=dbpass SMTP_PASS=smtppass KEY_PASS=android-key-pass
 STORE_PASS=android-store-pass ANSIBLE_BECOME_PASS=sudo-pass LDAP_BIND_PW=ldap-pw
 DOCKERHUB_CREDS=user:pass ID_RSA=ssh-key CREDENTIALS=creds
 GIT_URL=https://ghp_tokenasuser@example.org/o/r
 JDBC_URL='jdbc:postgresql://h/db?user=u&password=jdbcpw'
 DATABASE_URL='postgres://u@h/db?password=querypw'
 AZURE_STORAGE_SAS_URL='https://a.blob.example.org/c?sv=2020&sig=sassig'
)
show='for v in '"$(printf '%s ' "${vars[@]%%=*}")"'; do [ -n "${!v}" ] && echo "$v=${!v}"; done'
echo "== control (unrestricted)"; env "${vars[@]}" bash -c "$(declare -f run_unres); SLUICE=$SLUICE P=$P H=$H; run_unres '$show'" | wc -l
echo "== default sandbox"; out=$(cd "$P" && env "${vars[@]}" HOME=$H "$SLUICE" run -- "$show" 2>/dev/null); echo "$out"
rm -rf "$H"
n=$(grep -c . <<<"$out")
if [ "$n" -gt 0 ]; then echo "HOLE ($n of ${#vars[@]} reach the command)"; exit 1; fi
echo stopped; exit 0
