// The local profile's own control paths (docs/local-profile.md, "Local-only paths"): only there.
import { ApiError, ConnectionError } from "./api";

export interface TimelineEntry {
  Sequence: number;
  Time: string;
  Kind: "Event" | "Schedule" | "Metric";
  Name: string;
  Detail: Record<string, unknown>;
}

export class LocalProfile {
  /** The per-run token that state-changing /_local paths may require, if the profile hands one out. */
  constructor(
    private readonly origin: string,
    private readonly token?: string,
  ) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.token) headers["X-Gamefleet-Local-Token"] = this.token;
    try {
      response = await fetch(this.origin + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
    } catch (e) {
      throw new ConnectionError((e as Error).message);
    }
    const text = await response.text();
    let parsed: Record<string, string> = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // not JSON: the text is the message
    }
    if (!response.ok) {
      throw new ApiError(parsed.__type ?? "Error", parsed.Message ?? parsed.message ?? text, response.status);
    }
    return parsed;
  }

  /** EC2's Spot interruption warning for each instance: Gamefleet marks them SPOT_TERMINATING. */
  async interrupt(instanceIds: string[]): Promise<void> {
    await this.call(
      "POST",
      "/_local/events",
      instanceIds.map((id) => ({
        source: "aws.ec2",
        "detail-type": "EC2 Spot Instance Interruption Warning",
        detail: { "instance-id": id, "instance-action": "terminate" },
      })),
    );
  }

  /** Runs the balancer now, as its schedule would. */
  async runBalancer(): Promise<Record<string, number>> {
    return (await this.call("POST", "/_local/schedules/RunBalancer")) as Record<string, number>;
  }

  async timeline(after: number): Promise<TimelineEntry[]> {
    return ((await this.call("GET", `/_local/timeline?after=${after}`)) as { Entries: TimelineEntry[] }).Entries;
  }
}
