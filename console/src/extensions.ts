// Gamefleet's own routes that the console uses (docs/api.md, "Gamefleet extensions"): a group's
// standby buffer, its claim strategy and its sessions, and the stage's regions. Times come as
// epoch seconds.
import type { SignedFetch } from "./signed";

/** A count of servers, or a percentage of the group's servers such as "20%". */
export type Buffer = number | string;

export interface StandbyPolicy {
  StandingBy: Buffer;
  Dynamic?: { BelowPercent: number; Multiplier: number }[];
  RampDownSeconds?: number;
  Schedule?: { Start: number | string; End: number | string; StandingBy: Buffer }[];
  ScaleInCooldownSeconds?: number;
  /** After a balancer run evaluated the policy. */
  LastEvaluation?: {
    EvaluationTime: number;
    TargetStandingBy: number;
    StandingBy: number;
    InUse: number;
    ServersPerInstance: number;
    DesiredCapacity: number;
    Multiplier: number;
  };
}

export type ClaimStrategy = "FLEETIQ" | "PACKED" | "DISTRIBUTED";
export const CLAIM_STRATEGIES: readonly ClaimStrategy[] = ["FLEETIQ", "PACKED", "DISTRIBUTED"];

export interface Session {
  SessionId: string;
  State: "CLAIMED" | "ACTIVE" | "ENDED";
  /** The region the session is in (a stage before regions sends none). */
  Region?: string;
  GameServerId: string;
  InstanceId?: string;
  CreationTime: number;
  ClaimExpirationTime?: number;
  ConnectedPlayers?: number;
  PlayerIds?: string[];
  InitialPlayers?: string[];
}

/** One member of GET /regions' answer: the home, or a peer with its API's URL. */
export interface RegionEntry {
  Region: string;
  Home?: boolean;
  ApiUrl?: string;
}

export interface SessionsPage {
  Sessions: Session[];
  NextToken?: string;
}

/**
 * A group's counts as the balancer's last run counted them (GET .../summary, docs/api.md's
 * DescribeGameServerGroupSummary), at AsOf (epoch seconds).
 */
export interface GroupCounts {
  AsOf: number;
  GameServers: number;
  /** FleetIQ's, as the metrics publish them: none on SPOT_TERMINATING instances; claimed ones included. */
  Available: number;
  Utilized: number;
  PercentUtilized: number;
  /** Of the Available ones: no live claim, on an ACTIVE instance that is not retiring. */
  Claimable: number;
  Claimed: number;
  OnSpotTerminating: number;
  Processes?: Record<string, number>;
}

/** The group as DescribeGameServerGroup answers it (times as epoch seconds), and its counts once a run counted them. */
export interface GroupSummary {
  GameServerGroup: Record<string, unknown>;
  Summary?: GroupCounts;
}

/** A group's counts over the last hour as the balancer's runs gave the metrics (GET .../metrics), oldest first; times in epoch seconds. */
export interface GroupMetrics {
  Period: number;
  GameServers: { Time: number; Available: number; Utilized: number; PercentUtilized: number }[];
}

export class GamefleetExtensions {
  constructor(private readonly signed: SignedFetch) {}

  private static path(group: string, route: string): string {
    return `/game-server-groups/${encodeURIComponent(group)}/${route}`;
  }

  async standby(group: string): Promise<StandbyPolicy> {
    return (await this.signed.json<{ StandbyPolicy: StandbyPolicy }>("GET", GamefleetExtensions.path(group, "standby"))).StandbyPolicy;
  }

  async putStandby(group: string, policy: unknown): Promise<StandbyPolicy> {
    return (await this.signed.json<{ StandbyPolicy: StandbyPolicy }>("PUT", GamefleetExtensions.path(group, "standby"), {}, policy)).StandbyPolicy;
  }

  async claimStrategy(group: string): Promise<ClaimStrategy> {
    return (await this.signed.json<{ ClaimStrategy: ClaimStrategy }>("GET", GamefleetExtensions.path(group, "claim-strategy"))).ClaimStrategy;
  }

  async putClaimStrategy(group: string, strategy: ClaimStrategy): Promise<ClaimStrategy> {
    return (await this.signed.json<{ ClaimStrategy: ClaimStrategy }>("PUT", GamefleetExtensions.path(group, "claim-strategy"), {}, { ClaimStrategy: strategy }))
      .ClaimStrategy;
  }

  /** This stage's region, then its peers' with their ApiUrl (a stage before regions answers 404). */
  async regions(): Promise<{ Regions: RegionEntry[] }> {
    return this.signed.json<{ Regions: RegionEntry[] }>("GET", "/regions");
  }

  /** The group and its last balancer run's counts: no listing, whatever the group's size (a stage before the route answers 404). */
  async summary(group: string): Promise<GroupSummary> {
    return this.signed.json<GroupSummary>("GET", GamefleetExtensions.path(group, "summary"));
  }

  /** The group's counts over the last hour: CloudWatch's in AWS, the profile's metrics locally (a stage before the route answers 404). */
  async metrics(group: string): Promise<GroupMetrics> {
    return this.signed.json<GroupMetrics>("GET", GamefleetExtensions.path(group, "metrics"));
  }

  /** One page of the group's sessions, newest first. */
  async sessions(group: string, limit: number): Promise<SessionsPage> {
    return this.signed.json<SessionsPage>("GET", GamefleetExtensions.path(group, "sessions"), { Limit: String(limit) });
  }
}
