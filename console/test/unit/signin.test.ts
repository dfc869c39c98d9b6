import { describe, expect, it } from "vitest";
import { RENEW_BEFORE_MS, SignInSession, expiresAt, isStackConfig, type SignInPorts, type StackConfig } from "../../src/signin";

const config: StackConfig = {
  region: "eu-west-1",
  apiUrl: "https://abc.execute-api.eu-west-1.amazonaws.com/",
  signIn: { domain: "https://gf.auth.eu-west-1.amazoncognito.com", clientId: "client", identityPoolId: "eu-west-1:pool",
    userPoolProviderName: "cognito-idp.eu-west-1.amazonaws.com/eu-west-1_x" },
};
const HOUR = 3_600_000;

function jwt(expMs: number): string {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "");
  return `${part({ alg: "none" })}.${part({ exp: Math.floor(expMs / 1000) })}.x`;
}

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() { return this.items.size; }
  clear() { this.items.clear(); }
  getItem(key: string) { return this.items.get(key) ?? null; }
  key(i: number) { return [...this.items.keys()][i] ?? null; }
  removeItem(key: string) { this.items.delete(key); }
  setItem(key: string, value: string) { this.items.set(key, value); }
}

/** A session after a sign-in at `now`, whose ports record what it asked. */
async function signedInAt(start: number) {
  let now = start;
  const asked: string[] = [];
  const forms: URLSearchParams[] = [];
  const visited: string[] = [];
  const ports: SignInPorts = {
    now: () => now,
    storage: new MemoryStorage(),
    go: (url) => visited.push(url),
    fetch: (async (_url: string, init: RequestInit) => {
      const form = new URLSearchParams(init.body as URLSearchParams);
      forms.push(form);
      return new Response(JSON.stringify({ id_token: jwt(now + HOUR), refresh_token: form.get("grant_type") === "authorization_code" ? "r1" : undefined }));
    }) as typeof fetch,
    identity: {
      send: (async (command: { constructor: { name: string } }) => {
        asked.push(command.constructor.name);
        return command.constructor.name === "GetIdCommand" ? { IdentityId: "eu-west-1:id" }
          : { Credentials: { AccessKeyId: `AK${asked.length}`, SecretKey: "s", SessionToken: "t", Expiration: new Date(now + HOUR) } };
      }) as never,
    },
  };
  const session = new SignInSession(config, ports, "https://d1.cloudfront.net/");
  await session.begin();
  const authorize = new URL(visited[0]);
  await session.exchange("the-code", authorize.searchParams.get("state")!);
  return { session, asked, forms, visited, authorize, move: (ms: number) => { now += ms; } };
}

describe("SignInSession", () => {
  it("sends an S256 challenge of the verifier it later exchanges the code with", async () => {
    const { authorize, forms } = await signedInAt(Date.UTC(2026, 11, 2));
    expect(authorize.origin + authorize.pathname).toBe("https://gf.auth.eu-west-1.amazoncognito.com/oauth2/authorize");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toBe("https://d1.cloudfront.net/");
    const verifier = forms[0].get("code_verifier")!;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    const challenge = btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(authorize.searchParams.get("code_challenge")).toBe(challenge);
    expect(forms[0].get("grant_type")).toBe("authorization_code");
  });

  it("holds the credentials until RENEW_BEFORE_MS before they expire, then renews them once, the ID token too", async () => {
    const { session, asked, forms, move } = await signedInAt(Date.UTC(2026, 11, 2));
    const first = await session.credentials();
    expect(first.accessKeyId).toBe("AK2");
    move(HOUR - RENEW_BEFORE_MS - 1000);
    expect(await session.credentials()).toBe(first);
    move(2000);
    const [a, b] = await Promise.all([session.credentials(), session.credentials()]);
    expect(a).toBe(b);
    expect(a.accessKeyId).toBe("AK3");
    // One identity, credentials twice; the ID token (an hour too) renewed with the refresh token first.
    expect(asked).toEqual(["GetIdCommand", "GetCredentialsForIdentityCommand", "GetCredentialsForIdentityCommand"]);
    expect(forms.map((f) => f.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
    expect(forms[1].get("refresh_token")).toBe("r1");
  });

  it("refuses a code that this tab's sign-in did not ask for", async () => {
    const { session } = await signedInAt(Date.UTC(2026, 11, 2));
    await expect(session.exchange("another-code", "another-state")).rejects.toThrow("did not start that sign-in");
  });
});

describe("config.json", () => {
  it("is the stack's when it names a sign-in, not the local profile's keys", () => {
    expect(isStackConfig(config)).toBe(true);
    expect(isStackConfig({ region: "us-east-1", accessKeyId: "local-admin", secretAccessKey: "x", local: true })).toBe(false);
    expect(isStackConfig(null)).toBe(false);
  });

  it("reads a JWT's expiry, and 0 from what is none", () => {
    expect(expiresAt(jwt(Date.UTC(2026, 11, 2, 9)))).toBe(Date.UTC(2026, 11, 2, 9));
    expect(expiresAt("garbage")).toBe(0);
  });
});
