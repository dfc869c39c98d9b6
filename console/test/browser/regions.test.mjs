// The console across peered regions (issue 30, item 5) in headless Chromium: its home is a real
// `local/run --demo`, whose GET /regions names its home alone, as every stage without peers does;
// then the page is told of a peer, eu-west-1 (peer.mjs: a stand-in for another region's stage on a
// loopback port of its own, CORS and SigV4 as API Gateway's), and shows its groups and sessions
// read from it, says when it does not answer, and reads it again when it does. Main's local profile
// cannot be given peers yet (local/run --regions is coming), so the home's answer to the page's
// GET /regions gets the peer added on its way to the page (DevTools' Fetch domain).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { PEER_REGION, startPeer } from "./peer.mjs";
import { CHROMIUM, CHROMIUM_FLAGS, freePort, missing, routesClient, screenshots, startProfile } from "./profile.mjs";

const skip = missing();
const WAIT = { timeout: 30_000 };

describe("the console across peered regions", { skip: skip ?? false }, () => {
  let profile;
  let peer;
  let browser;
  let page;
  const foreign = [];
  const pageErrors = [];
  const refusedByPolicy = [];

  before(async () => {
    mkdirSync(screenshots, { recursive: true });
    profile = await startProfile(await freePort(), "regions");
    peer = await startPeer(profile.endpoint);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  });

  after(async () => {
    await browser?.close();
    await peer?.stop();
    await profile?.stop();
  });

  /** A page of the home's console; `peered`: its GET /regions names the peer besides what the home said. */
  async function open(peered) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    p.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith(`${profile.endpoint}/`) && !url.startsWith(`${peer.endpoint}/`) && !url.startsWith("data:")) foreign.push(url);
    });
    p.on("pageerror", (e) => pageErrors.push(e.message));
    p.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) refusedByPolicy.push(m.text()); });
    if (peered) {
      // Through the DevTools protocol, for this one path: Playwright's own routing would answer every
      // CORS preflight itself, and the peer's CORS is what is tested here.
      const cdp = await p.context().newCDPSession(p);
      cdp.on("Fetch.requestPaused", async (paused) => {
        const { body, base64Encoded } = await cdp.send("Fetch.getResponseBody", { requestId: paused.requestId });
        const answer = JSON.parse(Buffer.from(body, base64Encoded ? "base64" : "utf8").toString("utf8"));
        if (paused.responseStatusCode === 200) answer.Regions.push({ Region: PEER_REGION, ApiUrl: peer.endpoint });
        await cdp.send("Fetch.fulfillRequest", { requestId: paused.requestId, responseCode: paused.responseStatusCode,
          responseHeaders: paused.responseHeaders.filter((h) => h.name.toLowerCase() !== "content-length"),
          body: Buffer.from(JSON.stringify(answer)).toString("base64") });
      });
      await cdp.send("Fetch.enable", { patterns: [{ urlPattern: `${profile.endpoint}/regions`, requestStage: "Response" }] });
    }
    await p.goto(`${profile.endpoint}/console/`);
    return p;
  }

  test("with its home alone, the groups view is as it was before regions", async () => {
    const regions = await routesClient(profile.endpoint)("GET", "/regions");
    assert.deepEqual(regions.json, { Regions: [{ Region: "us-east-1", Home: true }] });
    const alone = await open(false);
    const asked = alone.waitForRequest((r) => r.url() === `${profile.endpoint}/regions`, WAIT);
    await alone.locator('#groups tr[data-group="demo"] .status', { hasText: "ACTIVE" }).waitFor(WAIT);
    await asked;
    assert.equal(await alone.locator(".region-title:visible").count(), 0);
    assert.equal(await alone.locator("#peer-regions > *").count(), 0);
    assert.equal(await alone.locator("#create-group h2").textContent(), "Create a group");
    assert.equal(await alone.locator('#groups a[href="#/groups/demo"]').count(), 1);
    await alone.close();
    assert.deepEqual(peer.seen, [], "no peer was called");
  });

  test("a peer's groups are listed under its region, read from its API signed for its region", async () => {
    page = await open(true);
    const peerRows = page.locator(`table[data-region="${PEER_REGION}"] tbody tr`);
    await page.locator(`table[data-region="${PEER_REGION}"] tr[data-group="arena"]`).waitFor(WAIT);
    await page.locator('#groups tr[data-group="demo"] .status', { hasText: "ACTIVE" }).waitFor(WAIT);
    assert.deepEqual(await peerRows.evaluateAll((rows) => rows.map((r) => r.dataset.group)), ["demo", "arena"]);
    assert.deepEqual(await page.locator(".region-title:visible").allTextContents(), ["us-east-1 (home)", PEER_REGION]);
    assert.equal(await page.locator("#create-group h2").textContent(), "Create a group in us-east-1");
    // The same name in two regions: two rows, each linking to its own region's group.
    await page.waitForFunction((region) => document.querySelector(`table[data-region="${region}"] tr[data-group="demo"] td.num`)?.textContent === "2",
      PEER_REGION, WAIT);
    assert.equal(await page.locator('#groups a[href="#/groups/demo"]').count(), 1);
    assert.equal(await page.locator(`table[data-region="${PEER_REGION}"] a[href="#/regions/${PEER_REGION}/groups/demo"]`).count(), 1);
    // The browser asked the peer's CORS first, as from any page of another origin, and every request held its signature.
    assert.ok(peer.seen.some((r) => r.method === "OPTIONS"), JSON.stringify(peer.seen));
    assert.ok(peer.seen.every((r) => r.origin === profile.endpoint), JSON.stringify(peer.seen));
    assert.ok(peer.seen.some((r) => r.target === "GameLift.ListGameServerGroups"));
    assert.deepEqual(peer.refused, []);
    // From the heading down to the last region's table: not the create form.
    const top = await page.locator("#groups-title").boundingBox();
    const bottom = await page.locator("#peer-regions").boundingBox();
    await page.screenshot({ path: join(screenshots, "regions.png"),
      clip: { x: 0, y: top.y - 8, width: 1280, height: bottom.y + bottom.height - top.y + 16 } });
  });

  test("a peer group's view reads that region's API: its servers, standby panel and sessions, with their region", async () => {
    await page.locator(`table[data-region="${PEER_REGION}"] a[href="#/regions/${PEER_REGION}/groups/demo"]`).click();
    await page.locator("#group-title", { hasText: `Group demo in ${PEER_REGION}` }).waitFor(WAIT);
    await page.locator('#fleet .tile[data-instance="i-0eu0000000000001"][data-status="ACTIVE"]').waitFor(WAIT);
    await page.locator('#servers tr[data-server="eu-server-2"]').waitFor(WAIT);
    assert.equal(await page.locator("#servers tbody tr").count(), 2);
    const session = page.locator('#sessions tr[data-session="placed-in-eu-west-1"]');
    await session.waitFor(WAIT);
    assert.equal(await session.locator("td.region").textContent(), PEER_REGION);
    assert.equal(await session.locator(".state").textContent(), "ACTIVE");
    await page.locator('#standby-policy [data-item="Claim strategy"] dd', { hasText: "FLEETIQ" }).waitFor(WAIT);
    // An ADMIN's form (the probe PUT was answered 400, not 403); the home's local controls are not the peer's.
    await page.locator("#standby-form:not([hidden])").waitFor(WAIT);
    assert.equal(await page.locator("#local-controls").count(), 0);
    assert.equal(await page.locator(".region-crumb").textContent(), PEER_REGION);
    for (const path of ["/game-server-groups/demo/sessions", "/game-server-groups/demo/standby", "/game-server-groups/demo/claim-strategy"]) {
      assert.ok(peer.seen.some((r) => r.method === "GET" && r.path === path), path);
    }
    assert.deepEqual(peer.refused, []);
  });

  test("a peer that does not answer is said so, the home still renders, and it is read again at the next refresh", async () => {
    await page.goto(`${profile.endpoint}/console/#/`);
    await page.locator(`table[data-region="${PEER_REGION}"] tr[data-group="arena"]`).waitFor(WAIT);
    peer.stall();
    const silent = page.locator(`section[data-region="${PEER_REGION}"] .region-silent:visible`);
    await silent.waitFor(WAIT);
    assert.match(await silent.textContent(), new RegExp(`^region ${PEER_REGION} did not answer: no answer within 3 s`));
    assert.equal(await page.locator(`table[data-region="${PEER_REGION}"]`).isHidden(), true);
    // The home answered: its groups are there and the page is live, not "connection lost".
    assert.equal(await page.locator('#groups tr[data-group="demo"]').count(), 1);
    assert.equal(await page.locator("#connection").getAttribute("data-state"), "live");
    peer.answer();
    await page.locator(`table[data-region="${PEER_REGION}"] tr[data-group="arena"]`).waitFor(WAIT);
    assert.equal(await silent.count(), 0);
  });

  test("nothing came from another origin than the home's and its peer's, the page threw nothing, and its policy refused nothing", async () => {
    await page?.close();
    assert.deepEqual(foreign, []);
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(refusedByPolicy, []);
  });
});
