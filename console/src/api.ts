// Gamefleet as any client calls it: the official AWS SDK for JavaScript v3 GameLift client (AWS JSON
// 1.1, SigV4), at the endpoint and with the credentials the page was given.
import {
  ClaimGameServerCommand,
  CreateGameServerGroupCommand,
  DeleteGameServerGroupCommand,
  DescribeGameServerCommand,
  DescribeGameServerGroupCommand,
  DescribeGameServerInstancesCommand,
  GameLiftClient,
  ListGameServerGroupsCommand,
  ListGameServersCommand,
  ResumeGameServerGroupCommand,
  SuspendGameServerGroupCommand,
  UpdateGameServerGroupCommand,
  type ClaimGameServerInput,
  type CreateGameServerGroupInput,
  type GameServer,
  type GameServerGroup,
  type GameServerInstance,
  type GameServerGroupDeleteOption,
  type UpdateGameServerGroupInput,
} from "@aws-sdk/client-gamelift";

/** Temporary or long-term AWS credentials, as the SDK's signers take them. */
export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** Where and as whom the page calls. */
export interface Connection {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Credentials that change (a signed-in user's, src/signin.ts): asked for at each signature, instead of the keys above. */
  credentials?: () => Promise<Credentials>;
  /** API Gateway in AWS takes only `execute-api`; the local profile takes the client's `gamelift` too. */
  signingName?: string;
  /** The local profile: its /_local paths are there. */
  local: boolean;
}

/** An instance with Gamefleet's additions to FleetIQ's shape, which the SDK's model does not know. */
export interface Instance extends GameServerInstance {
  InstanceType?: string;
  LaunchTime?: number;
}

/** A game server with Gamefleet's InstanceStatus. */
export interface Server extends GameServer {
  InstanceStatus?: string;
}

/** A refusal of the API: its error code and message, as it sent them. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Whether the API refused for its rate (API Gateway's 429, Gamefleet's ThrottlingException). */
export function isThrottled(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 429 || e.code === "ThrottlingException" || e.code === "TooManyRequestsException");
}

/** The request never got an answer: the connection is lost. */
export class ConnectionError extends Error {}

const RAW = Symbol("raw body");

export class Gamefleet {
  private readonly client: GameLiftClient;

  constructor(readonly connection: Connection) {
    const config = {
      endpoint: connection.endpoint,
      region: connection.region,
      credentials: signingCredentials(connection),
      signingName: connection.signingName || undefined,
      // A refresh comes every 2 s anyway: a lost connection shows at once, and no request hangs.
      maxAttempts: 1,
      requestHandler: { requestTimeout: 5000 },
    };
    // signingName is read by the SigV4 signer though the config's type leaves it out (see the README's snippet).
    this.client = new GameLiftClient(config);
    // The SDK's model drops members it does not know (InstanceType, LaunchTime, InstanceStatus):
    // keep the raw JSON body too, before its deserializer reads it.
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        const response = out.response as { statusCode?: number; body?: unknown };
        if (response.statusCode === 200 && response.body) {
          const bytes = new Uint8Array(await new Response(response.body as BodyInit).arrayBuffer());
          response.body = bytes;
          try {
            (context as Record<symbol, unknown>)[RAW] = JSON.parse(new TextDecoder().decode(bytes));
          } catch {
            // not JSON: the deserializer reports it
          }
        }
        return out;
      },
      { step: "deserialize", priority: "low", name: "gamefleetRawBody" },
    );
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        Object.defineProperty(result.output as object, RAW, {
          value: (context as Record<symbol, unknown>)[RAW],
          enumerable: false,
        });
        return result;
      },
      { step: "initialize", priority: "high", name: "gamefleetRawOutput" },
    );
  }

  private async send<T>(command: object): Promise<T> {
    try {
      return (await this.client.send(command as never)) as T;
    } catch (e) {
      throw asError(e);
    }
  }

  async groups(): Promise<GameServerGroup[]> {
    const groups: GameServerGroup[] = [];
    let token: string | undefined;
    do {
      const page = await this.send<{ GameServerGroups?: GameServerGroup[]; NextToken?: string }>(
        new ListGameServerGroupsCommand({ Limit: 100, NextToken: token }),
      );
      groups.push(...(page.GameServerGroups ?? []));
      token = page.NextToken;
    } while (token);
    return groups;
  }

  async group(name: string): Promise<GameServerGroup> {
    const out = await this.send<{ GameServerGroup?: GameServerGroup }>(
      new DescribeGameServerGroupCommand({ GameServerGroupName: name }),
    );
    return out.GameServerGroup!;
  }

  /** Every instance of a group, with Gamefleet's InstanceType and LaunchTime. */
  async instances(name: string): Promise<Instance[]> {
    const instances: Instance[] = [];
    let token: string | undefined;
    do {
      const page = await this.send<{ NextToken?: string; [RAW]?: { GameServerInstances?: Instance[] } }>(
        new DescribeGameServerInstancesCommand({ GameServerGroupName: name, Limit: 100, NextToken: token }),
      );
      instances.push(...(page[RAW]?.GameServerInstances ?? []));
      token = page.NextToken;
    } while (token);
    return instances;
  }

  /** One page of a group's game servers, in registration order, from `token` (the first page without one). */
  async serverPage(name: string, limit: number, token?: string): Promise<{ servers: Server[]; nextToken?: string }> {
    const page = await this.send<{ GameServers?: GameServer[]; NextToken?: string; [RAW]?: { GameServers?: Server[] } }>(
      new ListGameServersCommand({ GameServerGroupName: name, Limit: limit, NextToken: token }),
    );
    const raw = page[RAW]?.GameServers ?? [];
    return { servers: (page.GameServers ?? []).map((s, i) => ({ ...s, InstanceStatus: raw[i]?.InstanceStatus })), nextToken: page.NextToken };
  }

  /** One game server, or null when it is not registered (any more). */
  async server(name: string, id: string): Promise<Server | null> {
    try {
      const out = await this.send<{ GameServer?: GameServer; [RAW]?: { GameServer?: Server } }>(
        new DescribeGameServerCommand({ GameServerGroupName: name, GameServerId: id }),
      );
      return { ...out.GameServer, InstanceStatus: out[RAW]?.GameServer?.InstanceStatus };
    } catch (e) {
      if (e instanceof ApiError && e.code === "NotFoundException") return null;
      throw e;
    }
  }

  async create(input: CreateGameServerGroupInput): Promise<GameServerGroup> {
    return (await this.send<{ GameServerGroup: GameServerGroup }>(new CreateGameServerGroupCommand(input))).GameServerGroup;
  }

  async update(input: UpdateGameServerGroupInput): Promise<GameServerGroup> {
    return (await this.send<{ GameServerGroup: GameServerGroup }>(new UpdateGameServerGroupCommand(input))).GameServerGroup;
  }

  async suspend(name: string): Promise<void> {
    await this.send(new SuspendGameServerGroupCommand({ GameServerGroupName: name, SuspendActions: ["REPLACE_INSTANCE_TYPES"] }));
  }

  async resume(name: string): Promise<void> {
    await this.send(new ResumeGameServerGroupCommand({ GameServerGroupName: name, ResumeActions: ["REPLACE_INSTANCE_TYPES"] }));
  }

  async delete(name: string, option: GameServerGroupDeleteOption): Promise<void> {
    await this.send(new DeleteGameServerGroupCommand({ GameServerGroupName: name, DeleteOption: option }));
  }

  async claim(input: ClaimGameServerInput): Promise<GameServer> {
    return (await this.send<{ GameServer: GameServer }>(new ClaimGameServerCommand(input))).GameServer;
  }
}

/** What the connection's requests are signed with: its changing credentials, else its keys. */
export function signingCredentials(connection: Connection): Credentials | (() => Promise<Credentials>) {
  return connection.credentials ?? {
    accessKeyId: connection.accessKeyId,
    secretAccessKey: connection.secretAccessKey,
    sessionToken: connection.sessionToken || undefined,
  };
}

/** The SDK's exception as the API's code and message, or a lost connection. */
export function asError(e: unknown): Error {
  if (e instanceof ApiError || e instanceof ConnectionError) return e;
  const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  if (status) return new ApiError(err.name ?? "Error", err.message ?? "", status);
  return new ConnectionError(err.message || String(e));
}
