// The group view's standby panel and sessions list (issue 29, item 6) in headless Chromium against a
// real `local/run --demo` with a MATCHMAKER besides the built-in admin: the standby form's round
// trip, a refused schedule, the balancer's evaluation, the claim strategy, a session from the API,
// and the panel read-only for a MATCHMAKER. Each test leaves the page where the next one starts.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, DEMO_FLAGS, freePort, missing, routesClient, screenshots, startProfile, work } from "./profile.mjs";

const skip = missing();
const WAIT = { timeout: 30_000 };
const MATCHMAKER = { accessKeyId: "console-matchmaker", secretAccessKey: "console-matchmaker-secret" };
const STANDBY = "/game-server-groups/demo/standby";

describe("the standby panel and the sessions list against local/run --demo", { skip: skip ?? false }, () => {
  let profile;
  let browser;
  let page;
  let routes;
  const pageErrors = [];

  before(async () => {
    mkdirSync(screenshots, { recursive: true });
    const principals = join(work, "standby-principals.json");
    writeFileSync(principals, JSON.stringify([{ AccessKeyId: MATCHMAKER.accessKeyId, SecretAccessKey: MATCHMAKER.secretAccessKey, Role: "MATCHMAKER" }]));
    profile = await startProfile(await freePort(), "standby", [...DEMO_FLAGS, "--principals", principals]);
    routes = routesClient(profile.endpoint);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (e) => pageErrors.push(e.message));
  });

  after(async () => {
    await browser?.close();
    await profile?.stop();
  });

  const item = (list, name) => page.locator(`#${list} [data-item="${name}"] dd`);
  const stored = async () => {
    const answer = await routes("GET", STANDBY);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return answer.json.StandbyPolicy;
  };
  /** Waits for the view's next whole refresh, so that what it shows after is what it read. */
  const nextRefresh = async () => {
    const before = await page.locator("#connection .text").textContent();
    await page.waitForFunction((text) => document.querySelector("#connection .text")?.textContent !== text, before, WAIT);
  };

  test("an ADMIN's standby form puts the policy, and the panel shows what the API stored", async () => {
    await page.goto(`${profile.endpoint}/console/#/groups/demo`);
    await page.locator("#standby-form:not([hidden])").waitFor(WAIT);
    await item("standby-policy", "StandingBy").filter({ hasText: "0 servers" }).waitFor(WAIT);
    assert.equal(await page.locator("#standby-read-only").isHidden(), true);

    await page.fill('#standby-form input[name="standingBy"]', "2");
    await page.fill('#standby-form input[name="scaleInCooldownSeconds"]', "120");
    await page.locator("#standby-add-tier").click();
    await page.fill('#standby-tiers .tier >> nth=0 >> input[name="belowPercent"]', "50");
    await page.fill('#standby-tiers .tier >> nth=0 >> input[name="multiplier"]', "2");
    await page.locator("#standby-add-window").click();
    await page.fill('#standby-windows .window >> nth=0 >> input[name="start"]', "2030-01-01T00:00:00Z");
    await page.fill('#standby-windows .window >> nth=0 >> input[name="end"]', "2030-01-02T00:00:00Z");
    await page.fill('#standby-windows .window >> nth=0 >> input[name="standingBy"]', "25%");
    await page.locator('#standby-form button[type="submit"]').click();
    await page.locator("#standby-result .ok", { hasText: "Standby policy saved" }).waitFor(WAIT);

    const policy = await stored();
    assert.equal(policy.StandingBy, 2);
    assert.deepEqual(policy.Dynamic, [{ BelowPercent: 50, Multiplier: 2 }]);
    assert.deepEqual(policy.Schedule, [{ Start: Date.parse("2030-01-01T00:00:00Z") / 1000, End: Date.parse("2030-01-02T00:00:00Z") / 1000, StandingBy: "25%" }]);
    assert.equal(policy.ScaleInCooldownSeconds, 120);
    assert.equal(policy.RampDownSeconds, 1800, "the default, as the API filled it in");
    await item("standby-policy", "StandingBy").filter({ hasText: /^2 servers$/ }).waitFor(WAIT);
    assert.equal(await item("standby-policy", "Dynamic tiers").textContent(), "below 50% ×2");
    assert.equal(await item("standby-policy", "Schedule").textContent(), "2030-01-01T00:00:00Z to 2030-01-02T00:00:00Z: 25% of the group's servers");
    assert.equal(await item("standby-policy", "Ramp-down").textContent(), "1800 s");
    // The form now holds the answer, defaults included.
    assert.equal(await page.inputValue('#standby-form input[name="rampDownSeconds"]'), "1800");
  });

  test("an overlapping schedule window shows the 400's message beside the form, keeps what was typed, and stores nothing", async () => {
    const before = await stored();
    await page.locator("#standby-add-window").click();
    const second = page.locator("#standby-windows .window").nth(1);
    await second.locator('input[name="start"]').fill("2030-01-01T12:00:00Z");
    await second.locator('input[name="end"]').fill("2030-01-03T00:00:00Z");
    await second.locator('input[name="standingBy"]').fill("7");
    await page.fill('#standby-form input[name="standingBy"]', "9");
    await page.locator('#standby-form button[type="submit"]').click();
    const error = page.locator("#standby-result .error");
    await error.waitFor(WAIT);
    const text = await error.textContent();
    assert.match(text, /InvalidRequestException \(400\)/);
    assert.match(text, /Schedule\[1\] overlaps Schedule\[0\]/);
    assert.deepEqual(await stored(), before);
    // A refresh after the refusal leaves the form as typed, and the panel as stored.
    await nextRefresh();
    assert.equal(await page.inputValue('#standby-form input[name="standingBy"]'), "9");
    assert.equal(await second.locator('input[name="start"]').inputValue(), "2030-01-01T12:00:00Z");
    assert.equal(await page.locator("#standby-windows .window").count(), 2);
    assert.equal(await item("standby-policy", "StandingBy").textContent(), "2 servers");

    // Without the overlapping window, and with StandingBy as stored, the form puts the policy again.
    await second.getByRole("button", { name: "Remove" }).click();
    await page.fill('#standby-form input[name="standingBy"]', "2");
    await page.locator('#standby-form button[type="submit"]').click();
    await page.locator("#standby-result .ok").waitFor(WAIT);
    assert.equal((await stored()).Schedule.length, 1);
  });

  test("a balancer run evaluates the buffer, and the panel shows its last evaluation", async () => {
    await item("standby-evaluation", "Evaluated").filter({ hasText: "not yet" }).waitFor(WAIT);
    await page.locator("#run-balancer").click();
    await page.locator("#local-result .ok", { hasText: "Balancer run: done" }).waitFor(WAIT);
    await item("standby-evaluation", "Desired capacity").waitFor(WAIT);
    const { LastEvaluation: last } = await stored();
    assert.ok(last, "the balancer run wrote the policy's evaluation");
    await nextRefresh();
    assert.equal(await item("standby-evaluation", "Target").textContent(), String(last.TargetStandingBy));
    assert.equal(await item("standby-evaluation", "StandingBy").textContent(), String(last.StandingBy));
    assert.equal(await item("standby-evaluation", "In use").textContent(), String(last.InUse));
    assert.equal(await item("standby-evaluation", "Servers per instance").textContent(), String(last.ServersPerInstance));
    assert.equal(await item("standby-evaluation", "Desired capacity").textContent(), String(last.DesiredCapacity));
  });

  test("an ADMIN sets the claim strategy from the panel", async () => {
    await page.selectOption('#claim-strategy-form select[name="claimStrategy"]', "PACKED");
    await page.locator('#claim-strategy-form button[type="submit"]').click();
    await page.locator("#standby-result .ok", { hasText: "Claim strategy set" }).waitFor(WAIT);
    const answer = await routes("GET", "/game-server-groups/demo/claim-strategy");
    assert.equal(answer.json.ClaimStrategy, "PACKED");
    await item("standby-policy", "Claim strategy").filter({ hasText: "PACKED" }).waitFor(WAIT);
    await page.locator("#standby").screenshot({ path: join(screenshots, "standby.png") });
  });

  test("a session created through the API appears in the list with its state", async () => {
    const id = randomUUID();
    // The demo's own matchmaker claims servers too: while none is AVAILABLE, the same SessionId is
    // asked again a second later, as a matchmaker retries, until the buffer's replacements are up
    // (on a loaded machine that can take longer than a few of the page's refreshes).
    let created;
    for (const until = Date.now() + 2 * WAIT.timeout; ;) {
      created = await routes("POST", "/game-server-groups/demo/sessions", { SessionId: id, InitialPlayers: ["p1", "p2"] });
      if (created.json.__type !== "OutOfCapacityException" || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const row = page.locator(`#sessions tr[data-session="${id}"]`);
    await row.waitFor(WAIT);
    assert.equal(await row.locator("td").nth(1).textContent(), created.json.Session.GameServerId);
    // CLAIMED, then ACTIVE once the demo's game server under the agent is told Active and its server is UTILIZED.
    await row.locator('.state[data-state="ACTIVE"]').waitFor(WAIT);
    const described = await routes("GET", `/game-server-groups/demo/sessions/${id}`);
    assert.equal(described.json.Session.State, "ACTIVE");
    assert.equal(await row.locator("td").nth(2).textContent(), described.json.Session.InstanceId);
    assert.match(await row.locator("td").nth(3).textContent(), /of 2 invited$/);
    await page.locator("#sessions-panel").screenshot({ path: join(screenshots, "sessions.png") });
  });

  test("a MATCHMAKER sees the panel and the sessions read-only", async () => {
    const matchmaker = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    matchmaker.on("pageerror", (e) => pageErrors.push(e.message));
    // The profile hands its page the admin's keys; this page gets the MATCHMAKER's instead.
    await matchmaker.route("**/console/config.json", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), ...MATCHMAKER } });
    });
    await matchmaker.goto(`${profile.endpoint}/console/#/groups/demo`);
    await matchmaker.locator("#standby-read-only:not([hidden])").waitFor(WAIT);
    assert.equal(await matchmaker.locator("#standby-form").isHidden(), true);
    assert.equal(await matchmaker.locator("#claim-strategy-form").isHidden(), true);
    assert.equal(await matchmaker.locator('#standby-policy [data-item="StandingBy"] dd').textContent(), "2 servers");
    await matchmaker.locator("#sessions tbody tr").first().waitFor(WAIT);
    // Its probe stored nothing: the policy is the admin's.
    assert.equal((await stored()).StandingBy, 2);
    const refused = await routesClient(profile.endpoint, MATCHMAKER)("PUT", STANDBY, { StandingBy: 5 });
    assert.equal(refused.status, 403, "the panel is read-only because the API refuses a MATCHMAKER's PUT");
    await matchmaker.close();
  });

  test("the page threw nothing", () => {
    assert.deepEqual(pageErrors, []);
  });
});
