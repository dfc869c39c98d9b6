// The stack's console as CloudFront serves it, with the sign-in's services it talks to, on one
// loopback port (the test's stand-in for AWS): console/dist at / with the stack's headers and a
// config.json as infra's ConsoleSite.serve writes it, naming a real local profile's API; the hosted
// sign-in's /oauth2/authorize (which signs one user in at once and redirects back with a code) and
// /oauth2/token (which, as Cognito does for a code issued with a challenge, exchanges the code only
// with the verifier whose S256 hash that challenge is) and /logout; and Cognito Identity's AWS JSON 1.1 API at
// /identity (GetId, GetCredentialsForIdentity, for this pool and an ID token it issued), whose
// credentials are the local profile's admin keys with a session token.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { ADMIN_KEYS, moduleDir } from "./profile.mjs";

export const CLIENT_ID = "standin-console-client";
export const IDENTITY_POOL_ID = "us-east-1:00000000-0000-4000-8000-000000000031";
export const USER_POOL_PROVIDER = "cognito-idp.us-east-1.amazonaws.com/us-east-1_StandIn31";
export const SESSION_TOKEN = "standin-session-token";
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json", ".svg": "image/svg+xml" };

const base64url = (buffer) => buffer.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** An ID token as the user pool's would read (signature not checked by the page): exp and groups. */
function idToken(now) {
  const part = (o) => base64url(Buffer.from(JSON.stringify(o)));
  return `${part({ alg: "none" })}.${part({ sub: "alice", "cognito:groups": ["admins"], exp: Math.floor(now / 1000) + 3600,
    aud: CLIENT_ID, token_use: "id" })}.x`;
}

/**
 * Starts the stand-in for a console whose API is `apiEndpoint` (http://127.0.0.1:<port>). What it
 * saw is in `seen`: each authorize's challenge method, each token exchange's outcome, each identity call.
 */
export async function startStandIn(apiEndpoint) {
  const dist = join(moduleDir, "dist");
  const codes = new Map(); // code -> { challenge, redirectUri }
  const idTokens = new Set();
  const seen = { authorize: [], token: [], identity: [], logout: [] };
  let origin;

  const config = () => ({
    region: "us-east-1",
    apiUrl: `${apiEndpoint}/`,
    signIn: { domain: origin, clientId: CLIENT_ID, identityPoolId: IDENTITY_POOL_ID, userPoolProviderName: USER_POOL_PROVIDER,
      identityEndpoint: `${origin}/identity` },
  });

  // The stack's response headers policy (ConsoleSite.headers), its connect-src the stand-in's and the profile's.
  const headers = () => ({
    "Content-Security-Policy": `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ${apiEndpoint}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache",
  });

  const body = (request) => new Promise((ok) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => ok(Buffer.concat(chunks).toString("utf8")));
  });
  const json = (response, status, value, type = "application/json") => {
    response.writeHead(status, { "Content-Type": type });
    response.end(JSON.stringify(value));
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url, origin);
    if (request.method === "GET" && url.pathname === "/oauth2/authorize") {
      const q = url.searchParams;
      seen.authorize.push({ method: q.get("code_challenge_method"), challenge: q.get("code_challenge") });
      if (q.get("response_type") !== "code" || q.get("client_id") !== CLIENT_ID || q.get("redirect_uri") !== `${origin}/`
          || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
        return json(response, 400, { error: "invalid_request" });
      }
      const code = base64url(randomBytes(16));
      codes.set(code, { challenge: q.get("code_challenge"), redirectUri: q.get("redirect_uri") });
      response.writeHead(302, { Location: `${q.get("redirect_uri")}?code=${code}&state=${encodeURIComponent(q.get("state") ?? "")}` });
      return response.end();
    }
    if (request.method === "GET" && url.pathname === "/logout") {
      // Cognito's sign-out: back to a sign-out URL of the client's (the page's), the session ended.
      seen.logout.push(url.searchParams.get("client_id"));
      if (url.searchParams.get("client_id") !== CLIENT_ID || url.searchParams.get("logout_uri") !== `${origin}/`) {
        return json(response, 400, { error: "invalid_request" });
      }
      response.writeHead(302, { Location: url.searchParams.get("logout_uri") });
      return response.end();
    }
    if (request.method === "POST" && url.pathname === "/oauth2/token") {
      const form = new URLSearchParams(await body(request));
      if (form.get("grant_type") === "refresh_token" && form.get("refresh_token")?.startsWith("refresh-")) {
        const token = idToken(Date.now());
        idTokens.add(token);
        seen.token.push("refreshed");
        return json(response, 200, { id_token: token, access_token: "access", expires_in: 3600, token_type: "Bearer" });
      }
      const issued = codes.get(form.get("code") ?? "");
      const verifier = form.get("code_verifier");
      const proves = issued && verifier && base64url(createHash("sha256").update(verifier).digest()) === issued.challenge;
      if (form.get("grant_type") !== "authorization_code" || form.get("client_id") !== CLIENT_ID || !issued
          || form.get("redirect_uri") !== issued.redirectUri || !proves) {
        seen.token.push(issued && !proves ? "refused: verifier" : "refused");
        return json(response, 400, { error: "invalid_grant" });
      }
      codes.delete(form.get("code"));
      const token = idToken(Date.now());
      idTokens.add(token);
      seen.token.push("exchanged");
      return json(response, 200, { id_token: token, access_token: "access", refresh_token: `refresh-${base64url(randomBytes(8))}`,
        expires_in: 3600, token_type: "Bearer" });
    }
    // The SDK posts to the endpoint's path with a trailing /.
    if (request.method === "POST" && url.pathname.replace(/\/$/, "") === "/identity") {
      const target = request.headers["x-amz-target"];
      const input = JSON.parse((await body(request)) || "{}");
      seen.identity.push(target);
      const signedIn = idTokens.has(input.Logins?.[USER_POOL_PROVIDER]);
      const type = "application/x-amz-json-1.1";
      if (!signedIn) return json(response, 400, { __type: "NotAuthorizedException", message: "Invalid login token." }, type);
      if (target === "AWSCognitoIdentityService.GetId" && input.IdentityPoolId === IDENTITY_POOL_ID) {
        return json(response, 200, { IdentityId: "us-east-1:alice" }, type);
      }
      if (target === "AWSCognitoIdentityService.GetCredentialsForIdentity" && input.IdentityId === "us-east-1:alice") {
        return json(response, 200, { IdentityId: input.IdentityId, Credentials: { AccessKeyId: ADMIN_KEYS.accessKeyId,
          SecretKey: ADMIN_KEYS.secretAccessKey, SessionToken: SESSION_TOKEN, Expiration: Math.floor(Date.now() / 1000) + 3600 } }, type);
      }
      return json(response, 400, { __type: "ResourceNotFoundException", message: `${target} of that pool or identity` }, type);
    }
    if (request.method === "GET") {
      if (url.pathname === "/config.json") {
        response.writeHead(200, { ...headers(), "Content-Type": "application/json" });
        return response.end(JSON.stringify(config()));
      }
      const file = normalize(join(dist, url.pathname === "/" ? "index.html" : url.pathname));
      if (file.startsWith(dist) && existsSync(file)) {
        response.writeHead(200, { ...headers(), "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
        return response.end(readFileSync(file));
      }
    }
    json(response, 404, { message: "Not Found" });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    endpoint: origin,
    seen,
    /** A code issued for a challenge, as a page that started a sign-in would get it. */
    async code(challenge) {
      const q = new URLSearchParams({ response_type: "code", client_id: CLIENT_ID, redirect_uri: `${origin}/`, state: "s",
        code_challenge: challenge, code_challenge_method: "S256" });
      const answer = await fetch(`${origin}/oauth2/authorize?${q}`, { redirect: "manual" });
      return new URL(answer.headers.get("location")).searchParams.get("code");
    },
    stop: () => new Promise((ok) => server.close(ok)),
  };
}
