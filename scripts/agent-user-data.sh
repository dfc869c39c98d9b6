#!/bin/bash
# The Gamefleet agent's install on an EC2 instance: the user data of the group's launch template
# (docs/agent.md, "Install in AWS"). It reads the instance id and region from IMDSv2, copies the agent
# jar (the stack output AgentJarS3Uri) and checks its SHA-256 (AgentJarSha256), writes
# /etc/gamefleet/agent.json, installs the systemd unit gamefleet-agent.service, which closes the
# instance metadata to the game servers' users before each start of the agent, and starts it; where
# systemd does not run, it starts the agent under a restart loop instead. Fill in the inputs below
# (each may also come from the environment).
set -euo pipefail

# ---- Inputs: the outputs of `cdk deploy` and the studio's game server ----------------------------
: "${AGENT_JAR_S3_URI:=REPLACE-ME}"        # output AgentJarS3Uri: s3://bucket/key (or file:///path, or a path)
: "${AGENT_JAR_SHA256:=REPLACE-ME}"        # output AgentJarSha256: the jar is installed only if it has this SHA-256
: "${API_ENDPOINT:=REPLACE-ME}"            # output ApiUrl: https://<id>.execute-api.<region>.amazonaws.com/
: "${PUSH_ENDPOINT:=REPLACE-ME}"           # output PushEndpoint: wss://<id>.execute-api.<region>.amazonaws.com/<stage>
: "${ARCHIVE_BUCKET=REPLACE-ME}"           # output AgentArchiveBucketName; empty: the logs stay on the instance
: "${GAME_SERVER_GROUP_NAME:=REPLACE-ME}"  # the game server group this instance's servers register in
: "${MAX_GAME_SERVERS_PER_INSTANCE:=16}"     # output MaxGameServersPerInstance: the agent runs at most this many processes
# The game server: keys of agent.json (docs/agent.md, "Configuration"), written into it as they are.
if [ -z "${GAME_SERVER_CONFIG:-}" ]; then
GAME_SERVER_CONFIG=$(cat <<'JSON'
  "command": "/opt/game/server",
  "args": ["-port", "{port:game}", "-logs", "{logFolder}"],
  "processes": 4,
  "ports": {"game": {"from": 7777, "to": 7780}}
JSON
)
fi

# ---- How it installs (defaults for EC2; the tests and an AMI bake change them) --------------------
: "${GAMEFLEET_STEPS:=install configure start}"  # any of: install configure start firewall; `unit` prints the unit
: "${GAMEFLEET_ROOT:=}"                          # a prefix of every path below (a test's folder)
: "${GAMEFLEET_INIT:=auto}"                      # systemd, loop, or auto (systemd when it runs)
: "${IMDS_ENDPOINT:=http://169.254.169.254}"
: "${METADATA_FIREWALL:=on}"                     # off: the game servers may reach the metadata (nothing to close)
: "${AGENT_USER:=gamefleet}"
: "${JAVA:=/usr/bin/java}"

ETC_DIR="$GAMEFLEET_ROOT/etc/gamefleet"
OPT_DIR="$GAMEFLEET_ROOT/opt/gamefleet"
STATE_DIR="$GAMEFLEET_ROOT/var/lib/gamefleet-agent"
SERVERS_DIR="$GAMEFLEET_ROOT/var/lib/gamefleet-servers"
UNIT_FILE="$GAMEFLEET_ROOT/etc/systemd/system/gamefleet-agent.service"
LOOP_LOG="$GAMEFLEET_ROOT/var/log/gamefleet-agent.log"
LOOP_PID="$GAMEFLEET_ROOT/run/gamefleet-agent.pid"
JAR="$OPT_DIR/gamefleet-agent.jar"
FIREWALL="$OPT_DIR/metadata-firewall"
CONFIG="$ETC_DIR/agent.json"

say() { echo "gamefleet-agent install: $*" >&2; }
fail() { say "$*"; exit 1; }

# The systemd unit (the same as scripts/gamefleet-agent.service, which a test keeps equal).
unit() {
  cat <<UNIT
[Unit]
Description=Gamefleet agent: this instance's game server processes (docs/agent.md)
Wants=network-online.target
After=network-online.target

[Service]
User=$AGENT_USER
WorkingDirectory=$STATE_DIR
# As root, before each start (so after every boot): the game servers' users may not reach the metadata.
ExecStartPre=+/bin/sh $FIREWALL
ExecStart=$JAVA -jar $JAR $CONFIG
Restart=on-failure
# Short: the GSDKs give up on an agent that stays away (the Java GSDK after about 8 s).
RestartSec=1
# Exit code 2 is a configuration or start error whose message says what to fix: not retried.
RestartPreventExitStatus=2
# Stop the agent only: a restarted agent adopts the running matches from its state file.
KillMode=process
# A stop (SIGTERM) ends every game server with the graceful sequence first: Terminate, TERM, KILL,
# each deregistered and its logs archived, within the agent's shutdownBudgetSeconds (90 s by
# default); this is the time systemd gives it before a KILL. Raise both together.
TimeoutStopSec=120
# The agent runs each game server as a user of its own, owns, reads and removes their folders and
# signals them: these capabilities, and none gained through a setuid binary. Its game servers run in
# this same sandbox, with none of them (docs/agent.md).
AmbientCapabilities=CAP_SETUID CAP_SETGID CAP_SETPCAP CAP_CHOWN CAP_FOWNER CAP_DAC_OVERRIDE CAP_KILL
CapabilityBoundingSet=CAP_SETUID CAP_SETGID CAP_SETPCAP CAP_CHOWN CAP_FOWNER CAP_DAC_OVERRIDE CAP_KILL
NoNewPrivileges=yes
RestrictSUIDSGID=yes
ProtectSystem=strict
ReadWritePaths=$STATE_DIR $SERVERS_DIR
PrivateTmp=yes
PrivateDevices=yes
ProtectHome=read-only
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
LockPersonality=yes
SystemCallArchitectures=native
UMask=0077

[Install]
WantedBy=multi-user.target
UNIT
}

# What gamefleet-agent.service runs as root before each start: a rule that refuses the game servers'
# users (runAsUidBase to runAsUidBase + processes - 1 of agent.json, as the agent says) the metadata
# service's addresses, in a chain of its own, replaced whole at each run (iptables-restore).
metadata_firewall() {
  if [ "$METADATA_FIREWALL" = off ]; then
    cat <<FIREWALL
#!/bin/sh
echo "gamefleet-agent: METADATA_FIREWALL=off: the game servers may reach the instance metadata and its keys" >&2
FIREWALL
    return
  fi
  cat <<FIREWALL
#!/bin/sh
# Gamefleet: the game servers' users may not reach the instance metadata (docs/agent.md). Written by
# the user data; run as root by gamefleet-agent.service before each start of the agent.
set -eu
if ! uids=\$($JAVA -jar $JAR --game-server-uids $CONFIG); then
  echo "gamefleet-agent: no metadata rule: $CONFIG is refused (the agent says why, and runs no game server)" >&2
  exit 0
fi
# One chain of its own, replaced whole (iptables-restore: no moment without the rule), and a jump to it.
# TCP is answered with a reset (no ICMP rate limit can make a connection wait), anything else rejected.
rule() {
  chain='*filter\n:GAMEFLEET-METADATA - [0:0]
-A GAMEFLEET-METADATA -d %s -p tcp -m owner --uid-owner %s -j REJECT --reject-with tcp-reset
-A GAMEFLEET-METADATA -d %s -m owner --uid-owner %s -j REJECT\nCOMMIT\n'
  printf "\$chain" "\$2" "\$uids" "\$2" "\$uids" | "\$1-restore" --noflush
  "\$1" -w -C OUTPUT -j GAMEFLEET-METADATA 2>/dev/null || "\$1" -w -I OUTPUT 1 -j GAMEFLEET-METADATA
}
rule iptables 169.254.169.254/32
if [ -e /proc/net/if_inet6 ]; then rule ip6tables fd00:ec2::254/128; fi
echo "gamefleet-agent: the instance metadata refuses users \$uids (the game servers)" >&2
FIREWALL
}

write_firewall() {
  mkdir -p "$OPT_DIR"
  metadata_firewall > "$FIREWALL.tmp"
  mv "$FIREWALL.tmp" "$FIREWALL"
}

# The jar must be the stack's: its SHA-256 is the output AgentJarSha256.
check_jar() {
  local actual
  actual=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$actual" = "$AGENT_JAR_SHA256" ] && return
  say "the agent jar $2 has SHA-256 $actual, not AGENT_JAR_SHA256 $AGENT_JAR_SHA256 (the stack output" \
    "AgentJarSha256): it is not the stack's, and is neither installed nor started. Take AgentJarS3Uri and" \
    "AgentJarSha256 from the same deployment's outputs"
  return 1
}

# IMDSv2 only (the launch template sets HttpTokens=required): a session token, then the items.
imds_token=""
imds_session() {
  imds_token=$(curl -sfS --max-time 5 --retry 5 --retry-connrefused -X PUT "$IMDS_ENDPOINT/latest/api/token" \
    -H "X-aws-ec2-metadata-token-ttl-seconds: 300") || fail "no IMDSv2 token from $IMDS_ENDPOINT"
}
imds() {
  curl -sfS --max-time 5 --retry 3 -H "X-aws-ec2-metadata-token: $imds_token" "$IMDS_ENDPOINT/latest/meta-data/$1"
}

# placement/region; from the zone where the metadata has no such item (the local profile's).
region() {
  imds placement/region 2>/dev/null || { local zone; zone=$(imds placement/availability-zone) && echo "${zone%[a-z]}"; }
}

# A value written into the JSON file as it is: no quote, backslash or control character.
plain() {
  case "$2" in
    "") [ "$1" = ARCHIVE_BUCKET ] || fail "$1 is empty";;
    REPLACE-ME) fail "$1 is not set: fill it in at the top of this script (the stack output it names)";;
    *[!A-Za-z0-9._:/@%+=,~-]*) fail "$1 ($2) has a character that cannot go in agent.json";;
  esac
}

# A SHA-256 as sha256sum prints it.
sha256() {
  case "$2" in
    REPLACE-ME) fail "$1 is not set: fill it in at the top of this script (the stack output AgentJarSha256)";;
    *[!0-9a-f]*|"") fail "$1 ($2) is not a SHA-256: 64 lower-case hex digits, the stack output AgentJarSha256";;
  esac
  [ "${#2}" -eq 64 ] || fail "$1 ($2) is not a SHA-256: 64 lower-case hex digits, the stack output AgentJarSha256"
}

# Installs a package: its dnf name (Amazon Linux) or its apt name (Debian, Ubuntu).
packages() {
  if command -v dnf >/dev/null; then dnf install -y -q "$1"
  elif command -v apt-get >/dev/null; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2"
  else return 1; fi
}

install_agent() {
  plain AGENT_JAR_S3_URI "$AGENT_JAR_S3_URI"
  sha256 AGENT_JAR_SHA256 "$AGENT_JAR_SHA256"
  if [ ! -x "$JAVA" ]; then
    packages java-17-amazon-corretto-headless openjdk-17-jre-headless || fail "no Java 17 at $JAVA: install one or set JAVA"
  fi
  if [ "$METADATA_FIREWALL" != off ] && ! command -v iptables-restore >/dev/null; then
    packages iptables-nft iptables || fail "no iptables to close the instance metadata to the game servers: install it"
  fi
  case "$AGENT_JAR_S3_URI" in
    s3://*) command -v aws >/dev/null || packages awscli-2 awscli \
              || fail "no AWS CLI to copy $AGENT_JAR_S3_URI: install one, or bake the jar into the AMI (docs/agent.md)";;
  esac
  if ! id -u "$AGENT_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$STATE_DIR" --shell /sbin/nologin "$AGENT_USER"
  fi
  mkdir -p "$ETC_DIR" "$OPT_DIR" "$STATE_DIR" "$SERVERS_DIR"
  chown "$AGENT_USER": "$STATE_DIR" "$SERVERS_DIR"
  # The game servers' folders: each its own user's; the others may pass through to theirs, not list.
  chmod 0711 "$SERVERS_DIR"
  case "$AGENT_JAR_S3_URI" in
    s3://*) imds_session; aws s3 cp --only-show-errors --region "$(region)" "$AGENT_JAR_S3_URI" "$JAR.tmp";;
    file://*) cp "${AGENT_JAR_S3_URI#file://}" "$JAR.tmp";;
    *) cp "$AGENT_JAR_S3_URI" "$JAR.tmp";;
  esac
  check_jar "$JAR.tmp" "copied from $AGENT_JAR_S3_URI" || { rm -f "$JAR.tmp"; exit 1; }
  mv "$JAR.tmp" "$JAR"
  write_firewall
  mkdir -p "$(dirname "$UNIT_FILE")"
  unit > "$UNIT_FILE"
  say "installed $JAR (SHA-256 $AGENT_JAR_SHA256), $FIREWALL and $UNIT_FILE"
}

configure_instance() {
  local instance_id region archive=""
  plain API_ENDPOINT "$API_ENDPOINT"
  API_ENDPOINT="${API_ENDPOINT%/}"  # the SDK's endpoint: ApiUrl without its trailing / (docs/sdks.md)
  plain PUSH_ENDPOINT "$PUSH_ENDPOINT"
  plain GAME_SERVER_GROUP_NAME "$GAME_SERVER_GROUP_NAME"
  plain ARCHIVE_BUCKET "$ARCHIVE_BUCKET"
  imds_session
  instance_id=$(imds instance-id) || fail "cannot read the instance id from $IMDS_ENDPOINT"
  region=$(region) || fail "cannot read the region from $IMDS_ENDPOINT"
  plain instance-id "$instance_id"
  plain region "$region"
  if [ -n "$ARCHIVE_BUCKET" ]; then archive="\"archiveBucket\": \"$ARCHIVE_BUCKET\","; fi
  mkdir -p "$ETC_DIR"
  cat > "$CONFIG.tmp" <<CONFIG
{
  "gameServerGroupName": "$GAME_SERVER_GROUP_NAME",
  "instanceId": "$instance_id",
  "region": "$region",
  "apiEndpoint": "$API_ENDPOINT",
  "pushEndpoint": "$PUSH_ENDPOINT",
  "metadataEndpoint": "$IMDS_ENDPOINT",
  "workDirectory": "$STATE_DIR",
  "serversDirectory": "$SERVERS_DIR",
  "maxGameServersPerInstance": $MAX_GAME_SERVERS_PER_INSTANCE,
  $archive
$GAME_SERVER_CONFIG
}
CONFIG
  mv "$CONFIG.tmp" "$CONFIG"
  say "wrote $CONFIG for $instance_id in $region"
}

start_agent() {
  local init="$GAMEFLEET_INIT"
  # A baked image's jar, against the stack the user data names.
  if [ "$AGENT_JAR_SHA256" != REPLACE-ME ]; then
    sha256 AGENT_JAR_SHA256 "$AGENT_JAR_SHA256"
    check_jar "$JAR" "$JAR" || exit 1
  fi
  if [ "$init" = auto ]; then
    if [ -d /run/systemd/system ] && [ -z "$GAMEFLEET_ROOT" ]; then init=systemd; else init=loop; fi
  fi
  if [ "$init" = systemd ]; then
    systemctl daemon-reload
    systemctl enable --now gamefleet-agent.service
    say "started gamefleet-agent.service (journalctl -u gamefleet-agent)"
    return
  fi
  # No systemd (a container, a test): the rule now, then the same restarts, by a loop in a session of its own.
  if [ "$METADATA_FIREWALL" != off ] && [ "$(id -u)" != 0 ]; then
    fail "the metadata rule needs root; METADATA_FIREWALL=off only where the game servers cannot reach the metadata"
  fi
  /bin/sh "$FIREWALL"
  local as_user=()
  if [ "$(id -un)" != "$AGENT_USER" ]; then as_user=(runuser -u "$AGENT_USER" --); fi
  mkdir -p "$(dirname "$LOOP_LOG")" "$(dirname "$LOOP_PID")"
  cd "$STATE_DIR"
  nohup setsid "${as_user[@]}" /bin/sh -c '
    while :; do
      "$0" -jar "$1" "$2"
      code=$?
      if [ "$code" -eq 2 ]; then echo "gamefleet-agent: exit 2 (configuration or start error): not restarted" >&2; exit 2; fi
      echo "gamefleet-agent: exited $code; restarting in 1 s" >&2
      sleep 1
    done' "$JAVA" "$JAR" "$CONFIG" >> "$LOOP_LOG" 2>&1 < /dev/null &
  echo $! > "$LOOP_PID"
  say "started the agent under a restart loop, pid $(cat "$LOOP_PID"), log $LOOP_LOG"
}

for step in $GAMEFLEET_STEPS; do
  case "$step" in
    install) install_agent;;
    configure) configure_instance;;
    start) start_agent;;
    firewall) write_firewall; /bin/sh "$FIREWALL";;
    unit) unit;;
    *) fail "unknown step $step in GAMEFLEET_STEPS (install, configure, start, firewall, unit)";;
  esac
done
