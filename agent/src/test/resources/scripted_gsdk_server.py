#!/usr/bin/env python3
"""A light GSDK-protocol game server for the tests and the benchmark: it beats as the C++ GSDK does
(PascalCase keys, PATCH /v1/sessionHosts/{id} on one kept connection, the reply's interval but at
least a second, and at once on a state change), or with a second argument `java` as the Java GSDK
times its beats (the reply's interval, however short); it sends a player in CurrentPlayers while
Active, prints what it hears, and ends its match when the file given as its first argument exists."""
import http.client
import json
import os
import sys
import time

config = json.load(open(os.environ["GSDK_CONFIG_FILE"]))
host, port = config["heartbeatEndpoint"].rsplit(":", 1)
url = "/v1/sessionHosts/" + config["sessionHostId"]
end_file = sys.argv[1]
interval_floor_ms = 0 if sys.argv[2:] == ["java"] else 1000
connection = None


def call(method, to, body):
    """One request on the kept connection; one the agent has closed (a restart) is opened again once."""
    global connection
    for attempt in (1, 2):
        try:
            if connection is None:
                connection = http.client.HTTPConnection(host, int(port), timeout=1)
            connection.request(method, to, body=json.dumps(body), headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            data = response.read()
            if response.status >= 400:
                print("REFUSED", response.status, data.decode(), flush=True)
                return None
            return json.loads(data or b"{}")
        except (OSError, http.client.HTTPException) as e:
            if connection is not None:
                connection.close()
            connection = None
            if attempt == 2:
                print("agent unreachable:", e, flush=True)
    return None


def beat(state):
    players = [{"PlayerId": "pascal-1"}] if state == "Active" else []
    reply = call("PATCH", url, {"CurrentGameState": state, "CurrentGameHealth": "Healthy", "CurrentPlayers": players})
    if reply and "nextScheduledMaintenanceUtc" in reply:
        print("MAINTENANCE", reply["nextScheduledMaintenanceUtc"], flush=True)
    return reply


call("POST", "/v1/metrics/" + config["sessionHostId"] + "/gsdkinfo", {"Flavor": "Python", "Version": "test"})
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
    time.sleep(max(interval_floor_ms, reply.get("nextHeartbeatIntervalMs", 1000)) / 1000)
