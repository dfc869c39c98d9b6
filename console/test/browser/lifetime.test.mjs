// The console against a `local/run` whose instances live 30 s, 20 of them guaranteed to a claimed game
// server: an instance turns DRAINING 10 s after its launch, and is replaced at 30 s (issue 28).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, freePort, missing, screenshots, startProfile } from "./profile.mjs";

const skip = missing();
const WAIT = { timeout: 30_000 };

describe("the console against local/run --max-instance-lifetime 30s --guaranteed-server-lifetime 20s", { skip: skip ?? false }, () => {
  let profile;
  let browser;
  let page;
  const pageErrors = [];

  before(async () => {
    mkdirSync(screenshots, { recursive: true });
    profile = await startProfile(await freePort(), "lifetime", ["--instance-launch-seconds", "1",
      "--max-instance-lifetime", "30s", "--guaranteed-server-lifetime", "20s", "--balancer-rate-seconds", "3600"]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (e) => pageErrors.push(e.message));
  });

  after(async () => {
    await browser?.close();
    await profile?.stop();
  });

  test("an instance shows DRAINING from its end minus the guarantee, then is replaced at its end", async () => {
    await page.goto(`${profile.endpoint}/console/#/`);
    await page.fill('#create-group input[name="name"]', "aging");
    await page.fill('#create-group input[name="min"]', "1");
    await page.fill('#create-group input[name="max"]', "2");
    await page.locator('#create-group button[type="submit"]').click();
    await page.locator('#groups tr[data-group="aging"] .status', { hasText: "ACTIVE" }).waitFor(WAIT);
    await page.locator('#groups a[href="#/groups/aging"]').click();
    const first = page.locator('#fleet .tile[data-status="ACTIVE"]').first();
    await first.waitFor(WAIT);
    const old = await first.getAttribute("data-instance");

    // DescribeGameServerInstances says DRAINING from 10 s after the launch, before any balancer run.
    await page.locator(`#fleet .tile[data-instance="${old}"][data-status="DRAINING"]`).waitFor(WAIT);
    await page.locator("#timeline li", { hasText: `${old} (` }).filter({ hasText: "ACTIVE → DRAINING" }).waitFor(WAIT);
    // A balancer run publishes the group's process counts, which the profile's charts show.
    await page.locator("#run-balancer").click();
    await page.locator('[data-chart="Game server processes"] path[data-line="Active"]').waitFor({ state: "attached", ...WAIT });
    await page.locator('[data-chart="Connected players"] path[data-line="connected players"]').waitFor({ state: "attached", ...WAIT });
    await page.screenshot({ path: join(screenshots, "retiring.png"), fullPage: true });

    // At 30 s the simulated fleet ends it (Auto Scaling's MaxInstanceLifetime) and launches another,
    // which a balancer run records.
    await page.locator("#timeline li", { hasText: `${old} (` }).filter({ hasText: "left the group" }).waitFor(WAIT);
    await page.waitForFunction(() => /Balancer run: done/.test(document.querySelector("#local-result")?.textContent ?? ""), null, WAIT);
    await page.locator("#run-balancer").click();
    await page.locator(`#fleet .tile[data-status="ACTIVE"]:not([data-instance="${old}"])`).waitFor(WAIT);
    await page.locator(`#fleet .tile[data-instance="${old}"]`).waitFor({ state: "detached", ...WAIT });
  });

  test("the page threw nothing", () => {
    assert.deepEqual(pageErrors, []);
  });
});
