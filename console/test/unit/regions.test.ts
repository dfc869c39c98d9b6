import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, ConnectionError, type Connection } from "../../src/api";
import { notAnswered, readPeers, Region, Regions } from "../../src/regions";

const HOME: Connection = {
  endpoint: "http://127.0.0.1:4590",
  region: "us-east-1",
  accessKeyId: "local-admin",
  secretAccessKey: "local-admin-secret",
  local: true,
};
const PEER = { Region: "eu-west-1", ApiUrl: "http://127.0.0.1:4591/" };

interface Call {
  url: string;
  authorization: string;
}

/** A fetch that answers each URL by `answer`, and keeps what was asked. */
function fakeFetch(answer: (url: string) => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, authorization: String((init.headers as Record<string, string>).authorization ?? "") });
    return answer(url);
  });
  return calls;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("Regions", () => {
  it("lists the home, then each peer at its ApiUrl, signed for execute-api in the peer's region with the home's keys", async () => {
    const calls = fakeFetch((url) => url.startsWith("http://127.0.0.1:4590/regions")
      ? json(200, { Regions: [{ Region: "us-east-1", Home: true }, PEER] })
      : json(200, { Sessions: [] }));
    const regions = new Regions(HOME);
    const [home, peer, ...rest] = await regions.list();
    expect(rest).toEqual([]);
    expect(home).toBe(regions.home);
    expect(home.name).toBe("us-east-1");
    expect(calls[0].url).toBe("http://127.0.0.1:4590/regions");
    expect(calls[0].authorization).toMatch(/Credential=local-admin\/\d{8}\/us-east-1\/execute-api\/aws4_request/);

    expect(peer.name).toBe("eu-west-1");
    expect(peer.home).toBe(false);
    expect(peer.connection).toEqual({ endpoint: "http://127.0.0.1:4591", region: "eu-west-1", accessKeyId: "local-admin",
      secretAccessKey: "local-admin-secret", sessionToken: undefined, signingName: "execute-api", local: false });
    await peer.extensions.sessions("arena", 50);
    expect(calls[1].url).toBe("http://127.0.0.1:4591/game-server-groups/arena/sessions?Limit=50");
    expect(calls[1].authorization).toMatch(/Credential=local-admin\/\d{8}\/eu-west-1\/execute-api\/aws4_request/);

    // The next list keeps each peer's clients; find() names it without asking again.
    const again = await regions.list();
    expect(again[1]).toBe(peer);
    expect(await regions.find("eu-west-1")).toBe(peer);
    expect(calls.filter((c) => c.url.endsWith("/regions"))).toHaveLength(2);
    expect(await regions.find("ap-south-1")).toBeUndefined();
  });

  it("is the home alone when /regions names no peer", async () => {
    fakeFetch(() => json(200, { Regions: [{ Region: "us-east-1", Home: true }] }));
    const regions = new Regions(HOME);
    expect(await regions.list()).toEqual([regions.home]);
  });

  it("is the home alone, not asked again, on a stage before regions (404)", async () => {
    const calls = fakeFetch(() => json(404, { message: "Not Found" }));
    const regions = new Regions(HOME);
    expect(await regions.list()).toEqual([regions.home]);
    expect(await regions.list()).toEqual([regions.home]);
    expect(calls).toHaveLength(1);
    expect(regions.listError).toBeNull();
  });

  it("keeps the regions it listed before when the home refuses /regions, and says why", async () => {
    let refuse = false;
    fakeFetch(() => refuse ? json(500, { __type: "InternalServiceException", Message: "boom" })
      : json(200, { Regions: [{ Region: "us-east-1", Home: true }, PEER] }));
    const regions = new Regions(HOME);
    const before = await regions.list();
    refuse = true;
    expect(await regions.list()).toEqual(before);
    expect(regions.listError).toBeInstanceOf(ApiError);
    expect(regions.listError?.status).toBe(500);
    refuse = false;
    await regions.list();
    expect(regions.listError).toBeNull();
  });

  it("throws a lost connection to the home, as any read of the home's", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(new Regions(HOME).list()).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe("readPeers", () => {
  const peer = new Region("eu-west-1", false, { ...HOME, endpoint: "http://127.0.0.1:4591", region: "eu-west-1", local: false });
  const other = new Region("ap-south-1", false, { ...HOME, endpoint: "http://127.0.0.1:4592", region: "ap-south-1", local: false });

  it("gives each peer's answer, and a peer's refusal as its error, in the peers' order", async () => {
    const reads = await readPeers([peer, other], async (r) => {
      if (r === other) throw new ApiError("UnauthorizedException", "not admitted", 403);
      return r.name.toUpperCase();
    });
    expect(reads.map((r) => [r.region.name, r.value ?? null])).toEqual([["eu-west-1", "EU-WEST-1"], ["ap-south-1", null]]);
    expect(notAnswered(reads[1] as { region: Region; error: Error })).toBe("region ap-south-1 did not answer: UnauthorizedException (403): not admitted");
  });

  it("gives a peer that does not answer its time, and says so, while the others answer", async () => {
    vi.useFakeTimers();
    let done = false;
    const reading = readPeers([peer, other], (r) => r === peer ? new Promise<string>(() => {}) : Promise.resolve("groups"), 3000);
    void reading.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const [silent, answered] = await reading;
    expect(answered.value).toBe("groups");
    expect(silent.error).toBeInstanceOf(ConnectionError);
    expect(notAnswered(silent as { region: Region; error: Error })).toBe("region eu-west-1 did not answer: no answer within 3 s");
  });

  it("gives a lost connection to one peer as its error alone", async () => {
    const reads = await readPeers([peer, other], async (r) => {
      if (r === peer) throw new ConnectionError("Failed to fetch");
      return "groups";
    });
    expect(notAnswered(reads[0] as { region: Region; error: Error })).toBe("region eu-west-1 did not answer: Failed to fetch");
    expect(reads[1].value).toBe("groups");
  });
});
