// The regions the console shows: its home (the API it is configured with) and each peer that the
// home's GET /regions names, each called at its own ApiUrl, signed for execute-api in its own
// region with the same keys. A peer that does not answer within PEER_TIMEOUT_MS is said so, and
// asked again at the next refresh; the home alone decides whether the connection is lost.
import { ApiError, ConnectionError, Gamefleet, type Connection } from "./api";
import { GamefleetExtensions, type RegionEntry } from "./extensions";
import { SignedFetch } from "./signed";

/** How long a peer has to answer one refresh's reads before the page says it did not. */
const PEER_TIMEOUT_MS = 3000;

/** One region's API: the GameLift client and Gamefleet's own routes, at its endpoint. */
export class Region {
  readonly api: Gamefleet;
  readonly extensions: GamefleetExtensions;

  constructor(
    readonly name: string,
    readonly home: boolean,
    readonly connection: Connection,
  ) {
    this.api = new Gamefleet(connection);
    this.extensions = new GamefleetExtensions(new SignedFetch(connection));
  }
}

/** What a region answered a read, or why it did not. */
export type RegionRead<T> = { region: Region; value: T; error?: undefined } | { region: Region; error: Error; value?: undefined };

/** The connection to a peer: its ApiUrl and region, the home's keys, signed for execute-api as API Gateway wants. */
function peerConnection(home: Connection, peer: RegionEntry): Connection {
  return {
    endpoint: peer.ApiUrl!.replace(/\/+$/, ""),
    region: peer.Region,
    accessKeyId: home.accessKeyId,
    secretAccessKey: home.secretAccessKey,
    sessionToken: home.sessionToken,
    credentials: home.credentials,
    signingName: "execute-api",
    local: false,
  };
}

export class Regions {
  readonly home: Region;
  /** Peers by region and ApiUrl, so that each keeps its clients from one refresh to the next. */
  private readonly peers = new Map<string, Region>();
  private last: Region[];
  /** An older stage without GET /regions (404): it has no peers, and is not asked again. */
  private unpeered = false;
  /** What the home refused the last GET /regions with (then the regions listed before are kept), or null. */
  listError: ApiError | null = null;

  constructor(private readonly connection: Connection) {
    this.home = new Region(connection.region, true, connection);
    this.last = [this.home];
  }

  /**
   * The home, then its peers, as the home's GET /regions names them now. A 404 (a stage before
   * regions) is the home alone; another refusal keeps the regions listed before (listError says
   * why); a lost connection is thrown, as any read of the home's.
   */
  async list(): Promise<Region[]> {
    if (this.unpeered) return this.last;
    let entries: RegionEntry[];
    try {
      entries = (await this.home.extensions.regions()).Regions ?? [];
      this.listError = null;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.status === 404) {
        this.unpeered = true;
        return (this.last = [this.home]);
      }
      this.listError = e;
      return this.last;
    }
    const peers = entries.filter((r) => !r.Home && r.ApiUrl && r.Region !== this.home.name).map((r) => {
      const key = `${r.Region} ${r.ApiUrl}`;
      let region = this.peers.get(key);
      if (!region) {
        region = new Region(r.Region, false, peerConnection(this.connection, r));
        this.peers.set(key, region);
      }
      return region;
    });
    return (this.last = [this.home, ...peers]);
  }

  /** The region of that name, from the last list, or from a new one if it is not in it. */
  async find(name: string): Promise<Region | undefined> {
    return this.last.find((r) => r.name === name) ?? (await this.list()).find((r) => r.name === name);
  }
}

/**
 * Reads every peer at once, each given `timeoutMs`: what one did not answer in time, or refused, is
 * its error, never the others' (nor the home's, which the caller reads as it always did).
 */
export async function readPeers<T>(peers: readonly Region[], read: (region: Region) => Promise<T>,
  timeoutMs = PEER_TIMEOUT_MS): Promise<RegionRead<T>[]> {
  return Promise.all(peers.map(async (region): Promise<RegionRead<T>> => {
    try {
      return { region, value: await within(read(region), timeoutMs) };
    } catch (e) {
      return { region, error: e as Error };
    }
  }));
}

/** The promise's value, or a ConnectionError once `ms` passed. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectionError(`no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** "region eu-west-1 did not answer: …", with what it said if it refused. */
export function notAnswered(read: { region: Region; error: Error }): string {
  const e = read.error;
  const why = e instanceof ApiError ? `${e.code} (${e.status}): ${e.message}` : e.message;
  return `region ${read.region.name} did not answer: ${why}`;
}
