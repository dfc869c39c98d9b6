// Groups: every game server group with its status (and reason for ERROR), instances, strategy,
// protection and suspended actions; the form that creates one.
import type { GameServerGroup, GameServerGroupInstanceType } from "@aws-sdk/client-gamelift";
import { ApiError, Gamefleet } from "../api";
import { el, reconcile, setText } from "../dom";
import type { Live, View } from "../live";
import { errorBox } from "./errors";

export class GroupsView implements View {
  readonly element: HTMLElement;
  private readonly rows: HTMLTableSectionElement;
  private readonly empty: HTMLElement;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly api: Gamefleet,
    live: Live,
  ) {
    this.rows = el("tbody");
    this.empty = el("p", { class: "muted", hidden: true }, "No game server groups yet: create one below.");
    this.element = el(
      "section",
      { class: "view", "aria-labelledby": "groups-title" },
      el("h1", { id: "groups-title" }, "Game server groups"),
      el(
        "table",
        { class: "grid", id: "groups" },
        el(
          "thead",
          {},
          el("tr", {}, ...["Name", "Status", "Instances", "Strategy", "Protection", "Suspended", "Instance types"].map((h) => el("th", { scope: "col" }, h))),
        ),
        this.rows,
      ),
      this.empty,
      new CreateForm(api, live).element,
    );
  }

  async refresh(): Promise<void> {
    const groups = (await this.api.groups()).filter((g) => g.Status !== "DELETED");
    await Promise.all(
      groups.map(async (g) => {
        const name = g.GameServerGroupName!;
        try {
          this.counts.set(name, (await this.api.instances(name)).length);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          this.counts.delete(name);
        }
      }),
    );
    this.empty.hidden = groups.length > 0;
    reconcile(this.rows, groups, (g) => g.GameServerGroupName!, row, (tr, g) => {
      const [, status, instances, strategy, protection, suspended, types] = Array.from(tr.children);
      setText(status.querySelector(".status")!, g.Status ?? "");
      status.querySelector(".status")!.setAttribute("data-status", g.Status ?? "");
      setText(status.querySelector(".reason")!, g.Status === "ERROR" ? (g.StatusReason ?? "") : "");
      setText(instances, String(this.counts.get(g.GameServerGroupName!) ?? "–"));
      setText(strategy, g.BalancingStrategy ?? "");
      setText(protection, g.GameServerProtectionPolicy ?? "");
      setText(suspended, (g.SuspendedActions ?? []).join(", ") || "none");
      setText(types, (g.InstanceDefinitions ?? []).map((d) => d.InstanceType + (d.WeightedCapacity ? `×${d.WeightedCapacity}` : "")).join(", "));
    });
  }
}

function row(g: GameServerGroup): HTMLTableRowElement {
  const name = g.GameServerGroupName!;
  return el(
    "tr",
    { "data-group": name },
    el("th", { scope: "row" }, el("a", { href: `#/groups/${encodeURIComponent(name)}` }, name)),
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
    const form = el(
      "form",
      { class: "form", id: "create-group" },
      el("h2", {}, "Create a group"),
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
