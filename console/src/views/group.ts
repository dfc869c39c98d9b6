// One group: its settings and actions, its counts, its instances by type and status, one page of
// its game servers, charts of the last hour, the timeline of the balancer and Spot interruptions,
// claims, its standby buffer and sessions, and (locally) interruptions.
//
// A refresh reads what the view shows, whatever the group's size: the group with its counts as the
// balancer's last run counted them (GET .../summary), its instances (a page per 100), the page of
// game servers shown, the newest sessions, and one read that is due (the charts' last hour once,
// GET .../metrics; the standby policy after a balancer run or a put, the claim strategy after a
// put, the caller's leave to put once, the claimed server followed, locally the profile's
// timeline), taken in turn: at most five calls for a group of up to 100 instances.
import type { GameServerGroup } from "@aws-sdk/client-gamelift";
import { ApiError, Gamefleet, isThrottled, type Instance, type Server } from "../api";
import { Chart } from "../chart";
import { clock, el, reconcile, setAttr, setText } from "../dom";
import type { GamefleetExtensions, GroupCounts } from "../extensions";
import type { Live, View } from "../live";
import type { LocalProfile } from "../local";
import type { Region } from "../regions";
import { Series } from "../series";
import { GroupActions } from "./actions";
import { errorBox } from "./errors";
import { PAGE_SIZE, ServerTable } from "./servers";
import { SessionTable } from "./sessions";
import { StandbyPanel } from "./standby";
import { Timeline } from "./timeline";

const STATUSES = ["ACTIVE", "DRAINING", "SPOT_TERMINATING"] as const;
/** PlayFab's states the profile's process metrics count (Terminated is in none). */
const PROCESS_STATES = ["Initializing", "StandingBy", "Active", "Terminating"] as const;

export class GroupView implements View {
  readonly element: HTMLElement;
  private readonly api: Gamefleet;
  private readonly extensions: GamefleetExtensions;
  /** False once the stage answered 404 for the summary route (a stage from before it): the group alone then, no counts. */
  private summaryRoute = true;
  private lastCounts: GroupCounts | null = null;
  private turnOfDue = 0;
  /** Whether the charts' history is still to be read (once, when the group opens). */
  private historyDue = true;
  /** The time of the history's newest point: a summary's counts of the same run or older are in it already. */
  private historyUntil = 0;
  private readonly summary: HTMLElement;
  private readonly fleet: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly servers: ServerTable;
  private readonly sessions: SessionTable;
  private readonly standby: StandbyPanel;
  private readonly timeline: Timeline;
  private readonly actions: GroupActions;
  private readonly utilization = new Series();
  private readonly gameServers = new Series();
  private readonly perType = new Series();
  private readonly processes = new Series();
  private readonly players = new Series();
  private readonly charts: Chart[];
  private readonly claimed: HTMLElement;
  private readonly typeChoice: HTMLSelectElement;
  private readonly localResult: HTMLElement;
  private selected: string | null = null;
  private watching: string | null = null;
  private instances: Instance[] = [];

  /** `region`: the API the group is in (its region's, the home's or a peer's). */
  constructor(
    region: Region,
    private readonly name: string,
    private readonly live: Live,
    private readonly local: LocalProfile | null,
  ) {
    this.api = region.api;
    const extensions = region.extensions;
    this.extensions = extensions;
    this.summary = el("dl", { class: "summary", id: "group-summary" });
    this.actions = new GroupActions(this.api, name, live);
    this.fleet = el("div", { class: "fleet", id: "fleet", "aria-label": "Instances by type" });
    this.counts = el("p", { class: "counts", id: "instance-counts" });
    this.servers = new ServerTable(() => live.now());
    this.sessions = new SessionTable(extensions, name);
    this.standby = new StandbyPanel(extensions, name, live);
    this.timeline = new Timeline(local, name, (metric, time, detail) => {
      if (metric === "Processes") {
        for (const state of PROCESS_STATES) this.processes.add(state, time, Number(detail[state]));
        this.players.add("connected players", time, Number(detail["ConnectedPlayers"]));
        return;
      }
      // The game server counts' history comes from the metrics route (GET .../metrics).
    });
    this.charts = [
      // One figure, the group's metric: Utilized ÷ (Available + Utilized), none on interrupted instances.
      new Chart("Utilization (PercentUtilized)", this.utilization, " %", 100),
      new Chart("Game servers (the metrics' counts)", this.gameServers, ""),
      new Chart("Instances per type", this.perType, ""),
      // The agents' reports of their processes, as the profile's metrics count them at each balancer run.
      ...(local ? [new Chart("Game server processes", this.processes, ""), new Chart("Connected players", this.players, "")] : []),
    ];
    this.claimed = el("div", { class: "result", id: "claim-result", role: "status", "aria-live": "polite" });
    this.typeChoice = el("select", { id: "interrupt-type", "aria-label": "Instance type" });
    this.localResult = el("div", { class: "result", id: "local-result", role: "status", "aria-live": "polite" });

    this.element = el(
      "section",
      { class: "view", "aria-labelledby": "group-title" },
      el("h1", { id: "group-title" }, region.home ? `Group ${name}` : `Group ${name} in ${region.name}`),
      this.summary,
      this.actions.element,
      el("div", { class: "columns" },
        el("section", { class: "panel", "aria-labelledby": "fleet-title" },
          el("h2", { id: "fleet-title" }, "Instances"),
          el("p", { class: "legend-row" }, ...STATUSES.map((s) => el("span", { class: "tile-key", "data-status": s }, s))),
          this.counts, this.fleet),
        el("section", { class: "panel", "aria-labelledby": "claim-title" }, this.claimForm(), this.local ? this.localControls() : null)),
      el("section", { class: "panel", "aria-labelledby": "charts-title" },
        el("h2", { id: "charts-title" }, "Last hour"),
        el("p", { class: "muted" }, local
          ? "The counts of each balancer run, from the profile's metrics: the last hour at once; instances as the page read them."
          : "The group's metrics in CloudWatch, a point a minute, then each balancer run's counts; instances as the page read them."),
        el("div", { class: "charts" }, ...this.charts.map((c) => c.element))),
      el("div", { class: "columns lower" },
        el("section", { class: "panel", "aria-labelledby": "servers-title" },
          el("h2", { id: "servers-title" }, "Game servers"), this.servers.element),
        el("section", { class: "panel", "aria-labelledby": "timeline-title" },
          el("h2", { id: "timeline-title" }, "Balancer and Spot interruptions"), this.timeline.element)),
      el("section", { class: "panel", id: "sessions-panel", "aria-labelledby": "sessions-title" },
        el("h2", { id: "sessions-title" }, "Sessions"), this.sessions.element),
      this.standby.element,
    );
  }

  async refresh(): Promise<void> {
    const due = this.due();
    const read = due.length ? due[this.turnOfDue++ % due.length] : null;
    const [head, instances, page] = await Promise.all([
      this.head(),
      this.api.instances(this.name),
      this.api.serverPage(this.name, PAGE_SIZE, this.servers.token()),
      this.sessions.refresh(),
      read?.(),
    ]);
    const now = Date.now();
    this.instances = instances;
    const counts = head.counts;
    if (counts && counts.AsOf !== this.lastCounts?.AsOf) {
      // A balancer run since the last read: its standby evaluation is new too.
      this.standby.evaluated();
      if (counts.AsOf * 1000 > this.historyUntil) this.recordCounts(counts.AsOf * 1000, counts.PercentUtilized, counts.Available, counts.Utilized);
    }
    this.lastCounts = counts;
    this.showSummary(head.group, instances, counts);
    this.actions.show(head.group);
    this.showFleet(head.group, instances);
    this.servers.show(page, counts?.GameServers ?? null, now);
    this.recordInstances(instances, now);
    this.charts.forEach((c) => c.draw(now));
    this.showClaimed(page.servers.find((s) => s.GameServerId === this.watching));
    this.timeline.show(instances, now);
  }

  /** The reads that are due beside the view's four, one call each. */
  private due(): (() => Promise<void>)[] {
    return [
      // First: the page's first refresh reads the charts' last hour.
      ...(this.historyDue ? [() => this.readHistory()] : []),
      ...(this.local ? [() => this.timeline.readProfile()] : []),
      ...this.standby.due(),
      ...(this.watching ? [() => this.follow()] : []),
    ];
  }

  /**
   * The charts' last hour, once. A refusal (a stage without the route, a caller whose policy lacks
   * it) leaves the charts to start now, and the view as it is; a 429 is the page's to back off from.
   */
  private async readHistory(): Promise<void> {
    try {
      const history = await this.extensions.metrics(this.name);
      for (const p of history.GameServers) this.recordCounts(p.Time * 1000, p.PercentUtilized, p.Available, p.Utilized);
      this.historyUntil = Math.max(0, ...history.GameServers.map((p) => p.Time * 1000));
    } catch (e) {
      if (!(e instanceof ApiError) || isThrottled(e)) throw e;
      console.warn(`no history for the charts: ${e.code} (${e.status}) ${e.message}`);
    }
    this.historyDue = false;
  }

  /** The group and its counts in one call; a stage without the summary route: the group alone. */
  private async head(): Promise<{ group: GameServerGroup; counts: GroupCounts | null }> {
    if (this.summaryRoute) {
      try {
        const answer = await this.extensions.summary(this.name);
        return { group: answer.GameServerGroup as GameServerGroup, counts: answer.Summary ?? null };
      } catch (e) {
        // API Gateway's own 404 (no such route), not the API's NotFoundException (no such group), or a
        // 403 of a caller whose policy predates the route: DescribeGameServerGroup alone then.
        if (!(e instanceof ApiError && ((e.status === 404 && e.code !== "NotFoundException") || e.status === 403))) throw e;
        this.summaryRoute = false;
      }
    }
    return { group: await this.api.group(this.name), counts: null };
  }

  private showSummary(group: GameServerGroup, instances: Instance[], counts: GroupCounts | null): void {
    const items: [string, string, string?][] = [
      ["Status", group.Status ?? ""],
      ...(group.Status === "ERROR" ? [["Reason", group.StatusReason ?? ""] as [string, string]] : []),
      ["Balancing", group.BalancingStrategy ?? ""],
      ["Protection", group.GameServerProtectionPolicy ?? ""],
      ["Suspended", (group.SuspendedActions ?? []).join(", ") || "none"],
      ["Instances", String(instances.length)],
      ...(counts ? [
        ["Game servers", String(counts.GameServers), "Every registered game server."],
        ["Available", String(counts.Claimable), "Claimable then: AVAILABLE, under no live claim, on an ACTIVE instance. None on SPOT_TERMINATING instances."],
        ["Claimed", String(counts.Claimed), "Under a live claim, not yet UTILIZED."],
        ["Utilized", String(counts.Utilized), "UTILIZED; none on SPOT_TERMINATING instances."],
        ["On interrupted instances", String(counts.OnSpotTerminating), "On SPOT_TERMINATING instances: in no other count."],
        ["Utilization", `${counts.PercentUtilized.toFixed(1)} %`, "The group's PercentUtilized metric: Utilized ÷ (Available + Utilized), FleetIQ's counts, claimed servers among the available."],
        ["Counts as of", `${clock(new Date(counts.AsOf * 1000))} (the balancer's last run)`, "Each balancer run counts the group's game servers; the page lists none of them to count."],
      ] as [string, string, string][] : [
        ["Game servers", this.summaryRoute ? "not counted yet: the next balancer run counts them" : "not counted: this stage (or this caller's policy) has no summary route"],
      ] as [string, string][]),
    ];
    reconcile(this.summary, items, ([k]) => k, ([k]) => el("div", { "data-item": k }, el("dt", {}, k), el("dd")), (node, [k, v, title]) => {
      const dd = node.querySelector("dd")!;
      setText(dd, v);
      setAttr(node, "title", title ?? null);
      if (k === "Status") setAttr(dd, "data-status", v);
    });
  }

  private showFleet(group: GameServerGroup, instances: Instance[]): void {
    const types = [...new Set([...(group.InstanceDefinitions ?? []).map((d) => d.InstanceType!), ...instances.map((i) => i.InstanceType ?? "unknown")])];
    const byStatus = STATUSES.map((s) => `${instances.filter((i) => i.InstanceStatus === s).length} ${s}`);
    setText(this.counts, byStatus.join(" · "));
    reconcile(this.fleet, types, (t) => t, (t) => el("div", { class: "type", "data-type": t }, el("h3", {}, t), el("div", { class: "tiles" })), (column, t) => {
      const mine = instances.filter((i) => (i.InstanceType ?? "unknown") === t);
      setText(column.querySelector("h3")!, `${t} (${mine.length})`);
      reconcile(column.querySelector<HTMLElement>(".tiles")!, mine, (i) => i.InstanceId!, (i) => this.tile(i), (tile, i) => {
        setAttr(tile, "data-status", i.InstanceStatus ?? "");
        setAttr(tile, "aria-pressed", String(this.selected === i.InstanceId));
        setText(tile.querySelector(".sub")!, i.InstanceStatus ?? "");
        setAttr(tile, "title", `${i.InstanceId} ${i.InstanceType ?? ""} ${i.InstanceStatus}`);
      });
    });
    if (Array.from(this.typeChoice.options).map((o) => o.value).join() !== types.join()) {
      const keep = this.typeChoice.value;
      this.typeChoice.replaceChildren(...types.map((t) => el("option", { value: t }, t)));
      if (types.includes(keep)) this.typeChoice.value = keep;
    }
  }

  private tile(i: Instance): HTMLButtonElement {
    const tile = el("button", { type: "button", class: "tile", "data-instance": i.InstanceId }, el("span", { class: "id" }, i.InstanceId!), el("span", { class: "sub" }));
    tile.addEventListener("click", () => {
      this.selected = this.selected === i.InstanceId ? null : i.InstanceId!;
      for (const t of this.fleet.querySelectorAll(".tile")) setAttr(t, "aria-pressed", String(t.getAttribute("data-instance") === this.selected));
    });
    return tile;
  }

  /** A balancer run's counts, at its time: from the summary, or locally from the profile's metrics (their history too). */
  private recordCounts(time: number, percentUtilized: number, available: number, utilized: number): void {
    this.utilization.add("PercentUtilized", time, percentUtilized);
    this.gameServers.add("AvailableGameServers", time, available);
    this.gameServers.add("UtilizedGameServers", time, utilized);
  }

  private recordInstances(instances: Instance[], now: number): void {
    const types = new Map<string, number>();
    for (const name of this.perType.names()) types.set(name, 0);
    for (const i of instances) types.set(i.InstanceType ?? "unknown", (types.get(i.InstanceType ?? "unknown") ?? 0) + 1);
    for (const [type, count] of types) this.perType.add(type, now, count);
  }

  /** The claimed server, read alone (it need not be on the page shown). */
  private async follow(): Promise<void> {
    const id = this.watching;
    if (!id) return;
    const server = await this.api.server(this.name, id);
    if (this.watching === id) this.showClaimed(server ?? "gone");
  }

  private claimForm(): HTMLElement {
    const data = el("input", { name: "data", placeholder: "map=dunes", autocomplete: "off" });
    const id = el("input", { name: "server", placeholder: "any", autocomplete: "off" });
    const active = el("input", { type: "checkbox", name: "active", checked: true });
    const draining = el("input", { type: "checkbox", name: "draining", checked: true });
    const form = el(
      "form",
      { class: "form", id: "claim" },
      el("h2", { id: "claim-title" }, "Claim a game server"),
      el("div", { class: "fields" },
        el("label", {}, el("span", {}, "GameServerData"), data),
        el("label", {}, el("span", {}, "Game server id"), id),
        el("fieldset", {}, el("legend", {}, "On instances that are"),
          el("label", { class: "check" }, active, "ACTIVE"), el("label", { class: "check" }, draining, "DRAINING"))),
      el("button", { type: "submit" }, "Claim"),
      this.claimed,
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const statuses = [active.checked ? "ACTIVE" : null, draining.checked ? "DRAINING" : null].filter((s): s is string => s !== null);
      this.claimed.replaceChildren("Claiming…");
      try {
        const server = await this.api.claim({
          GameServerGroupName: this.name,
          GameServerId: id.value.trim() || undefined,
          GameServerData: data.value || undefined,
          FilterOption: { InstanceStatuses: statuses as ("ACTIVE" | "DRAINING")[] },
        });
        this.watching = server.GameServerId!;
        this.claimed.replaceChildren(
          el("span", { class: "ok" }, "Claimed ", el("code", { id: "claimed-id" }, server.GameServerId!), ` on ${server.InstanceId} (${server.ConnectionInfo ?? "no connection info"}): `),
          el("strong", { id: "claimed-status" }, "CLAIMED"),
        );
        this.live.now();
      } catch (err) {
        this.watching = null;
        this.claimed.replaceChildren(errorBox(err));
      }
    });
    return form;
  }

  /** The claimed server's fate: CLAIMED, then UTILIZED, or the claim lapsed, or it is gone (undefined: not read now). */
  private showClaimed(server: Server | "gone" | undefined): void {
    if (!this.watching || server === undefined) return;
    const status = this.claimed.querySelector("#claimed-status");
    if (!status) return;
    const text = server === "gone" ? "deregistered" : server.UtilizationStatus === "UTILIZED" ? "UTILIZED"
      : server.ClaimStatus === "CLAIMED" ? "CLAIMED" : "claim lapsed: AVAILABLE again";
    setText(status, text);
    // Its fate is settled: no more reads of it.
    if (text !== "CLAIMED") this.watching = null;
  }

  private localControls(): HTMLElement {
    const local = this.local!;
    const run = async (what: string, action: () => Promise<unknown>) => {
      this.localResult.replaceChildren(`${what}…`);
      try {
        const answer = (await action()) as Record<string, unknown> | null;
        const did = answer ? Object.entries(answer).map(([k, v]) => `${k} ${v}`).join(", ") : "";
        this.localResult.replaceChildren(el("span", { class: "ok" }, `${what}: done${did ? ` (${did})` : ""}`));
        this.live.now();
      } catch (e) {
        this.localResult.replaceChildren(errorBox(e));
      }
    };
    return el("div", { class: "local", id: "local-controls" },
      el("h3", {}, "Local profile only"),
      el("div", { class: "row" },
        el("button", { type: "button", id: "interrupt-selected", onclick: () => {
          if (!this.selected) {
            this.localResult.replaceChildren(el("span", { class: "error" }, "Select an instance first (click or Enter on its tile)."));
            return;
          }
          const id = this.selected;
          void run(`Spot interruption warning for ${id}`, () => local.interrupt([id]).then(() => null));
        } }, "Interrupt selected instance"),
        this.typeChoice,
        el("button", { type: "button", id: "interrupt-type-button", onclick: () => {
          const type = this.typeChoice.value;
          const ids = this.instances.filter((i) => i.InstanceType === type && i.InstanceStatus !== "SPOT_TERMINATING").map((i) => i.InstanceId!);
          void run(`Spot interruption warning for ${ids.length} ${type}`, () => local.interrupt(ids).then(() => null));
        } }, "Interrupt every instance of type"),
        el("button", { type: "button", id: "run-balancer", onclick: () => void run("Balancer run", () => local.runBalancer()) }, "Run the balancer now")),
      this.localResult);
  }
}
