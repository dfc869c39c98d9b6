// A group's standby buffer and claim strategy: the policy and its last evaluation, live, and, for a
// caller who may change them (an ADMIN), the forms that put them.
import { ApiError, isThrottled } from "../api";
import { clock, el, reconcile, setText } from "../dom";
import { CLAIM_STRATEGIES, type ClaimStrategy, type GamefleetExtensions, type StandbyPolicy } from "../extensions";
import type { Live } from "../live";
import { bufferText, policyBody, policyFields, utc, type StandbyFields, type TierFields, type WindowFields } from "../standby";
import { errorBox } from "./errors";

export class StandbyPanel {
  readonly element: HTMLElement;
  private readonly policy: HTMLElement;
  private readonly evaluation: HTMLElement;
  private readonly readError: HTMLElement;
  private readonly readOnly: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly strategyForm: HTMLFormElement;
  private readonly result: HTMLElement;
  private readonly standingBy: HTMLInputElement;
  private readonly rampDown: HTMLInputElement;
  private readonly cooldown: HTMLInputElement;
  private readonly tiers: HTMLElement;
  private readonly windows: HTMLElement;
  private readonly strategy: HTMLSelectElement;
  /** Whether this caller may put the policy: unknown until asked, then from the API's answer. */
  private writable: boolean | null = null;
  private filled = false;
  private strategyFilled = false;
  private shownPolicy: StandbyPolicy | null = null;
  private shownStrategy: ClaimStrategy | null = null;

  constructor(
    private readonly api: GamefleetExtensions,
    private readonly group: string,
    private readonly live: Live,
  ) {
    this.policy = el("dl", { class: "summary", id: "standby-policy" });
    this.evaluation = el("dl", { class: "summary", id: "standby-evaluation" });
    this.readError = el("div", { id: "standby-read-error" });
    this.readOnly = el("p", { class: "muted", id: "standby-read-only", hidden: true },
      "Read-only: this caller's role may read the standby policy and claim strategy, not change them (an ADMIN may).");
    this.result = el("div", { class: "result", id: "standby-result", role: "status", "aria-live": "polite" });
    this.standingBy = el("input", { name: "standingBy", placeholder: "10 or 20%", autocomplete: "off", required: true });
    this.rampDown = el("input", { name: "rampDownSeconds", inputmode: "numeric", placeholder: "1800", autocomplete: "off" });
    this.cooldown = el("input", { name: "scaleInCooldownSeconds", inputmode: "numeric", placeholder: "300", autocomplete: "off" });
    this.tiers = el("div", { class: "rows", id: "standby-tiers" });
    this.windows = el("div", { class: "rows", id: "standby-windows" });
    this.strategy = el("select", { name: "claimStrategy", "aria-label": "Claim strategy" }, ...CLAIM_STRATEGIES.map((s) => el("option", {}, s)));
    const field = (label: string, input: HTMLElement) => el("label", {}, el("span", {}, label), input);
    this.form = el("form", { class: "form", id: "standby-form", hidden: true },
      el("div", { class: "fields" },
        field("StandingBy (count or %)", this.standingBy), field("Ramp-down (s)", this.rampDown), field("Scale-in cooldown (s)", this.cooldown)),
      el("fieldset", {}, el("legend", {}, "Dynamic tiers: while StandingBy is below X% of the buffer, multiply it by Y"),
        this.tiers, el("button", { type: "button", class: "secondary", id: "standby-add-tier", onclick: () => this.tiers.append(tierRow()) }, "Add tier")),
      el("fieldset", {}, el("legend", {}, "Schedule (UTC): the window's buffer replaces StandingBy from its start until its end"),
        this.windows, el("button", { type: "button", class: "secondary", id: "standby-add-window", onclick: () => this.windows.append(windowRow()) }, "Add window")),
      el("button", { type: "submit" }, "Save standby policy"));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.put("Standby policy saved", async () => this.fill(await this.api.putStandby(this.group, policyBody(this.fields()))));
    });
    this.strategyForm = el("form", { class: "inline", id: "claim-strategy-form", hidden: true },
      this.strategy, el("button", { type: "submit" }, "Set claim strategy"));
    this.strategyForm.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.put("Claim strategy set", async () => {
        this.strategy.value = await this.api.putClaimStrategy(this.group, this.strategy.value as ClaimStrategy);
      });
    });
    this.element = el("section", { class: "panel", id: "standby", "aria-labelledby": "standby-title" },
      el("h2", { id: "standby-title" }, "Standby buffer and claims"),
      this.readError,
      this.policy,
      el("h3", {}, "Last evaluation"),
      this.evaluation,
      this.readOnly,
      this.form,
      this.strategyForm,
      this.result);
  }

  /**
   * What the panel has to read: the policy (and its last evaluation), the claim strategy, and once
   * whether this caller may put them. Each changes only by a put or a balancer run, so the group
   * view reads each when it is due ({@link due}) rather than at every refresh.
   */
  private policyDue = true;
  private strategyDue = true;

  /** The panel's reads that are due now, each one API call. */
  due(): (() => Promise<void>)[] {
    return [
      ...(this.policyDue ? [() => this.readPolicy()] : []),
      ...(this.strategyDue ? [() => this.readStrategy()] : []),
      ...(this.writable === null ? [() => this.askWritable()] : []),
    ];
  }

  /** A balancer run happened since the last read (the group's summary is newer): its evaluation is to be read. */
  evaluated(): void {
    this.policyDue = true;
  }

  private async readPolicy(): Promise<void> {
    await this.read(async () => {
      const policy = await this.api.standby(this.group);
      this.policyDue = false;
      this.shownPolicy = policy;
      this.show();
      if (!this.filled) {
        this.filled = true;
        this.fill(policy);
      }
    });
  }

  private async readStrategy(): Promise<void> {
    await this.read(async () => {
      const strategy = await this.api.claimStrategy(this.group);
      this.strategyDue = false;
      if (!this.strategyFilled) {
        this.strategyFilled = true;
        this.strategy.value = strategy;
      }
      this.shownStrategy = strategy;
      this.show();
    });
  }

  /** What the API refuses shows here, not as a lost view; a 429 is the whole page's to back off from. */
  private async read(action: () => Promise<void>): Promise<void> {
    try {
      await action();
      this.readError.replaceChildren();
    } catch (e) {
      if (!(e instanceof ApiError) || isThrottled(e)) throw e;
      this.readError.replaceChildren(errorBox(e));
    }
  }

  /**
   * No route says what a caller may do, so the console asks by a PUT that no policy passes, an
   * empty body: its 403 (IAM, or the local edge, before any function runs) says the role may not
   * put; an ADMIN gets the 400 "StandingBy: is required", and nothing is stored either way.
   */
  private async askWritable(): Promise<void> {
    try {
      await this.api.putStandby(this.group, {});
      this.setWritable(true);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.setWritable(e.status !== 403);
    }
  }

  private setWritable(writable: boolean): void {
    this.writable = writable;
    this.form.hidden = !writable;
    this.strategyForm.hidden = !writable;
    this.readOnly.hidden = writable;
  }

  private show(): void {
    const policy = this.shownPolicy;
    const strategy = this.shownStrategy;
    if (!policy) return;
    const tiers = (policy.Dynamic ?? []).map((t) => `below ${t.BelowPercent}% ×${t.Multiplier}`).join(", ") || "none";
    const windows = (policy.Schedule ?? []).map((w) => `${utc(w.Start)} to ${utc(w.End)}: ${bufferText(w.StandingBy)}`).join("; ") || "none";
    items(this.policy, [
      ["StandingBy", bufferText(policy.StandingBy)],
      ["Dynamic tiers", tiers],
      ["Ramp-down", `${policy.RampDownSeconds ?? "–"} s`],
      ["Schedule", windows],
      ["Scale-in cooldown", `${policy.ScaleInCooldownSeconds ?? "–"} s`],
      ["Claim strategy", strategy ?? "–"],
    ]);
    const last = policy.LastEvaluation;
    items(this.evaluation, last ? [
      ["Evaluated", clock(new Date(last.EvaluationTime * 1000))],
      ["Target", String(last.TargetStandingBy)],
      ["StandingBy", String(last.StandingBy)],
      ["In use", String(last.InUse)],
      ["Servers per instance", String(last.ServersPerInstance)],
      ["Desired capacity", String(last.DesiredCapacity)],
      ["Multiplier", `×${last.Multiplier}`],
    ] : [["Evaluated", "not yet: the next balancer run evaluates it"]]);
  }

  /** The form from a policy: once at the start, and after each PUT from its answer; never while the user types. */
  private fill(policy: StandbyPolicy): void {
    const fields = policyFields(policy);
    this.standingBy.value = fields.standingBy;
    this.rampDown.value = fields.rampDownSeconds;
    this.cooldown.value = fields.scaleInCooldownSeconds;
    this.tiers.replaceChildren(...fields.tiers.map(tierRow));
    this.windows.replaceChildren(...fields.windows.map(windowRow));
  }

  private fields(): StandbyFields {
    const value = (row: Element, name: string) => row.querySelector<HTMLInputElement>(`input[name="${name}"]`)!.value;
    return {
      standingBy: this.standingBy.value,
      tiers: Array.from(this.tiers.children, (row) => ({ belowPercent: value(row, "belowPercent"), multiplier: value(row, "multiplier") })),
      rampDownSeconds: this.rampDown.value,
      windows: Array.from(this.windows.children, (row) => ({ start: value(row, "start"), end: value(row, "end"), standingBy: value(row, "standingBy") })),
      scaleInCooldownSeconds: this.cooldown.value,
    };
  }

  /** A PUT: done, or the API's refusal beside the form, whose fields keep what was typed. */
  private async put(done: string, action: () => Promise<void>): Promise<void> {
    this.result.replaceChildren("Saving…");
    try {
      await action();
      // What the put changed is read again at the next refreshes.
      this.policyDue = true;
      this.strategyDue = true;
      this.result.replaceChildren(el("span", { class: "ok" }, `${done}.`));
      this.live.now();
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) this.setWritable(false);
      this.result.replaceChildren(errorBox(e));
    }
  }
}

function items(list: HTMLElement, entries: [string, string][]): void {
  reconcile(list, entries, ([k]) => k, ([k]) => el("div", { "data-item": k }, el("dt", {}, k), el("dd")), (node, [, v]) => setText(node.querySelector("dd")!, v));
}

const input = (name: string, label: string, value: string, placeholder: string) =>
  el("input", { name, "aria-label": label, value, placeholder, autocomplete: "off" });

function removable(row: HTMLElement): HTMLElement {
  row.append(el("button", { type: "button", class: "secondary", onclick: () => row.remove() }, "Remove"));
  return row;
}

function tierRow(tier: TierFields = { belowPercent: "", multiplier: "" }): HTMLElement {
  return removable(el("div", { class: "inline tier" },
    input("belowPercent", "Below percent", tier.belowPercent, "below %"), input("multiplier", "Multiplier", tier.multiplier, "multiplier")));
}

function windowRow(window: WindowFields = { start: "", end: "", standingBy: "" }): HTMLElement {
  return removable(el("div", { class: "inline window" },
    input("start", "Start (UTC)", window.start, "2026-12-24T18:00:00Z"), input("end", "End (UTC)", window.end, "2026-12-25T02:00:00Z"),
    input("standingBy", "Window's StandingBy", window.standingBy, "40 or 30%")));
}
