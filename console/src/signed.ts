// Gamefleet's own routes (docs/api.md, "Gamefleet extensions"), which no GameLift client knows: a
// fetch signed by the AWS SDK's own SigV4 signer for `execute-api`, as API Gateway wants.
import { Sha256 } from "@smithy/core/checksum";
import { HttpRequest } from "@smithy/core/transport";
import { SignatureV4 } from "@smithy/signature-v4";
import { ApiError, ConnectionError, signingCredentials, type Connection } from "./api";

/** One refresh comes every 2 s: a request that takes longer is a lost connection, never a hang. */
const TIMEOUT_MS = 5000;

export class SignedFetch {
  private readonly signer: SignatureV4;

  constructor(private readonly connection: Connection) {
    this.signer = new SignatureV4({
      service: "execute-api",
      region: connection.region,
      credentials: signingCredentials(connection),
      // The hash the SDK's GameLift client signs with: WebCrypto in the browser.
      sha256: Sha256,
    });
  }

  /** The route's JSON answer; an ApiError with the API's code and message when it refuses. */
  async json<T>(method: "GET" | "PUT", path: string, query: Record<string, string> = {}, body?: unknown): Promise<T> {
    const url = new URL(this.connection.endpoint + path);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const signed = await this.signer.sign(new HttpRequest({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query,
      // The browser sends Host itself (from the URL); it is signed all the same.
      headers: { host: url.host, ...(text === undefined ? {} : { "content-type": "application/json" }) },
      body: text,
    }));
    const { host: _host, ...headers } = signed.headers;
    const search = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    let response: Response;
    try {
      response = await fetch(url.origin + url.pathname + (search ? `?${search}` : ""), {
        method,
        headers,
        body: text,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      throw new ConnectionError((e as Error).message);
    }
    const answer = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = answer ? (JSON.parse(answer) as Record<string, unknown>) : {};
    } catch {
      // not JSON (a proxy's page): its text is the message
    }
    if (!response.ok) {
      // Gamefleet's {"__type", "Message"}, or API Gateway's own {"message"} (a bad signature, IAM).
      const message = (parsed.Message ?? parsed.message ?? answer) as string;
      throw new ApiError((parsed.__type as string | undefined) ?? (response.status === 403 ? "Forbidden" : "Error"), message, response.status);
    }
    return parsed as T;
  }
}
