#!/usr/bin/env python3
"""A light GSDK-protocol game server for the tests and the benchmark: it beats as the C++ and C# GSDKs
do (PascalCase keys, PATCH /v1/sessionHosts/{id}, one heartbeat a second and one at once on a state
change, a player in CurrentPlayers while Active), prints what it hears, and ends its match when the file given as its argument exists."""
import json
import os
import sys
import time
import urllib.error
import urllib.request

config = json.load(open(os.environ["GSDK_CONFIG_FILE"]))
base = "http://" + config["heartbeatEndpoint"]
url = base + "/v1/sessionHosts/" + config["sessionHostId"]
end_file = sys.argv[1]


def call(method, to, body):
    request = urllib.request.Request(to, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=1) as response:
            return json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as e:
        print("REFUSED", e.code, e.read().decode(), flush=True)
    except OSError as e:
        print("agent unreachable:", e, flush=True)
    return None


def beat(state):
    players = [{"PlayerId": "pascal-1"}] if state == "Active" else []
    reply = call("PATCH", url, {"CurrentGameState": state, "CurrentGameHealth": "Healthy", "CurrentPlayers": players})
    if reply and "nextScheduledMaintenanceUtc" in reply:
        print("MAINTENANCE", reply["nextScheduledMaintenanceUtc"], flush=True)
    return reply


call("POST", base + "/v1/metrics/" + config["sessionHostId"] + "/gsdkinfo", {"Flavor": "Python", "Version": "test"})
beat("Initializing")
state = "StandingBy"
while True:
    reply = beat(state) or {}
    operation = reply.get("operation")
    if operation == "Terminate":
        print("TERMINATE", flush=True)
        beat("Terminated")
        sys.exit(0)
    if operation == "Active" and state != "Active":
        state = "Active"
        print("ACTIVE cookie=" + reply.get("sessionConfig", {}).get("sessionCookie", ""), flush=True)
        print("SESSION id=" + reply.get("sessionConfig", {}).get("sessionId", "") + " players="
              + ",".join(reply.get("sessionConfig", {}).get("initialPlayers", [])), flush=True)
        continue
    if state == "Active" and os.path.exists(end_file):
        print("MATCH OVER", flush=True)
        beat("Terminated")
        sys.exit(0)
    time.sleep(reply.get("nextHeartbeatIntervalMs", 1000) / 1000)
