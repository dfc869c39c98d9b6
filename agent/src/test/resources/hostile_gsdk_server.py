#!/usr/bin/env python3
"""A compromised game server for the isolation tests. Under the agent it beats as the scripted GSDK
server does (StandingBy), prints what it was given (its environment, ids and capabilities), then,
once the test names its targets in the JSON file given as its argument, tries what an attacker in it
would: to read each path, to heartbeat each session host id as Terminated, and to call each HTTP
endpoint. It prints what it got."""
import json
import os
import sys
import time
import urllib.error
import urllib.request

config = json.load(open(os.environ["GSDK_CONFIG_FILE"]))
base = "http://" + config["heartbeatEndpoint"]
targets_file = sys.argv[1]


def beat(session_host_id, state):
    request = urllib.request.Request(base + "/v1/sessionHosts/" + session_host_id, method="PATCH",
                                     data=json.dumps({"CurrentGameState": state}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return [response.status, json.loads(response.read() or b"{}")]
    except urllib.error.HTTPError as e:
        return [e.code, json.loads(e.read() or b"{}")]
    except OSError as e:
        return [0, str(e)]


def fetched(method, url):
    """The status an HTTP request got (0: no connection), as an attacker would try the endpoints it can reach."""
    request = urllib.request.Request(url, method=method, headers={"X-aws-ec2-metadata-token-ttl-seconds": "60"})
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


def tried(path):
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        return "read"
    except OSError as e:
        return type(e).__name__


status = {line.split(":")[0]: line.split(":", 1)[1].strip() for line in open("/proc/self/status")
          if line.startswith(("Cap", "Uid", "Gid", "Groups", "NoNewPrivs"))}
print("GIVEN " + json.dumps({"env": dict(os.environ), "status": status}), flush=True)
own = config["sessionHostId"]
beat(own, "Initializing")
while not os.path.exists(targets_file):
    beat(own, "StandingBy")
    time.sleep(0.5)
targets = json.load(open(targets_file))
print("TRIED " + json.dumps({"read": {p: tried(p) for p in targets["read"]},
                             "beat": {s: beat(s, "Terminated") for s in targets["sessions"]},
                             "http": {m + " " + u: fetched(m, u) for m, u in targets.get("http", [])}}), flush=True)
while True:
    beat(own, "StandingBy")
    time.sleep(0.5)
