// A short game server lifecycle through the official AWS SDK for JavaScript v3 GameLift client,
// against the Gamefleet endpoint given: create a group, wait until it is ACTIVE, register a game
// server, claim it, report it UTILIZED, deregister it, see a modelled error (NotFoundException), and
// delete the group. Every request is also checked on the wire: the protocol's path and headers, and
// the service of the SigV4 credential scope. Any mismatch ends the script with a non-zero exit code.
//
//   node lifecycle.mjs --endpoint http://127.0.0.1:4590 [--protocol json|cbor] [--signing-name execute-api]
//
// Credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, the region is us-east-1.
import {
  ClaimGameServerCommand,
  CreateGameServerGroupCommand,
  DeleteGameServerGroupCommand,
  DeregisterGameServerCommand,
  DescribeGameServerCommand,
  DescribeGameServerGroupCommand,
  DescribeGameServerInstancesCommand,
  GameLiftClient,
  GameLiftServiceException,
  NotFoundException,
  RegisterGameServerCommand,
  UpdateGameServerCommand,
} from "@aws-sdk/client-gamelift";
import { AwsSmithyRpcV2CborProtocol } from "@aws-sdk/core/protocols";
import { parseArgs } from "node:util";

const { values: options } = parseArgs({
  options: {
    endpoint: { type: "string" },
    protocol: { type: "string", default: "json" },
    "signing-name": { type: "string" },
  },
});
if (!options.endpoint || !["json", "cbor"].includes(options.protocol)) {
  console.error("usage: node lifecycle.mjs --endpoint URL [--protocol json|cbor] [--signing-name NAME]");
  process.exit(2);
}

function fail(message) {
  console.error(`lifecycle (${options.protocol}): ${message}`);
  process.exit(1);
}

function expect(condition, message) {
  if (!condition) {
    fail(message);
  }
}

const config = {
  region: "us-east-1",
  endpoint: options.endpoint,
  credentials: {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID,
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,
  },
  maxAttempts: 1,
};
if (options.protocol === "cbor") {
  // The client speaks AWS JSON 1.1 unless told otherwise; its `protocol` option selects RPC v2 CBOR.
  config.protocol = AwsSmithyRpcV2CborProtocol;
}
if (options["signing-name"]) {
  // docs/sdks.md's snippet for a deployment in AWS, where API Gateway wants `execute-api`.
  config.signingName = options["signing-name"];
}
const gamelift = new GameLiftClient(config);

// What went over the wire: each request as the client signed and sent it.
const sent = [];
gamelift.middlewareStack.add(
  (next) => async (args) => {
    const request = args.request;
    const credential = /Credential=([^,]+),/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    sent.push({
      path: request.path,
      target: request.headers["x-amz-target"],
      protocol: request.headers["smithy-protocol"],
      contentType: request.headers["content-type"],
      scope: credential.split("/").slice(2, 4).join("/"),
    });
    return next(args);
  },
  { step: "finalizeRequest", priority: "low", name: "gamefleetWireSpy" },
);

const group = `js-${options.protocol}-${Math.random().toString(36).slice(2, 10)}`;
// Game server ids are unique across all groups.
const server = `${group}-match-1`;
const expectedScope = `us-east-1/${options["signing-name"] ?? "gamelift"}`;

async function send(operation, command) {
  const before = sent.length;
  let result;
  let error;
  try {
    result = await gamelift.send(command);
  } catch (e) {
    error = e;
  }
  const request = sent[before];
  expect(request, `${operation}: nothing was sent (${error})`);
  expect(request.scope === expectedScope, `${operation}: signed for ${request.scope}, not ${expectedScope}`);
  if (options.protocol === "json") {
    expect(request.path === "/", `${operation}: sent to ${request.path}, not /`);
    expect(request.target === `GameLift.${operation}`, `${operation}: X-Amz-Target ${request.target}`);
    expect(request.contentType === "application/x-amz-json-1.1", `${operation}: Content-Type ${request.contentType}`);
  } else {
    expect(request.path === `/service/GameLift/operation/${operation}`, `${operation}: sent to ${request.path}`);
    expect(request.protocol === "rpc-v2-cbor", `${operation}: smithy-protocol ${request.protocol}`);
    expect(request.target === undefined, `${operation}: X-Amz-Target ${request.target} on a CBOR request`);
    expect(request.contentType === "application/cbor", `${operation}: Content-Type ${request.contentType}`);
  }
  if (error) {
    throw error;
  }
  return result;
}

const created = await send(
  "CreateGameServerGroup",
  new CreateGameServerGroupCommand({
    GameServerGroupName: group,
    RoleArn: "arn:aws:iam::123456789012:role/fleetiq",
    MinSize: 1,
    MaxSize: 2,
    LaunchTemplate: { LaunchTemplateName: `${group}-lt` },
    InstanceDefinitions: [{ InstanceType: "c5.large" }, { InstanceType: "m5.large" }],
  }),
);
expect(created.GameServerGroup.Status === "NEW", `created as ${created.GameServerGroup.Status}`);
expect(created.GameServerGroup.CreationTime instanceof Date, "CreationTime is not a Date");
expect(Math.abs(created.GameServerGroup.CreationTime.getTime() - Date.now()) < 60_000, "CreationTime is not now");

// Activation takes a couple of seconds: poll with a deadline.
const deadline = Date.now() + 30_000;
let status = created.GameServerGroup.Status;
while (status !== "ACTIVE") {
  expect(status !== "ERROR", `${group} went to ERROR`);
  expect(Date.now() < deadline, `${group} not ACTIVE within 30 s (${status})`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  status = (await send("DescribeGameServerGroup", new DescribeGameServerGroupCommand({ GameServerGroupName: group })))
    .GameServerGroup.Status;
}

let instance;
while (!instance) {
  expect(Date.now() < deadline, `${group} has no instance within 30 s`);
  const instances = await send(
    "DescribeGameServerInstances",
    new DescribeGameServerInstancesCommand({ GameServerGroupName: group }),
  );
  instance = instances.GameServerInstances[0]?.InstanceId;
}

const registered = await send(
  "RegisterGameServer",
  new RegisterGameServerCommand({
    GameServerGroupName: group,
    GameServerId: server,
    InstanceId: instance,
    ConnectionInfo: "localhost:7777",
  }),
);
expect(registered.GameServer.UtilizationStatus === "AVAILABLE", "registered, but not AVAILABLE");

const claimed = await send(
  "ClaimGameServer",
  new ClaimGameServerCommand({ GameServerGroupName: group, GameServerData: "map=dunes" }),
);
expect(claimed.GameServer.GameServerId === server, `claimed ${claimed.GameServer.GameServerId}`);
expect(claimed.GameServer.ClaimStatus === "CLAIMED", `claim status ${claimed.GameServer.ClaimStatus}`);
expect(claimed.GameServer.ConnectionInfo === "localhost:7777", "claimed without its ConnectionInfo");
expect(claimed.GameServer.LastClaimTime instanceof Date, "LastClaimTime is not a Date");

const utilized = await send(
  "UpdateGameServer",
  new UpdateGameServerCommand({ GameServerGroupName: group, GameServerId: server, UtilizationStatus: "UTILIZED" }),
);
expect(utilized.GameServer.UtilizationStatus === "UTILIZED", "not UTILIZED after the update");

await send("DeregisterGameServer", new DeregisterGameServerCommand({ GameServerGroupName: group, GameServerId: server }));

try {
  await send("DescribeGameServer", new DescribeGameServerCommand({ GameServerGroupName: group, GameServerId: server }));
  fail("DescribeGameServer of a deregistered game server succeeded");
} catch (e) {
  expect(e instanceof NotFoundException, `expected NotFoundException, got ${e.name}: ${e.message}`);
  expect(e instanceof GameLiftServiceException, "NotFoundException is not a GameLiftServiceException");
  expect(e.$fault === "client", `NotFoundException's fault is ${e.$fault}`);
  expect(e.$metadata.httpStatusCode === 400, `NotFoundException came with ${e.$metadata.httpStatusCode}`);
  expect(e.message.includes(server), `NotFoundException's message: ${e.message}`);
}

const deleted = await send(
  "DeleteGameServerGroup",
  new DeleteGameServerGroupCommand({ GameServerGroupName: group, DeleteOption: "FORCE_DELETE" }),
);
expect(deleted.GameServerGroup.Status === "DELETE_SCHEDULED", `deleted as ${deleted.GameServerGroup.Status}`);

console.log(JSON.stringify({ protocol: options.protocol, scope: expectedScope, group, requests: sent.length }));
