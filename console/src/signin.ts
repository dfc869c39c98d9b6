// Sign-in when the stack serves the console (docs/console.md, "Served by the stack"): the
// deployment's config.json names the hosted sign-in, the app client and the identity pool. The page
// runs the authorization code flow with PKCE against the hosted sign-in, exchanges the code at
// /oauth2/token, and trades the ID token for the temporary credentials of the user's group's role
// at the identity pool (GetId, GetCredentialsForIdentity), which it signs its calls with, renewed
// before they expire. No key is typed; tokens stay in this tab's session storage.
import {
  CognitoIdentityClient,
  GetCredentialsForIdentityCommand,
  GetIdCommand,
} from "@aws-sdk/client-cognito-identity";
import type { Connection, Credentials } from "./api";

/** config.json as the stack's deployment writes it (infra's ConsoleSite.serve). */
export interface StackConfig {
  region: string;
  /** The API's stage URL, ending in /. */
  apiUrl: string;
  signIn: {
    /** The hosted sign-in's base URL: https://<prefix>.auth.<region>.amazoncognito.com. */
    domain: string;
    clientId: string;
    identityPoolId: string;
    /** cognito-idp.<region>.amazonaws.com/<user pool id>: the key of the ID token in Logins. */
    userPoolProviderName: string;
    /** Cognito Identity's endpoint, if not the region's (a test's stand-in). */
    identityEndpoint?: string;
  };
}

export function isStackConfig(config: unknown): config is StackConfig {
  const c = config as Partial<StackConfig> | null;
  return typeof c?.signIn?.domain === "string" && typeof c.apiUrl === "string" && typeof c.region === "string";
}

/** Credentials are renewed this long before they expire, as the AWS SDK renews its own. */
export const RENEW_BEFORE_MS = 5 * 60_000;

const STORED = "gamefleet.signin.";
const VERIFIER = STORED + "verifier";
const STATE = STORED + "state";
const TOKENS = STORED + "tokens";

interface Tokens {
  idToken: string;
  refreshToken?: string;
}

/** What the page talks to: the hosted sign-in's token endpoint and the identity pool. */
export interface SignInPorts {
  fetch: typeof fetch;
  now: () => number;
  storage: Storage;
  /** Leaves the page for the hosted sign-in. */
  go: (url: string) => void;
  identity: Pick<CognitoIdentityClient, "send">;
}

/**
 * The connection of a signed-in user, or null when the browser is on its way to the hosted
 * sign-in (the page comes back with a code). Throws when the sign-in said no.
 */
export async function signedIn(config: StackConfig, ports: SignInPorts = browserPorts(config)): Promise<Connection | null> {
  // The app client's callback is the distribution's URL, https://<domain>/, whether or not index.html was named.
  const session = new SignInSession(config, ports, location.origin + location.pathname.replace(/index\.html$/, ""));
  const query = new URLSearchParams(location.search);
  if (query.has("error")) {
    throw new Error(`sign-in refused: ${query.get("error_description") ?? query.get("error")}`);
  }
  if (query.has("code")) {
    await session.exchange(query.get("code")!, query.get("state") ?? "");
    // The code is spent: the address keeps only the view.
    history.replaceState(null, "", location.pathname + location.hash);
  } else if (!session.signedIn()) {
    await session.begin();
    return null;
  }
  return {
    endpoint: config.apiUrl.replace(/\/+$/, ""),
    region: config.region,
    accessKeyId: "",
    secretAccessKey: "",
    credentials: () => session.credentials(),
    signingName: "execute-api",
    local: false,
  };
}

/**
 * "Sign out": forgets this tab's tokens and ends the hosted sign-in's session too (its /logout),
 * which sends the browser back to the page, and so to the sign-in.
 */
export function signOutLink(config: StackConfig): HTMLAnchorElement {
  const back = location.origin + location.pathname.replace(/index\.html$/, "");
  const link = document.createElement("a");
  link.className = "sign-out";
  link.textContent = "Sign out";
  link.href = `${config.signIn.domain}/logout?${new URLSearchParams({ client_id: config.signIn.clientId, logout_uri: back })}`;
  link.addEventListener("click", () => sessionStorage.removeItem(TOKENS));
  return link;
}

function browserPorts(config: StackConfig): SignInPorts {
  return {
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    storage: sessionStorage,
    go: (url) => location.assign(url),
    identity: new CognitoIdentityClient({
      region: config.region,
      endpoint: config.signIn.identityEndpoint,
      maxAttempts: 2,
    }),
  };
}

/** One tab's sign-in: the PKCE round trip, its tokens, and the credentials they buy. */
export class SignInSession {
  private identityId?: string;
  private current?: Credentials;
  private pending?: Promise<Credentials>;

  constructor(
    private readonly config: StackConfig,
    private readonly ports: SignInPorts,
    /** The page's address, which the app client's callback URL is. */
    private readonly redirectUri: string,
  ) {}

  signedIn(): boolean {
    return this.ports.storage.getItem(TOKENS) !== null;
  }

  /** To the hosted sign-in, with a new verifier's S256 challenge and a state, both kept for the way back. */
  async begin(): Promise<void> {
    const verifier = randomText(32);
    const state = randomText(16);
    this.ports.storage.setItem(VERIFIER, verifier);
    this.ports.storage.setItem(STATE, state);
    const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
    const query = new URLSearchParams({
      response_type: "code",
      client_id: this.config.signIn.clientId,
      redirect_uri: this.redirectUri,
      scope: "openid email",
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    this.ports.go(`${this.config.signIn.domain}/oauth2/authorize?${query}`);
  }

  /** The way back: the code, with the verifier that only this tab holds, for the tokens. */
  async exchange(code: string, state: string): Promise<void> {
    const verifier = this.ports.storage.getItem(VERIFIER);
    const expected = this.ports.storage.getItem(STATE);
    this.ports.storage.removeItem(VERIFIER);
    this.ports.storage.removeItem(STATE);
    if (!verifier || !expected || state !== expected) {
      throw new Error("sign-in: this tab did not start that sign-in (its state does not match); reload the page");
    }
    const answer = await this.token({ grant_type: "authorization_code", code, redirect_uri: this.redirectUri,
      code_verifier: verifier });
    this.store({ idToken: answer.id_token, refreshToken: answer.refresh_token });
  }

  /**
   * The role's credentials: those held while they have more than RENEW_BEFORE_MS left, else new
   * ones (with a renewed ID token if it is about to expire too); one renewal at a time.
   */
  credentials(): Promise<Credentials> {
    const current = this.current;
    if (current?.expiration && current.expiration.getTime() - this.ports.now() > RENEW_BEFORE_MS) {
      return Promise.resolve(current);
    }
    this.pending ??= this.renew().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async renew(): Promise<Credentials> {
    let tokens = this.tokens();
    if (expiresAt(tokens.idToken) - this.ports.now() <= RENEW_BEFORE_MS) {
      if (!tokens.refreshToken) return this.again();
      try {
        const answer = await this.token({ grant_type: "refresh_token", refresh_token: tokens.refreshToken });
        tokens = { idToken: answer.id_token, refreshToken: tokens.refreshToken };
        this.store(tokens);
      } catch {
        // The refresh token expired (12 h) or was revoked: sign in again.
        return this.again();
      }
    }
    const logins = { [this.config.signIn.userPoolProviderName]: tokens.idToken };
    this.identityId ??= (await this.ports.identity.send(new GetIdCommand({
      IdentityPoolId: this.config.signIn.identityPoolId,
      Logins: logins,
    }))).IdentityId;
    const answer = await this.ports.identity.send(new GetCredentialsForIdentityCommand({
      IdentityId: this.identityId,
      Logins: logins,
    }));
    const c = answer.Credentials;
    if (!c?.AccessKeyId || !c.SecretKey) {
      throw new Error("sign-in: the identity pool gave no credentials (is the user in the admins or viewers group?)");
    }
    this.current = { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretKey, sessionToken: c.SessionToken,
      expiration: c.Expiration ? new Date(c.Expiration) : undefined };
    return this.current;
  }

  /** Forgets the tokens and goes to the hosted sign-in; the page does not come back to this call. */
  private async again(): Promise<never> {
    this.ports.storage.removeItem(TOKENS);
    await this.begin();
    return new Promise<never>(() => {});
  }

  private async token(form: Record<string, string>): Promise<{ id_token: string; refresh_token?: string }> {
    const response = await this.ports.fetch(`${this.config.signIn.domain}/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: this.config.signIn.clientId, ...form }),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json().catch(() => ({}))) as { id_token?: string; refresh_token?: string; error?: string };
    if (!response.ok || !answer.id_token) {
      throw new Error(`sign-in: the token endpoint said ${answer.error ?? response.status}`);
    }
    return { id_token: answer.id_token, refresh_token: answer.refresh_token };
  }

  private tokens(): Tokens {
    const text = this.ports.storage.getItem(TOKENS);
    if (!text) throw new Error("sign-in: not signed in");
    return JSON.parse(text) as Tokens;
  }

  private store(tokens: Tokens): void {
    this.ports.storage.setItem(TOKENS, JSON.stringify(tokens));
  }
}

/** When a JWT expires (its exp claim, in ms); 0 when it cannot be read, so that it is renewed. */
export function expiresAt(jwt: string): number {
  try {
    const payload = jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return Number((JSON.parse(atob(payload)) as { exp?: number }).exp ?? 0) * 1000;
  } catch {
    return 0;
  }
}

function randomText(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
