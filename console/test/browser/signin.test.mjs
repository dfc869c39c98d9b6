// The console as the stack serves it (docs/console.md, "Served by the stack"), in headless Chromium:
// its config.json names the sign-in (signin-standin.mjs: the hosted sign-in's authorize and token
// endpoints and Cognito Identity, on a loopback port) and a real `local/run --demo`'s API. The page
// goes to the sign-in with a PKCE challenge, comes back with a code, exchanges it with its
// verifier, gets the admins group's credentials from the identity pool, and shows the groups, read
// with calls signed with them; no key is typed. The token endpoint refuses the code without the
// verifier, or with another.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, freePort, missing, startProfile } from "./profile.mjs";
import { CLIENT_ID, SESSION_TOKEN, startStandIn } from "./signin-standin.mjs";

const skip = missing();
const WAIT = { timeout: 30_000 };

describe("the console signs in as the stack serves it", { skip: skip ?? false }, () => {
  let profile;
  let standIn;
  let browser;
  let page;
  const apiCalls = [];
  const pageErrors = [];
  const refusedByPolicy = [];

  before(async () => {
    profile = await startProfile(await freePort(), "signin");
    standIn = await startStandIn(profile.endpoint);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("request", (r) => {
      if (r.url().startsWith(`${profile.endpoint}/`) && r.method() !== "OPTIONS") apiCalls.push(r.headers());
    });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) refusedByPolicy.push(m.text()); });
  });

  after(async () => {
    await browser?.close();
    await standIn?.stop();
    await profile?.stop();
  });

  test("the page signs in through the hosted sign-in with PKCE and shows the groups, read with the pool's credentials", async () => {
    await page.goto(`${standIn.endpoint}/`);
    const row = page.locator('#groups tr[data-group="demo"]');
    await row.locator(".status", { hasText: "ACTIVE" }).waitFor(WAIT);
    assert.deepEqual(standIn.seen.authorize.map((a) => a.method), ["S256"]);
    assert.deepEqual(standIn.seen.token, ["exchanged"]);
    assert.deepEqual(standIn.seen.identity, ["AWSCognitoIdentityService.GetId", "AWSCognitoIdentityService.GetCredentialsForIdentity"]);
    // The code is spent and gone from the address; the page is where the sign-in sent it back.
    assert.equal(page.url(), `${standIn.endpoint}/`);
    // Every call to the API is signed (execute-api, the profile's region) with the identity pool's credentials.
    assert.ok(apiCalls.length >= 1);
    for (const headers of apiCalls) {
      assert.match(headers.authorization, /^AWS4-HMAC-SHA256 Credential=local-admin\/\d{8}\/us-east-1\/execute-api\/aws4_request/);
      assert.equal(headers["x-amz-security-token"], SESSION_TOKEN);
    }
    assert.equal(await page.locator("#connect").count(), 0, "no form asks for a key");
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(refusedByPolicy, []);
  });

  test("a reload keeps the sign-in: no second trip to the sign-in, the same tokens buy credentials again", async () => {
    await page.reload();
    await page.locator('#groups tr[data-group="demo"] .status', { hasText: "ACTIVE" }).waitFor(WAIT);
    assert.equal(standIn.seen.authorize.length, 1);
    assert.deepEqual(standIn.seen.token, ["exchanged"]);
  });

  test("signing out ends the hosted sign-in's session and forgets the tokens: the page signs in again", async () => {
    await page.locator("a.sign-out").click();
    await page.waitForFunction(() => new URL(location.href).searchParams.size === 0 && document.querySelector("#groups"), null, WAIT);
    await page.locator('#groups tr[data-group="demo"] .status', { hasText: "ACTIVE" }).waitFor(WAIT);
    assert.deepEqual(standIn.seen.logout, [CLIENT_ID]);
    assert.equal(standIn.seen.authorize.length, 2);
    assert.deepEqual(standIn.seen.token, ["exchanged", "exchanged"]);
  });

  test("the token endpoint exchanges a code only with the verifier of its challenge", async () => {
    const verifier = "a-verifier-of-at-least-forty-three-characters-0123456789";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const exchange = (code, codeVerifier) => fetch(`${standIn.endpoint}/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", client_id: CLIENT_ID, code, redirect_uri: `${standIn.endpoint}/`,
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}) }),
    });
    const code = await standIn.code(challenge);
    assert.equal((await exchange(code)).status, 400, "no verifier");
    assert.equal((await exchange(code, `${verifier}x`)).status, 400, "another verifier");
    assert.equal((await exchange(code, verifier)).status, 200, "the verifier");
    assert.deepEqual(standIn.seen.token.slice(-3), ["refused: verifier", "refused: verifier", "exchanged"]);
  });
});
