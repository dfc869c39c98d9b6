// The console in headless Chromium against a real `local/run --demo`: what issue 22's Tests list.
// Each test leaves the page where the next one starts; the screenshots of docs/console.md are taken here.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  DescribeGameServerCommand,
  DescribeGameServerInstancesCommand,
  ListGameServerGroupsCommand,
  RegisterGameServerCommand,
} from "@aws-sdk/client-gamelift";
import { chromium } from "playwright-core";
import { apiClient, CHROMIUM, CHROMIUM_FLAGS, freePort, missing, screenshots, startProfile } from "./profile.mjs";

/**
 * The API calls of the page's next `refreshes` refreshes, each refresh's as "METHOD path" (the JSON
 * door's with its X-Amz-Target): every request to the profile but the page's own files, split where
 * the indicator's count of ended refreshes moves.
 */
async function countCalls(page, port, refreshes) {
  const events = [];
  const name = `__refreshed${Math.random().toString(36).slice(2)}`;
  await page.exposeFunction(name, (n) => events.push({ refreshed: n }));
  const listen = (r) => {
    const url = new URL(r.url());
    if (url.port !== String(port) || url.pathname.startsWith("/console/")) return;
    events.push({ call: `${r.method()} ${url.pathname}${r.headers()["x-amz-target"] ? ` ${r.headers()["x-amz-target"].split(".").pop()}` : ""}` });
  };
  const start = Number(await page.locator("#connection").getAttribute("data-refreshes"));
  await page.evaluate((fn) => {
    const indicator = document.querySelector("#connection");
    new MutationObserver(() => window[fn](Number(indicator.dataset.refreshes))).observe(indicator, { attributeFilter: ["data-refreshes"] });
  }, name);
  // From the end of a refresh: the next one's calls come after it.
  await page.waitForFunction((n) => Number(document.querySelector("#connection").dataset.refreshes) > n, start, WAIT);
  page.on("request", listen);
  events.length = 0;
  while (events.filter((e) => e.refreshed).length < refreshes) await new Promise((ok) => setTimeout(ok, 100));
  page.off("request", listen);
  const out = [[]];
  for (const e of events) {
    if (e.refreshed) out.push([]);
    else out.at(-1).push(e.call);
  }
  return out.slice(0, refreshes);
}

/** What a hidden tab's document says, as Chromium says it when the tab is in the background. */
async function setVisibility(page, state) {
  await page.evaluate((s) => {
    Object.defineProperty(document, "visibilityState", { value: s, configurable: true });
    Object.defineProperty(document, "hidden", { value: s === "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

// Where Chromium or the jar is missing, the suite is skipped, saying why.
const skip = missing();
const WAIT = { timeout: 30_000 };

describe("the console against local/run --demo", { skip: skip ?? false }, () => {
  let port;
  let profile;
  let browser;
  let page;
  let api;
  const foreign = [];
  const pageErrors = [];
  // What the page's Content-Security-Policy refused: Chromium says so on the console.
  const refusedByPolicy = [];

  before(async () => {
    mkdirSync(screenshots, { recursive: true });
    port = await freePort();
    profile = await startProfile(port, "profile");
    api = apiClient(profile.endpoint);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("request", (r) => {
      if (!r.url().startsWith(`http://127.0.0.1:${port}/`) && !r.url().startsWith("data:")) foreign.push(r.url());
    });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) refusedByPolicy.push(m.text()); });
  });

  after(async () => {
    await browser?.close();
    await profile?.stop();
  });

  const shot = (name, target = page, options = {}) => target.screenshot({ path: join(screenshots, `${name}.png`), ...options });

  test("the demo group appears, ACTIVE, with its instances", async () => {
    const response = await page.goto(`${profile.endpoint}/console/`);
    const policy = response.headers()["content-security-policy"];
    assert.match(policy, /script-src 'self'/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.equal(response.headers()["x-frame-options"], "DENY");
    assert.equal(response.headers()["x-content-type-options"], "nosniff");
    const row = page.locator('#groups tr[data-group="demo"]');
    await row.locator(".status", { hasText: "ACTIVE" }).waitFor(WAIT);
    await page.waitForFunction(() => Number(document.querySelector('#groups tr[data-group="demo"] td.num')?.textContent) >= 2, null, WAIT);
    await shot("groups");
  });

  test("a group shows its instances by type and status, its counts as each balancer run gave them, and a page opened later the history at once", async () => {
    await page.locator('#groups a[href="#/groups/demo"]').click();
    await page.locator('#fleet .tile[data-status="ACTIVE"]').first().waitFor(WAIT);
    assert.ok(await page.locator("#fleet .tile").count() >= 2);
    const line = '[data-chart="Utilization (PercentUtilized)"] path[data-line="PercentUtilized"]';
    const points = () => page.evaluate((l) => Number(document.querySelector(l)?.dataset.points ?? 0), line);
    // Each balancer run counts the group (the tests leave its schedule to the page): a point each.
    for (let run = 1; run <= 3; run++) {
      await page.locator("#run-balancer").click();
      await page.waitForFunction(([l, n]) => Number(document.querySelector(l)?.dataset.points) >= n, [line, run], WAIT);
    }
    await page.locator('#group-summary [data-item="Counts as of"]').waitFor(WAIT);
    assert.equal(await page.locator('[data-chart="Utilization (PercentUtilized)"] path[data-line]').count(), 1, "one utilization figure");
    assert.match(await page.locator('#group-summary [data-item="Utilization"]').getAttribute("title"), /PercentUtilized/);
    assert.match(await page.locator("#health-note").textContent(), /10-minute health lease/);
    // A page opened now shows the runs before it at once: the profile's metrics are its history.
    await page.reload();
    await page.locator('#connection[data-refreshes="1"]').waitFor(WAIT);
    assert.ok(await points() >= 3, `after the first refresh of a new page: ${await points()} points`);
    await page.locator("#servers tbody tr").first().waitFor(WAIT);
    // The standby panel's reads come one a refresh after the history's: the picture waits for them.
    await page.locator('#standby-evaluation [data-item="Evaluated"]').waitFor(WAIT);
    await shot("group", page, { fullPage: true });
  });

  test("a claim from the page claims a game server, which the API shows claimed, and its game server plays", async () => {
    await page.fill('#claim input[name="data"]', "map=dunes");
    await page.locator('#claim button[type="submit"]').click();
    const id = await page.locator("#claimed-id").textContent(WAIT);
    const described = await api.send(new DescribeGameServerCommand({ GameServerGroupName: "demo", GameServerId: id }));
    // CLAIMED, or already UTILIZED: the demo game server's agent can mark it so within a second of the claim.
    assert.ok(described.GameServer.ClaimStatus === "CLAIMED" || described.GameServer.UtilizationStatus === "UTILIZED",
      JSON.stringify(described.GameServer));
    assert.equal(described.GameServer.GameServerData, "map=dunes");
    await page.locator("#claimed-status", { hasText: /CLAIMED|UTILIZED/ }).waitFor(WAIT);
    await shot("claim", page.locator("#claim"));
    // The demo game server under the agent is told Active by its next heartbeat: the agent marks it UTILIZED.
    await page.locator("#claimed-status", { hasText: "UTILIZED" }).waitFor(WAIT);
  });

  test("a refused create shows the API's message and changes nothing", async () => {
    await page.goto(`${profile.endpoint}/console/#/`);
    await page.locator('#groups tr[data-group="demo"]').waitFor(WAIT);
    const before = (await api.send(new ListGameServerGroupsCommand({}))).GameServerGroups.map((g) => g.GameServerGroupName);
    await page.fill('#create-group input[name="name"]', "refused");
    await page.fill('#create-group input[name="min"]', "5");
    await page.fill('#create-group input[name="max"]', "2");
    await page.locator('#create-group button[type="submit"]').click();
    const error = page.locator("#create-group .error");
    await error.waitFor(WAIT);
    const text = await error.textContent();
    assert.match(text, /InvalidRequestException \(400\)/);
    assert.match(text, /MinSize/);
    const after = (await api.send(new ListGameServerGroupsCommand({}))).GameServerGroups.map((g) => g.GameServerGroupName);
    assert.deepEqual(after, before);
    assert.equal(await page.locator('#groups tr[data-group="refused"]').count(), 0);
  });

  test("an injected interruption shows instances SPOT_TERMINATING, then DRAINING, and their replacements", async () => {
    // Two instances of each type (the simulated fleet rotates types), so one interruption makes
    // c5.large not viable (1 in 2, above the 0.2 threshold) and the other c5.large drains.
    await page.fill('#create-group input[name="name"]', "arena");
    await page.fill('#create-group input[name="min"]', "4");
    await page.fill('#create-group input[name="max"]', "8");
    await page.fill('#create-group input[name="types"]', "c5.large, m5.large");
    await page.locator('#create-group button[type="submit"]').click();
    await page.locator("#create-group .ok").waitFor(WAIT);
    await page.locator('#groups tr[data-group="arena"] .status', { hasText: "ACTIVE" }).waitFor(WAIT);
    await page.locator('#groups a[href="#/groups/arena"]').click();
    const tiles = (type, status) => page.locator(`#fleet .type[data-type="${type}"] .tile${status ? `[data-status="${status}"]` : ""}`);
    await page.locator("#run-balancer").click(); // records every instance the scaling group launched
    await page.waitForFunction(() => document.querySelectorAll('#fleet .tile[data-status="ACTIVE"]').length === 4, null, WAIT);
    assert.equal(await tiles("c5.large").count(), 2);

    const victim = tiles("c5.large").first();
    const victimId = await victim.getAttribute("data-instance");
    await victim.focus();
    await page.keyboard.press("Enter"); // selects the instance
    await page.locator("#interrupt-selected").click();
    await page.locator(`#fleet .tile[data-instance="${victimId}"][data-status="SPOT_TERMINATING"]`).waitFor(WAIT);
    await page.locator("#timeline li", { hasText: `EC2 Spot Instance Interruption Warning: ${victimId}` }).waitFor(WAIT);

    await page.locator("#run-balancer").click();
    await tiles("c5.large", "DRAINING").first().waitFor(WAIT);
    // Each balancer run gives the profile's metrics the group's counts: the charts show them too.
    await shot("interruption", page, { fullPage: true });
    // The replacements are in service a second later; the next run records them.
    await page.waitForFunction(() => /Balancer run: done/.test(document.querySelector("#local-result")?.textContent ?? ""), null, WAIT);
    await page.locator("#run-balancer").click();
    await page.waitForFunction(() => document.querySelectorAll('#fleet .type[data-type="m5.large"] .tile[data-status="ACTIVE"]').length > 2, null, WAIT);
    await page.locator("#timeline li", { hasText: "joined as ACTIVE" }).first().waitFor(WAIT);
  });

  test("5,000 game servers: a refresh makes at most 5 API calls, one page of servers, and a page turn reads the next", async () => {
    const instances = (await api.send(new DescribeGameServerInstancesCommand({ GameServerGroupName: "arena" }))).GameServerInstances
      .filter((i) => i.InstanceStatus === "ACTIVE").map((i) => i.InstanceId);
    const started = Date.now();
    let next = 0;
    const register = async () => {
      for (let n = next++; n < 5000; n = next++) {
        await api.send(new RegisterGameServerCommand({ GameServerGroupName: "arena", GameServerId: `load-${String(n).padStart(4, "0")}`,
          InstanceId: instances[n % instances.length] }));
      }
    };
    await Promise.all(Array.from({ length: 16 }, register));
    const registered = Date.now() - started;
    // The counts are the balancer's: a run counts the 5,000.
    await page.locator("#run-balancer").click();
    await page.locator("#server-page", { hasText: "of 5000" }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator("#servers tbody tr").count(), 50);
    assert.equal(await page.locator('#group-summary [data-item="Game servers"] dd').textContent(), "5000");

    // Every request of the page, split at the end of each refresh (the indicator's count moves once
    // a refresh's reads all answered; the next starts 2 s later).
    const calls = await countCalls(page, port, 6);
    const perRefresh = calls.map((c) => c.length);
    console.log(`5,000 game servers: registered in ${registered} ms (16 at a time); API calls per refresh ${perRefresh.join(", ")}`
      + ` (${calls.at(-1).join(", ")}); a whole refresh ${await page.locator("#connection").getAttribute("data-refresh-ms")} ms`);
    for (const [i, refresh] of calls.entries()) assert.ok(refresh.length <= 5, `refresh ${i + 1} made ${refresh.length} calls: ${refresh.join(", ")}`);
    assert.ok(calls.flat().filter((c) => c.includes("ListGameServers")).length <= calls.length, "one page of servers a refresh");

    // A page turn reads the next page, and only it.
    const turns = [];
    for (let i = 1; i <= 5; i++) {
      const t = Date.now();
      await page.locator("#server-next").click();
      await page.locator("#server-page", { hasText: `${i * 50 + 1}–${(i + 1) * 50} of 5000` }).waitFor(WAIT);
      turns.push(Date.now() - t);
    }
    turns.sort((a, b) => a - b);
    console.log(`5,000 game servers: a page turn (one call) median ${turns[2]} ms, max ${turns[4]} ms`);
    await page.locator("#server-previous").click();
    await page.locator("#server-page", { hasText: "201–250 of 5000" }).waitFor(WAIT);
  });

  test("a hidden tab reads nothing, and reads again when shown", async () => {
    const requests = [];
    const listen = (r) => { if (!r.url().includes("/console/")) requests.push(r.url()); };
    await setVisibility(page, "hidden");
    await page.locator('#connection[data-state="paused"]').waitFor(WAIT);
    page.on("request", listen);
    await new Promise((ok) => setTimeout(ok, 6000)); // three refreshes' time: none must come
    page.off("request", listen);
    assert.deepEqual(requests, []);
    const before = Number(await page.locator("#connection").getAttribute("data-refreshes"));
    await setVisibility(page, "visible");
    await page.waitForFunction((n) => Number(document.querySelector("#connection").dataset.refreshes) > n, before, WAIT);
  });

  test("a 429 backs off, doubling, says so, and the page is live again when the API answers", async () => {
    const times = [];
    await page.route("**/game-server-groups/arena/summary", (route) => {
      times.push(Date.now());
      return route.fulfill({ status: 429, contentType: "application/json", body: JSON.stringify({ message: "Too Many Requests" }) });
    });
    await page.locator("#connection", { hasText: "Throttled by the API (429): reading again in 4 s" }).waitFor(WAIT);
    await page.locator("#connection", { hasText: "reading again in 8 s" }).waitFor(WAIT);
    await page.unroute("**/game-server-groups/arena/summary");
    assert.ok(times.length >= 2 && times[1] - times[0] >= 4000, `the second read ${times[1] - times[0]} ms after the first 429`);
    await page.locator('#connection[data-state="live"]').waitFor(WAIT);
  });

  test("a stopped profile shows the connection lost, and a restarted one recovers", async () => {
    await page.goto(`${profile.endpoint}/console/#/`);
    await page.locator('#connection[data-state="live"]').waitFor(WAIT);
    await profile.stop();
    profile = null;
    await page.locator('#connection[data-state="lost"]').waitFor(WAIT);
    assert.match(await page.locator("#connection").textContent(), /Connection lost/);
    await shot("connection-lost", page.locator("header"));
    profile = await startProfile(port, "profile-restarted");
    await page.locator('#connection[data-state="live"]').waitFor({ timeout: 60_000 });
    await page.locator('#groups tr[data-group="demo"]').waitFor(WAIT);
  });

  test("a page of another origin cannot frame the console", async () => {
    const other = await browser.newPage();
    const refused = new Promise((ok) => other.on("console", (m) => { if (/frame-ancestors/.test(m.text())) ok(m.text()); }));
    await other.setContent(`<iframe id="console" src="${profile.endpoint}/console/"></iframe>`);
    assert.match(await refused, /frame-ancestors 'none'/);
    const framed = other.frames().find((f) => f !== other.mainFrame());
    assert.equal(await framed.locator("#main").count(), 0, "the console's page did not load in the frame");
    await other.close();
  });

  test("nothing came from another origin, the page threw nothing, and its policy refused nothing", () => {
    assert.deepEqual(foreign, []);
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(refusedByPolicy, []);
  });
});
