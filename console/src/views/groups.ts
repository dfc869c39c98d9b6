// Groups: every game server group with its status (and reason for ERROR), instances, strategy,
// protection and suspended actions, in each region (the home's, then each peer's, or a line saying
// that a peer did not answer); the form that creates one in the home region.
import type { GameServerGroup, GameServerGroupInstanceType } from "@aws-sdk/client-gamelift";
import { ApiError, Gamefleet } from "../api";
import { notAnswered, readPeers, type RegionRead, type Region, type Regions } from "../regions";
import { el, reconcile, setText } from "../dom";
import type { Live, View } from "../live";
import { errorBox } from "./errors";

/** A region's groups as one refresh read them: the groups (but DELETED ones) and each one's instance count. */
interface GroupsRead {
  groups: GameServerGroup[];
  counts: Map<string, number>;
}

async function readGroups(api: Gamefleet): Promise<GroupsRead> {
  const groups = (await api.groups()).filter((g) => g.Status !== "DELETED");
  const counts = new Map<string, number>();
  await Promise.all(
    groups.map(async (g) => {
      const name = g.GameServerGroupName!;
      try {
        counts.set(name, (await api.instances(name)).length);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
      }
    }),
  );
  return { groups, counts };
}

/** Where a group's view is: the home's as before regions, a peer's under its region. */
function groupHref(region: Region, name: string): string {
  const group = `groups/${encodeURIComponent(name)}`;
  return region.home ? `#/${group}` : `#/regions/${encodeURIComponent(region.name)}/${group}`;
}

export class GroupsView implements View {
  readonly element: HTMLElement;
  private readonly home: RegionGroups;
  private readonly peers: HTMLElement;
  private readonly listError: HTMLElement;
  private readonly create: CreateForm;

  constructor(
    private readonly regions: Regions,
    live: Live,
  ) {
    this.home = new RegionGroups(regions.home, "groups");
    this.peers = el("div", { id: "peer-regions" });
    this.listError = el("div", { id: "regions-read-error" });
    this.create = new CreateForm(regions.home.api, live);
    this.element = el(
      "section",
      { class: "view", "aria-labelledby": "groups-title" },
      el("h1", { id: "groups-title" }, "Game server groups"),
      this.listError,
      this.home.element,
      this.peers,
      this.create.element,
    );
  }

  async refresh(): Promise<void> {
    // The home is read as before regions (what it does not answer is the connection lost); each peer
    // is given its time, and what it did not answer is said under its heading.
    const [regions, home] = await Promise.all([this.regions.list(), readGroups(this.regions.home.api)]);
    const peers = await readPeers(regions.filter((r) => !r.home), (r) => readGroups(r.api));
    this.listError.replaceChildren(...(this.regions.listError ? [errorBox(this.regions.listError)] : []));
    // Without peers the view is what it was before regions: one table, no region heading.
    this.home.titled(peers.length > 0);
    setText(this.create.title, peers.length ? `Create a group in ${this.regions.home.name}` : "Create a group");
    this.home.show({ region: this.regions.home, value: home });
    reconcile(this.peers, peers, (r) => r.region.name, (r) => new RegionGroups(r.region, `groups-${r.region.name}`).element,
      (node, r) => RegionGroups.of(node).show(r));
  }
}

/** One region's groups: a heading (once there are peers), its table, or the line saying it did not answer. */
class RegionGroups {
  private static readonly byElement = new WeakMap<HTMLElement, RegionGroups>();
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly silent: HTMLElement;
  private readonly table: HTMLElement;
  private readonly rows: HTMLTableSectionElement;
  private readonly empty: HTMLElement;

  constructor(
    private readonly region: Region,
    tableId: string,
  ) {
    this.title = el("h2", { class: "region-title", hidden: region.home }, region.home ? `${region.name} (home)` : region.name);
    this.silent = el("p", { class: "error region-silent", role: "status", hidden: true });
    this.rows = el("tbody");
    this.table = el(
      "table",
      { class: "grid", id: tableId, "data-region": region.name },
      el(
        "thead",
        {},
        el("tr", {}, ...["Name", "Status", "Instances", "Strategy", "Protection", "Suspended", "Instance types"].map((h) => el("th", { scope: "col" }, h))),
      ),
      this.rows,
    );
    this.empty = el("p", { class: "muted", hidden: true }, region.home ? "No game server groups yet: create one below." : `No game server groups in ${region.name}.`);
    this.element = el("section", { class: "region", "data-region": region.name }, this.title, this.silent, this.table, this.empty);
    RegionGroups.byElement.set(this.element, this);
  }

  static of(element: HTMLElement): RegionGroups {
    return RegionGroups.byElement.get(element)!;
  }

  titled(shown: boolean): void {
    this.title.hidden = !shown;
  }

  /** What the region answered; or, when it did not, that line instead of its table. */
  show(read: RegionRead<GroupsRead>): void {
    if (read.error) {
      setText(this.silent, `${notAnswered(read)}; asked again at the next refresh`);
      this.silent.hidden = false;
      this.table.hidden = true;
      this.empty.hidden = true;
      this.rows.replaceChildren();
      return;
    }
    const { groups, counts } = read.value;
    this.silent.hidden = true;
    this.table.hidden = false;
    this.empty.hidden = groups.length > 0;
    reconcile(this.rows, groups, (g) => g.GameServerGroupName!, (g) => row(this.region, g), (tr, g) => {
      const [, status, instances, strategy, protection, suspended, types] = Array.from(tr.children);
      setText(status.querySelector(".status")!, g.Status ?? "");
      status.querySelector(".status")!.setAttribute("data-status", g.Status ?? "");
      setText(status.querySelector(".reason")!, g.Status === "ERROR" ? (g.StatusReason ?? "") : "");
      setText(instances, String(counts.get(g.GameServerGroupName!) ?? "–"));
      setText(strategy, g.BalancingStrategy ?? "");
      setText(protection, g.GameServerProtectionPolicy ?? "");
      setText(suspended, (g.SuspendedActions ?? []).join(", ") || "none");
      setText(types, (g.InstanceDefinitions ?? []).map((d) => d.InstanceType + (d.WeightedCapacity ? `×${d.WeightedCapacity}` : "")).join(", "));
    });
  }
}

function row(region: Region, g: GameServerGroup): HTMLTableRowElement {
  const name = g.GameServerGroupName!;
  return el(
    "tr",
    { "data-group": name },
    el("th", { scope: "row" }, el("a", { href: groupHref(region, name) }, name)),
    el("td", {}, el("span", { class: "status" }), el("div", { class: "reason" })),
    el("td", { class: "num" }),
    el("td"),
    el("td"),
    el("td"),
    el("td"),
  );
}

/** CreateGameServerGroup: what the API refuses is shown as it says it, and the form keeps its values. */
class CreateForm {
  readonly element: HTMLElement;
  readonly title: HTMLElement;

  constructor(api: Gamefleet, live: Live) {
    const result = el("div", { class: "result", role: "status", "aria-live": "polite" });
    const field = (label: string, input: HTMLElement) => el("label", {}, el("span", {}, label), input);
    const name = el("input", { name: "name", required: true, placeholder: "arena", autocomplete: "off" });
    const min = el("input", { name: "min", type: "number", value: "1", min: "0" });
    const max = el("input", { name: "max", type: "number", value: "4", min: "0" });
    const types = el("input", { name: "types", value: "c5.large, m5.large", title: "Instance types, comma-separated (two or more)" });
    const role = el("input", { name: "role", value: "arn:aws:iam::000000000000:role/fleetiq" });
    const template = el("input", { name: "template", value: "game-server" });
    const strategy = el("select", { name: "strategy" }, ...["SPOT_PREFERRED", "SPOT_ONLY", "ON_DEMAND_ONLY"].map((s) => el("option", {}, s)));
    const protection = el("select", { name: "protection" }, ...["NO_PROTECTION", "FULL_PROTECTION"].map((s) => el("option", {}, s)));
    const target = el("input", { name: "target", type: "number", placeholder: "none", min: "0", max: "100", title: "Target tracking on PercentUtilizedGameServers" });
    this.title = el("h2", {}, "Create a group");
    const form = el(
      "form",
      { class: "form", id: "create-group" },
      this.title,
      el("div", { class: "fields" },
        field("Name", name), field("Min size", min), field("Max size", max), field("Instance types", types),
        field("Balancing", strategy), field("Protection", protection), field("Target utilization %", target),
        field("Launch template name", template), field("Role ARN", role)),
      el("button", { type: "submit" }, "Create group"),
      result,
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      result.replaceChildren("Creating…");
      try {
        const group = await api.create({
          GameServerGroupName: name.value.trim(),
          RoleArn: role.value.trim(),
          MinSize: Number(min.value),
          MaxSize: Number(max.value),
          LaunchTemplate: { LaunchTemplateName: template.value.trim() },
          InstanceDefinitions: types.value.split(",").map((t) => t.trim()).filter(Boolean).map((t) => ({ InstanceType: t as GameServerGroupInstanceType })),
          BalancingStrategy: strategy.value as "SPOT_PREFERRED",
          GameServerProtectionPolicy: protection.value as "NO_PROTECTION",
          AutoScalingPolicy: target.value ? { TargetTrackingConfiguration: { TargetValue: Number(target.value) } } : undefined,
        });
        result.replaceChildren(el("span", { class: "ok" }, `Created ${group.GameServerGroupName} (${group.Status}).`));
        live.now();
      } catch (err) {
        result.replaceChildren(errorBox(err));
      }
    });
    this.element = form;
  }
}
