// One group: its settings and actions, its instances by type and status, its game servers, live
// charts, the timeline of the balancer and Spot interruptions, claims, its standby buffer and
// sessions, and (locally) interruptions.
import type { GameServerGroup } from "@aws-sdk/client-gamelift";
import { Gamefleet, type Instance, type Server } from "../api";
import { Chart } from "../chart";
import { el, reconcile, setAttr, setText } from "../dom";
import type { Live, View } from "../live";
import type { LocalProfile } from "../local";
import type { Region } from "../regions";
import { newClaims, Series } from "../series";
import { GroupActions } from "./actions";
import { errorBox } from "./errors";
import { ServerTable } from "./servers";
import { SessionTable } from "./sessions";
import { StandbyPanel } from "./standby";
import { Timeline } from "./timeline";

const STATUSES = ["ACTIVE", "DRAINING", "SPOT_TERMINATING"] as const;
/** PlayFab's states the profile's process metrics count (Terminated is in none). */
const PROCESS_STATES = ["Initializing", "StandingBy", "Active", "Terminating"] as const;

export class GroupView implements View {
  readonly element: HTMLElement;
  private readonly api: Gamefleet;
  private readonly summary: HTMLElement;
  private readonly fleet: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly servers: ServerTable;
  private readonly sessions: SessionTable;
  private readonly standby: StandbyPanel;
  private readonly timeline: Timeline;
  private readonly actions: GroupActions;
  private readonly utilization = new Series();
  private readonly available = new Series();
  private readonly perType = new Series();
  private readonly claims = new Series();
  private readonly processes = new Series();
  private readonly players = new Series();
  private readonly charts: Chart[];
  private readonly claimed: HTMLElement;
  private readonly typeChoice: HTMLSelectElement;
  private readonly localResult: HTMLElement;
  private selected: string | null = null;
  private claimTimes = new Map<string, number>();
  private lastRead = 0;
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
    this.summary = el("dl", { class: "summary", id: "group-summary" });
    this.actions = new GroupActions(this.api, name, live);
    this.fleet = el("div", { class: "fleet", id: "fleet", "aria-label": "Instances by type" });
    this.counts = el("p", { class: "counts", id: "instance-counts" });
    this.servers = new ServerTable();
    this.sessions = new SessionTable(extensions, name);
    this.standby = new StandbyPanel(extensions, name, live);
    this.timeline = new Timeline(local, name, (metric, time, detail) => {
      if (metric === "Processes") {
        for (const state of PROCESS_STATES) this.processes.add(state, time, Number(detail[state]));
        this.players.add("connected players", time, Number(detail["ConnectedPlayers"]));
        return;
      }
      this.utilization.add("profile metrics", time, Number(detail["PercentUtilized"]));
      this.available.add("profile metrics", time, Number(detail["Available"]));
    });
    this.charts = [
      new Chart("Utilization", this.utilization, " %", 100),
      new Chart("Available game servers", this.available, ""),
      new Chart("Instances per type", this.perType, ""),
      new Chart("Claims per second", this.claims, "/s"),
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
        el("h2", { id: "charts-title" }, "Last 15 minutes"),
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
    const [group, instances, servers] = await Promise.all([
      this.api.group(this.name),
      this.api.instances(this.name),
      this.api.servers(this.name),
      this.sessions.refresh(),
      this.standby.refresh(),
    ]);
    const now = Date.now();
    this.instances = instances;
    this.showSummary(group, instances, servers);
    this.actions.show(group);
    this.showFleet(group, instances, servers);
    this.servers.show(servers, now);
    this.record(instances, servers, now);
    this.charts.forEach((c) => c.draw(now));
    this.showClaimed(servers);
    await this.timeline.show(instances, now);
  }

  private showSummary(group: GameServerGroup, instances: Instance[], servers: Server[]): void {
    const utilized = servers.filter((s) => s.UtilizationStatus === "UTILIZED").length;
    const claimed = servers.filter((s) => s.ClaimStatus === "CLAIMED").length;
    const items: [string, string][] = [
      ["Status", group.Status ?? ""],
      ...(group.Status === "ERROR" ? [["Reason", group.StatusReason ?? ""] as [string, string]] : []),
      ["Balancing", group.BalancingStrategy ?? ""],
      ["Protection", group.GameServerProtectionPolicy ?? ""],
      ["Suspended", (group.SuspendedActions ?? []).join(", ") || "none"],
      ["Instances", String(instances.length)],
      ["Game servers", String(servers.length)],
      ["Available", String(servers.length - utilized - claimed)],
      ["Claimed", String(claimed)],
      ["Utilized", String(utilized)],
    ];
    reconcile(this.summary, items, ([k]) => k, ([k]) => el("div", { "data-item": k }, el("dt", {}, k), el("dd")), (node, [k, v]) => {
      const dd = node.querySelector("dd")!;
      setText(dd, v);
      if (k === "Status") setAttr(dd, "data-status", v);
    });
  }

  private showFleet(group: GameServerGroup, instances: Instance[], servers: Server[]): void {
    const perInstance = new Map<string, number>();
    for (const s of servers) perInstance.set(s.InstanceId ?? "", (perInstance.get(s.InstanceId ?? "") ?? 0) + 1);
    const types = [...new Set([...(group.InstanceDefinitions ?? []).map((d) => d.InstanceType!), ...instances.map((i) => i.InstanceType ?? "unknown")])];
    const byStatus = STATUSES.map((s) => `${instances.filter((i) => i.InstanceStatus === s).length} ${s}`);
    setText(this.counts, byStatus.join(" · "));
    reconcile(this.fleet, types, (t) => t, (t) => el("div", { class: "type", "data-type": t }, el("h3", {}, t), el("div", { class: "tiles" })), (column, t) => {
      const mine = instances.filter((i) => (i.InstanceType ?? "unknown") === t);
      setText(column.querySelector("h3")!, `${t} (${mine.length})`);
      reconcile(column.querySelector<HTMLElement>(".tiles")!, mine, (i) => i.InstanceId!, (i) => this.tile(i), (tile, i) => {
        setAttr(tile, "data-status", i.InstanceStatus ?? "");
        setAttr(tile, "aria-pressed", String(this.selected === i.InstanceId));
        const count = perInstance.get(i.InstanceId!) ?? 0;
        setText(tile.querySelector(".sub")!, `${i.InstanceStatus} · ${count} server${count === 1 ? "" : "s"}`);
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

  private record(instances: Instance[], servers: Server[], now: number): void {
    const utilized = servers.filter((s) => s.UtilizationStatus === "UTILIZED").length;
    this.utilization.add("utilized", now, servers.length ? (100 * utilized) / servers.length : 0);
    this.available.add("available", now, servers.filter((s) => s.UtilizationStatus === "AVAILABLE" && s.ClaimStatus !== "CLAIMED").length);
    const types = new Map<string, number>();
    for (const name of this.perType.names()) types.set(name, 0);
    for (const i of instances) types.set(i.InstanceType ?? "unknown", (types.get(i.InstanceType ?? "unknown") ?? 0) + 1);
    for (const [type, count] of types) this.perType.add(type, now, count);
    const times = new Map<string, number>();
    for (const s of servers) if (s.LastClaimTime) times.set(s.GameServerId!, s.LastClaimTime.getTime());
    if (this.lastRead > 0) this.claims.add("claims", now, newClaims(this.claimTimes, times) / ((now - this.lastRead) / 1000));
    this.claimTimes = times;
    this.lastRead = now;
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

  /** The claimed server's fate: CLAIMED, then UTILIZED, or the claim lapsed, or it is gone. */
  private showClaimed(servers: Server[]): void {
    if (!this.watching) return;
    const status = this.claimed.querySelector("#claimed-status");
    if (!status) return;
    const server = servers.find((s) => s.GameServerId === this.watching);
    const text = !server ? "deregistered" : server.UtilizationStatus === "UTILIZED" ? "UTILIZED"
      : server.ClaimStatus === "CLAIMED" ? "CLAIMED" : "claim lapsed: AVAILABLE again";
    setText(status, text);
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
