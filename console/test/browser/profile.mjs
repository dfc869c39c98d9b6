// The local profile as `local/run --demo` runs it, in a process of its own under local/sidecar/tether.mjs
// (whose stdin is a pipe from this process: if the tests die, the profile stops too), and headless
// Chromium through playwright-core.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { GameLiftClient } from "@aws-sdk/client-gamelift";
import { Sha256 } from "@smithy/core/checksum";
import { HttpRequest } from "@smithy/core/transport";
import { SignatureV4 } from "@smithy/signature-v4";

const here = dirname(fileURLToPath(import.meta.url));
export const moduleDir = resolve(here, "../..");
const localHome = resolve(process.env.GAMEFLEET_LOCAL_HOME ?? join(moduleDir, "../local"));
const jar = resolve(process.env.GAMEFLEET_LOCAL_JAR ?? join(localHome, "target/gamefleet-local.jar"));
export const work = resolve(process.env.GAMEFLEET_CONSOLE_WORK ?? join(moduleDir, "target/browser-tests"));
export const screenshots = resolve(process.env.GAMEFLEET_CONSOLE_SCREENSHOTS ?? join(work, "screenshots"));

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];
export const CLAIM_TTL_SECONDS = 8;

/** Why the browser tests cannot run here, or null. */
export function missing() {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is not installed (Debian's chromium package; .ci/run installs it)`;
  if (!existsSync(jar)) return `${jar} is missing: build it first (mvn package -pl local -am)`;
  return null;
}

export async function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => ok(port));
    }).on("error", fail);
  });
}

/**
 * What the console's tests run: the demo, instances in service a second after launch, a short
 * claim, the balancer left to the page, and a stage sized for 5,000 game servers.
 */
export const DEMO_FLAGS = ["--demo", "--instance-launch-seconds", "1", "--claim-ttl-seconds", String(CLAIM_TTL_SECONDS),
  // The tests run the balancer from the page; its schedule stays out of their way.
  "--balancer-rate-seconds", "3600",
  // 5,000 game servers registered on the demo's instances, 16 at a time: a stage sized for them.
  "--max-game-servers-per-instance", "5000", "--expected-game-servers", "5000", "--claims-per-second", "1000"];

/** A running profile on `port` (`local/run` with `flags`, the demo's by default); stop() ends it and every child it started. */
export async function startProfile(port, name, flags = DEMO_FLAGS) {
  mkdirSync(work, { recursive: true });
  const log = join(work, `${name}.log`);
  const out = openSync(log, "w");
  const java = process.env.GAMEFLEET_JAVA ?? (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, "bin/java") : "java");
  const child = spawn("node", [join(localHome, "sidecar/tether.mjs"), java, "-jar", jar, "--port", String(port), ...flags], {
    cwd: localHome,
    stdio: ["pipe", out, out],
    env: profileEnvironment(),
  });
  const exited = new Promise((ok) => child.on("exit", (code) => ok(code)));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const code = await Promise.race([exited, new Promise((ok) => setTimeout(ok, 250, undefined))]);
    if (code !== undefined) throw new Error(`the local profile exited with ${code} while starting; see ${log}`);
    try {
      if ((await fetch(`${endpoint}/_local/health`, { signal: AbortSignal.timeout(2000) })).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.stdin.end();
      throw new Error(`the local profile was not healthy within 90 s; see ${log}`);
    }
  }
  return {
    endpoint,
    log,
    async stop() {
      child.stdin.end();
      const code = await Promise.race([exited, new Promise((ok) => setTimeout(ok, 30_000, "timeout"))]);
      if (code === "timeout") {
        child.kill("SIGKILL");
        throw new Error("the local profile did not stop within 30 s");
      }
    },
  };
}

/** The built-in admin is local-admin / local-admin-secret whatever this shell says. */
function profileEnvironment() {
  const env = { ...process.env, AWS_EC2_METADATA_DISABLED: "true", GAMEFLEET_LOCAL_HOME: localHome };
  delete env.GAMEFLEET_LOCAL_ACCESS_KEY_ID;
  delete env.GAMEFLEET_LOCAL_SECRET_ACCESS_KEY;
  return env;
}

export const ADMIN_KEYS = { accessKeyId: "local-admin", secretAccessKey: "local-admin-secret" };

/** The official client in Node, as the local admin: what the tests check the page against. */
export function apiClient(endpoint) {
  return new GameLiftClient({
    endpoint,
    region: "us-east-1",
    credentials: ADMIN_KEYS,
    maxAttempts: 1,
  });
}

/**
 * Gamefleet's own routes from Node, signed for execute-api by the SDK's SigV4 signer: what the
 * tests check the page's standby panel and sessions against. Answers `{ status, json }`.
 */
export function routesClient(endpoint, credentials = ADMIN_KEYS) {
  const signer = new SignatureV4({ service: "execute-api", region: "us-east-1", credentials, sha256: Sha256 });
  const url = new URL(endpoint);
  return async (method, path, body) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const signed = await signer.sign(new HttpRequest({ method, protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path,
      headers: { host: url.host, ...(text === undefined ? {} : { "content-type": "application/json" }) }, body: text }));
    const response = await fetch(endpoint + path, { method, headers: signed.headers, body: text });
    return { status: response.status, json: await response.json() };
  };
}
