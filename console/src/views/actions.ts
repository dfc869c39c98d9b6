// A group's actions: update, suspend or resume REPLACE_INSTANCE_TYPES, delete with a DeleteOption.
import type { GameServerGroup, GameServerGroupInstanceType } from "@aws-sdk/client-gamelift";
import type { Gamefleet } from "../api";
import { el, setText } from "../dom";
import type { Live } from "../live";
import { errorBox } from "./errors";

/**
 * The update's InstanceDefinitions, typed comma-separated; none when the field is empty, so that a
 * container group (which has none, and refuses them) or a group whose types are kept can be updated.
 */
export function instanceDefinitions(text: string): { InstanceDefinitions?: { InstanceType: GameServerGroupInstanceType }[] } {
  const types = text.split(",").map((t) => t.trim()).filter(Boolean);
  return types.length === 0 ? {} : { InstanceDefinitions: types.map((t) => ({ InstanceType: t as GameServerGroupInstanceType })) };
}

export class GroupActions {
  readonly element: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly result: HTMLElement;
  private readonly strategy: HTMLSelectElement;
  private readonly protection: HTMLSelectElement;
  private readonly types: HTMLInputElement;
  private suspended = false;
  private filled = false;

  constructor(
    api: Gamefleet,
    name: string,
    private readonly live: Live,
  ) {
    this.result = el("div", { class: "result", id: "action-result", role: "status", "aria-live": "polite" });
    this.toggle = el("button", { type: "button", id: "suspend-toggle", onclick: () => void this.run(this.suspended ? "Resumed" : "Suspended",
      () => (this.suspended ? api.resume(name) : api.suspend(name))) }, "Suspend balancing");
    const option = el("select", { id: "delete-option", "aria-label": "Delete option" },
      ...["SAFE_DELETE", "FORCE_DELETE", "RETAIN"].map((o) => el("option", {}, o)));
    const remove = el("button", { type: "button", class: "danger", id: "delete-group", onclick: () => {
      if (window.confirm(`Delete group ${name} with ${option.value}?`)) {
        void this.run(`Delete (${option.value}) scheduled`, () => api.delete(name, option.value as "SAFE_DELETE"));
      }
    } }, "Delete");
    this.strategy = el("select", { "aria-label": "Balancing strategy" }, ...["SPOT_PREFERRED", "SPOT_ONLY", "ON_DEMAND_ONLY"].map((s) => el("option", {}, s)));
    this.protection = el("select", { "aria-label": "Protection policy" }, ...["NO_PROTECTION", "FULL_PROTECTION"].map((s) => el("option", {}, s)));
    this.types = el("input", { "aria-label": "Instance types, comma-separated", size: 28 });
    const update = el("form", { class: "inline", id: "update-group" },
      this.strategy, this.protection, this.types, el("button", { type: "submit" }, "Update"));
    update.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.run("Updated", () => api.update({
        GameServerGroupName: name,
        BalancingStrategy: this.strategy.value as "SPOT_PREFERRED",
        GameServerProtectionPolicy: this.protection.value as "NO_PROTECTION",
        ...instanceDefinitions(this.types.value),
      }));
    });
    this.element = el("div", { class: "actions" }, update, this.toggle, option, remove, this.result);
  }

  /** The group as last read: the form starts from it once, the toggle follows it always. */
  show(group: GameServerGroup): void {
    this.suspended = (group.SuspendedActions ?? []).includes("REPLACE_INSTANCE_TYPES");
    setText(this.toggle, this.suspended ? "Resume balancing" : "Suspend balancing");
    if (!this.filled) {
      this.filled = true;
      this.strategy.value = group.BalancingStrategy ?? "SPOT_PREFERRED";
      this.protection.value = group.GameServerProtectionPolicy ?? "NO_PROTECTION";
      this.types.value = (group.InstanceDefinitions ?? []).map((d) => d.InstanceType).join(", ");
    }
  }

  private async run(done: string, action: () => Promise<unknown>): Promise<void> {
    this.result.replaceChildren("…");
    try {
      await action();
      this.result.replaceChildren(el("span", { class: "ok" }, `${done}.`));
      this.live.now();
    } catch (e) {
      this.result.replaceChildren(errorBox(e));
    }
  }
}
