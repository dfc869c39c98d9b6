"""A game server group through boto3's GameLift client, against the Gamefleet endpoint given.

Creates a group, waits until it is ACTIVE, registers two game servers, claims one, and provokes a
modelled error (client.exceptions.NotFoundException). Every request is also checked on the wire
(POST / with X-Amz-Target, the service of the SigV4 credential scope). Prints the group's name as
JSON; any mismatch ends the script with a non-zero exit code.

    python3 boto3_lifecycle.py --endpoint http://127.0.0.1:4590 [--signing-name execute-api | --gamefleet-cli]

--gamefleet-cli signs through the repository's cli/gamefleet_cli.py, which must be on PYTHONPATH.

Credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, the region is us-east-1.
"""
import argparse
import json
import re
import sys
import time
import uuid
from urllib.parse import urlsplit

import boto3
from botocore.config import Config


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--signing-name")
    parser.add_argument("--gamefleet-cli", action="store_true")
    args = parser.parse_args()

    gamelift = boto3.session.Session(region_name="us-east-1").client(
        "gamelift", endpoint_url=args.endpoint, config=Config(retries={"total_max_attempts": 1}))

    if args.signing_name:
        # docs/sdks.md's snippet for a deployment in AWS, where API Gateway wants `execute-api`.
        def sign_for_execute_api(request, **kwargs):
            request.context.setdefault("signing", {})["signing_name"] = args.signing_name

        gamelift.meta.events.register("before-sign.gamelift", sign_for_execute_api)

    if args.gamefleet_cli:
        # docs/sdks.md's one line for boto3: the AWS CLI plugin's handlers, on this client.
        import gamefleet_cli
        gamefleet_cli.register(gamelift.meta.events)

    expected_scope = "us-east-1/" + ("execute-api" if args.gamefleet_cli else args.signing_name or "gamelift")
    sent = []

    def spy(request, **kwargs):
        authorization = request.headers.get("Authorization", b"")
        if isinstance(authorization, bytes):
            authorization = authorization.decode()
        credential = re.search(r"Credential=([^,]+),", authorization)
        scope = "/".join(credential.group(1).split("/")[2:4]) if credential else ""
        target = request.headers.get("X-Amz-Target", b"")
        target = target.decode() if isinstance(target, bytes) else target
        sent.append((urlsplit(request.url).path or "/", target, scope))

    gamelift.meta.events.register("before-send.gamelift", spy)

    def check(operation):
        path, target, scope = sent[-1]
        if path != "/" or target != "GameLift." + operation or scope != expected_scope:
            sys.exit(f"boto3: {operation} went out as POST {path}, X-Amz-Target {target}, signed for {scope}")

    group = "boto3-" + uuid.uuid4().hex[:8]
    created = gamelift.create_game_server_group(
        GameServerGroupName=group, RoleArn="arn:aws:iam::123456789012:role/fleetiq", MinSize=1, MaxSize=2,
        LaunchTemplate={"LaunchTemplateName": group + "-lt"},
        InstanceDefinitions=[{"InstanceType": "c5.large"}, {"InstanceType": "m5.large"}])["GameServerGroup"]
    check("CreateGameServerGroup")
    if created["Status"] != "NEW" or not hasattr(created["CreationTime"], "year"):
        sys.exit(f"boto3: created {created}")

    deadline = time.monotonic() + 30
    status = created["Status"]
    while status != "ACTIVE":
        if status == "ERROR" or time.monotonic() > deadline:
            sys.exit(f"boto3: {group} is {status}, not ACTIVE")
        time.sleep(0.1)
        status = gamelift.describe_game_server_group(GameServerGroupName=group)["GameServerGroup"]["Status"]
        check("DescribeGameServerGroup")

    instances = []
    while not instances:
        if time.monotonic() > deadline:
            sys.exit(f"boto3: {group} has no instance")
        instances = gamelift.describe_game_server_instances(GameServerGroupName=group)["GameServerInstances"]
        check("DescribeGameServerInstances")

    # Game server ids are unique across all groups.
    first, second = group + "-match-1", group + "-match-2"
    for server in (first, second):
        gamelift.register_game_server(GameServerGroupName=group, GameServerId=server,
                                      InstanceId=instances[0]["InstanceId"], ConnectionInfo="127.0.0.1:7778")
        check("RegisterGameServer")

    claimed = gamelift.claim_game_server(GameServerGroupName=group, GameServerId=first)["GameServer"]
    check("ClaimGameServer")
    if claimed["ClaimStatus"] != "CLAIMED" or claimed["ConnectionInfo"] != "127.0.0.1:7778":
        sys.exit(f"boto3: claimed {claimed}")

    try:
        gamelift.describe_game_server_group(GameServerGroupName=group + "-missing")
        sys.exit("boto3: DescribeGameServerGroup of a missing group succeeded")
    except gamelift.exceptions.NotFoundException as e:
        check("DescribeGameServerGroup")
        error = e.response["Error"]
        status_code = e.response["ResponseMetadata"]["HTTPStatusCode"]
        if error["Code"] != "NotFoundException" or status_code != 400 or group + "-missing" not in error["Message"]:
            sys.exit(f"boto3: NotFoundException came as {status_code} {error}")

    print(json.dumps({"group": group, "scope": expected_scope, "requests": len(sent)}))


if __name__ == "__main__":
    main()
