// A peer region's API for the browser tests, on a loopback port of its own: what API Gateway in front
// of eu-west-1's stage answers a console, as far as the console reads it. Until the local profile
// runs several regions (local/run --regions), no profile of main's answers as another region, so
// this stands in for one: real HTTP on a socket; CORS as the stack's consoleOrigins configure it
// (infra's Api.cors: a preflight answered for the admitted origin only, the header on every answer);
// every request's SigV4 signature checked for execute-api in eu-west-1 with the built-in admin's
// keys; a fixed fleet (two groups, their instances, game servers and one session placed here).
import { createServer } from "node:http";
import { Sha256 } from "@smithy/core/checksum";
import { HttpRequest } from "@smithy/core/transport";
import { SignatureV4 } from "@smithy/signature-v4";
import { ADMIN_KEYS } from "./profile.mjs";

export const PEER_REGION = "eu-west-1";

/** API Gateway's CORS as infra's Api.cors configures it for consoleOrigins. */
const ALLOW_METHODS = "GET,POST,PUT,PATCH,DELETE";
const ALLOW_HEADERS = ["authorization", "content-type", "x-amz-date", "x-amz-security-token", "x-amz-target",
  "x-amz-user-agent", "x-amz-content-sha256", "amz-sdk-invocation-id", "amz-sdk-request", "smithy-protocol"];
const EXPOSE_HEADERS = "x-amzn-requestid,x-amzn-errortype";

const now = Math.floor(Date.now() / 1000);
const group = (name) => ({
  GameServerGroupName: name,
  GameServerGroupArn: `arn:aws:gamelift:${PEER_REGION}:000000000000:gameservergroup/${name}`,
  RoleArn: "arn:aws:iam::000000000000:role/fleetiq",
  InstanceDefinitions: [{ InstanceType: "c5.large" }, { InstanceType: "m5.large" }],
  BalancingStrategy: "SPOT_PREFERRED",
  GameServerProtectionPolicy: "NO_PROTECTION",
  Status: "ACTIVE",
  SuspendedActions: [],
  CreationTime: now - 600,
  LastUpdatedTime: now - 600,
});
/** The peer's fleet: a group named as the home's demo, and one of its own. */
export const PEER_FLEET = {
  groups: [group("demo"), group("arena")],
  instances: [
    { GameServerGroupName: "demo", InstanceId: "i-0eu0000000000001", InstanceStatus: "ACTIVE", InstanceType: "c5.large", LaunchTime: now - 600 },
    { GameServerGroupName: "demo", InstanceId: "i-0eu0000000000002", InstanceStatus: "ACTIVE", InstanceType: "m5.large", LaunchTime: now - 600 },
  ],
  servers: [
    { GameServerGroupName: "demo", GameServerId: "eu-server-1", InstanceId: "i-0eu0000000000001", ConnectionInfo: "127.0.0.1:7001",
      ClaimStatus: "CLAIMED", UtilizationStatus: "UTILIZED", RegistrationTime: now - 500, LastClaimTime: now - 60, LastHealthCheckTime: now - 5,
      InstanceStatus: "ACTIVE" },
    { GameServerGroupName: "demo", GameServerId: "eu-server-2", InstanceId: "i-0eu0000000000002", ConnectionInfo: "127.0.0.1:7002",
      UtilizationStatus: "AVAILABLE", RegistrationTime: now - 500, LastHealthCheckTime: now - 5, InstanceStatus: "ACTIVE" },
  ],
  sessions: [
    { SessionId: "placed-in-eu-west-1", GameServerGroupName: "demo", Region: PEER_REGION, State: "ACTIVE", GameServerId: "eu-server-1",
      InstanceId: "i-0eu0000000000001", CreationTime: now - 60, ConnectedPlayers: 2, InitialPlayers: ["p1", "p2"], PlayerIds: ["p1", "p2"] },
  ],
};

/** The GameLift operations the console reads (AWS JSON 1.1, POST / with X-Amz-Target). */
function operation(target, input) {
  const inGroup = (list) => list.filter((x) => x.GameServerGroupName === input.GameServerGroupName);
  const known = PEER_FLEET.groups.find((g) => g.GameServerGroupName === input.GameServerGroupName);
  switch (target) {
    case "GameLift.ListGameServerGroups":
      return [200, { GameServerGroups: PEER_FLEET.groups }];
    case "GameLift.DescribeGameServerGroup":
      return known ? [200, { GameServerGroup: known }] : [400, { __type: "NotFoundException", Message: `no group ${input.GameServerGroupName}` }];
    case "GameLift.DescribeGameServerInstances":
      return [200, { GameServerInstances: inGroup(PEER_FLEET.instances) }];
    case "GameLift.ListGameServers":
      return [200, { GameServers: inGroup(PEER_FLEET.servers) }];
    default:
      return [400, { __type: "UnsupportedOperation", Message: `the stub peer does not serve ${target}` }];
  }
}

/** Gamefleet's own routes the group view reads (the standby panel's probe PUT is refused as an ADMIN's is). */
function route(method, path) {
  const match = /^\/game-server-groups\/([^/]+)\/(sessions|standby|claim-strategy|summary|metrics)$/.exec(path);
  if (!match) return [404, { message: "Not Found" }];
  const [, name, what] = match;
  // No balancer run of the stand-in gave CloudWatch a count.
  if (what === "metrics" && method === "GET") return [200, { Period: 60, GameServers: [] }];
  if (what === "summary" && method === "GET") {
    const known = PEER_FLEET.groups.find((g) => g.GameServerGroupName === decodeURIComponent(name));
    if (!known) return [404, { __type: "NotFoundException", Message: `no group ${decodeURIComponent(name)}` }];
    // As a balancer run a minute ago counted its servers (all AVAILABLE on ACTIVE instances here).
    const servers = PEER_FLEET.servers.filter((s) => s.GameServerGroupName === known.GameServerGroupName).length;
    return [200, { GameServerGroup: known, Summary: { AsOf: now - 60, GameServers: servers, Available: servers, Utilized: 0,
      DrainingAvailable: 0, DrainingUtilized: 0, PercentUtilized: 0, Claimable: servers, Claimed: 0, OnSpotTerminating: 0 } }];
  }
  if (what === "sessions" && method === "GET") {
    return [200, { Sessions: PEER_FLEET.sessions.filter((s) => s.GameServerGroupName === decodeURIComponent(name)) }];
  }
  if (what === "standby" && method === "GET") return [200, { StandbyPolicy: { StandingBy: 1, RampDownSeconds: 1800, ScaleInCooldownSeconds: 300 } }];
  if (what === "standby" && method === "PUT") return [400, { __type: "InvalidRequestException", Message: "StandingBy: is required" }];
  if (what === "claim-strategy" && method === "GET") return [200, { ClaimStrategy: "FLEETIQ" }];
  return [404, { message: "Not Found" }];
}

/** Whether the request is signed for execute-api in the peer's region by the admin's keys: its signature computed again. */
async function signatureHolds(request, url, body) {
  const authorization = request.headers.authorization ?? "";
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/
    .exec(authorization);
  if (!parts) return `not SigV4: ${authorization}`;
  const [, key, , region, service, signedHeaders] = parts;
  if (key !== ADMIN_KEYS.accessKeyId || region !== PEER_REGION || service !== "execute-api") {
    return `signed by ${key} for ${service} in ${region}`;
  }
  const date = request.headers["x-amz-date"] ?? "";
  const signingDate = new Date(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));
  const headers = Object.fromEntries(signedHeaders.split(";").map((h) => [h, request.headers[h]]));
  const signer = new SignatureV4({ service: "execute-api", region: PEER_REGION, credentials: ADMIN_KEYS, sha256: Sha256 });
  const again = await signer.sign(new HttpRequest({ method: request.method, protocol: "http:", hostname: url.hostname, port: Number(url.port),
    path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body: body || undefined }), { signingDate });
  return again.headers.authorization === authorization ? null : `the signature does not hold for ${request.method} ${url.pathname}`;
}

/**
 * The peer, listening; `consoleOrigin` is the one origin its CORS admits (the home's console).
 * stall() holds every request from then on unanswered, as a region that does not answer;
 * answer() lets it answer again.
 */
export async function startPeer(consoleOrigin) {
  const seen = [];
  const refused = [];
  let stalled = false;
  const held = new Set();
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url, `http://${request.headers.host}`);
    seen.push({ method: request.method, path: url.pathname, origin: request.headers.origin, target: request.headers["x-amz-target"] });
    if (stalled) {
      held.add(response);
      response.on("close", () => held.delete(response));
      return;
    }
    const origin = request.headers.origin;
    const admitted = origin === consoleOrigin;
    const cors = admitted ? { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSE_HEADERS, vary: "Origin" } : {};
    if (request.method === "OPTIONS") {
      const asked = (request.headers["access-control-request-headers"] ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
      const refusedHeaders = asked.filter((h) => !ALLOW_HEADERS.includes(h));
      if (!admitted || refusedHeaders.length) {
        refused.push(`preflight from ${origin} asking for ${asked.join(",")}`);
        response.writeHead(204).end(); // API Gateway answers it without the CORS headers: the browser refuses
        return;
      }
      response.writeHead(204, { ...cors, "access-control-allow-methods": ALLOW_METHODS, "access-control-allow-headers": ALLOW_HEADERS.join(","),
        "access-control-max-age": "3600" }).end();
      return;
    }
    const problem = await signatureHolds(request, url, body);
    if (problem) {
      refused.push(problem);
      response.writeHead(403, { ...cors, "content-type": "application/json" }).end(JSON.stringify({ message: "Forbidden" }));
      return;
    }
    const target = request.headers["x-amz-target"];
    const [status, answer] = request.method === "POST" && url.pathname === "/" && target
      ? operation(target, body ? JSON.parse(body) : {})
      : route(request.method, url.pathname);
    const type = target ? "application/x-amz-json-1.1" : "application/json";
    response.writeHead(status, { ...cors, "content-type": type, ...(answer.__type ? { "x-amzn-errortype": answer.__type } : {}) })
      .end(JSON.stringify(answer));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const endpoint = `http://127.0.0.1:${server.address().port}`;
  return {
    endpoint,
    /** Every request it was sent: method, path, Origin, X-Amz-Target. */
    seen,
    /** What it refused: a signature that does not hold, a preflight it does not admit. */
    refused,
    stall() {
      stalled = true;
    },
    answer() {
      stalled = false;
      for (const response of held) response.destroy();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}
