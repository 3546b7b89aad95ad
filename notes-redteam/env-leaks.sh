#!/usr/bin/env bash
# Class: secrets read (issue 30 §5), through the environment. [env] drop
# filters names by patterns (*TOKEN, *SECRET*, *PASSWORD* ...); real
# secrets are also carried by names that match none: credentials in URLs
# (DATABASE_URL), webhook URLs, password managers' session keys (BW_SESSION,
# OP_SESSION_*), npm's lower-case _authToken, DSNs. The user's agent inherits
# them from the shell. Prints LEAKED per variable the command sees.
. "$(dirname "$0")/env.sh"
vars=(DATABASE_URL=postgres://app:S3cr3t@db.example.org/app REDIS_URL=redis://:S3cr3t@cache.example.org:6379
  MONGODB_URI=mongodb://u:S3cr3t@mongo.example.org SLACK_WEBHOOK_URL=https://hooks.example.org/services/T0/B0/S3cr3t
  BW_SESSION=S3cr3t OP_SESSION_my=S3cr3t npm_config__authToken=S3cr3t "npm_config_//registry.example.org/:_authToken=S3cr3t"
  SENTRY_DSN=https://S3cr3t@o1.example.org/1 DD_API_KEY=S3cr3t GITHUB_TOKEN=S3cr3t PGPASSWORD=S3cr3t
  VAULT_TOKEN=S3cr3t CI_JOB_JWT=S3cr3t DOCKER_AUTH_CONFIG=S3cr3t AWS_SESSION_TOKEN=S3cr3t
  TF_VAR_db_password=S3cr3t KAGGLE_KEY=S3cr3t HF_TOKEN=S3cr3t NETLIFY_AUTH_TOKEN=S3cr3t
  MYSQL_PWD=S3cr3t SNOWFLAKE_PASSWORD=S3cr3t CONNECTION_STRING=Server=x\;Password=S3cr3t
  JWT_SIGNING_KEY=S3cr3t SIGNING_KEY=S3cr3t ENCRYPTION_KEY=S3cr3t MASTER_KEY=S3cr3t RAILS_MASTER_KEY=S3cr3t
  DJANGO_SECRET_KEY=S3cr3t COOKIE_SECRET=S3cr3t SESSION_KEY=S3cr3t)
env "${vars[@]}" "$SLUICE" run -C "$REPO" -- 'env | grep S3cr3t | cut -d= -f1 | sed "s/^/LEAKED /"'
