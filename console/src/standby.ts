// The standby form's text and the policy's JSON, both ways. The form sends what was typed: a field
// that reads as a number goes as a number, any other text as it is, so that the API, which alone
// holds the policy's rules, names the member it refuses.
import type { Buffer, StandbyPolicy } from "./extensions";

export interface TierFields {
  belowPercent: string;
  multiplier: string;
}

export interface WindowFields {
  start: string;
  end: string;
  standingBy: string;
}

/** The form's fields, as typed. */
export interface StandbyFields {
  standingBy: string;
  tiers: TierFields[];
  rampDownSeconds: string;
  windows: WindowFields[];
  scaleInCooldownSeconds: string;
}

/** What a field sends: nothing when empty, a number when it reads as one, else its text. */
export function fieldValue(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

const blank = (fields: object) => Object.values(fields).every((v) => String(v).trim() === "");

/** PutStandbyPolicy's body from the form: empty rows are left out, empty optional members take the API's defaults. */
export function policyBody(fields: StandbyFields): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const put = (member: string, value: unknown) => {
    if (value !== undefined) body[member] = value;
  };
  put("StandingBy", fieldValue(fields.standingBy));
  const tiers = fields.tiers.filter((t) => !blank(t));
  if (tiers.length) body.Dynamic = tiers.map((t) => members({ BelowPercent: t.belowPercent, Multiplier: t.multiplier }));
  put("RampDownSeconds", fieldValue(fields.rampDownSeconds));
  const windows = fields.windows.filter((w) => !blank(w));
  if (windows.length) body.Schedule = windows.map((w) => members({ Start: w.start, End: w.end, StandingBy: w.standingBy }));
  put("ScaleInCooldownSeconds", fieldValue(fields.scaleInCooldownSeconds));
  return body;
}

function members(fields: Record<string, string>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [member, text] of Object.entries(fields)) {
    const value = fieldValue(text);
    if (value !== undefined) out[member] = value;
  }
  return out;
}

/** The form's fields for a policy as the API answers it (times as ISO-8601 UTC). */
export function policyFields(policy: StandbyPolicy): StandbyFields {
  return {
    standingBy: String(policy.StandingBy),
    tiers: (policy.Dynamic ?? []).map((t) => ({ belowPercent: String(t.BelowPercent), multiplier: String(t.Multiplier) })),
    rampDownSeconds: policy.RampDownSeconds === undefined ? "" : String(policy.RampDownSeconds),
    windows: (policy.Schedule ?? []).map((w) => ({ start: utc(w.Start), end: utc(w.End), standingBy: String(w.StandingBy) })),
    scaleInCooldownSeconds: policy.ScaleInCooldownSeconds === undefined ? "" : String(policy.ScaleInCooldownSeconds),
  };
}

/** Epoch seconds as ISO-8601 UTC, to the second when that is exact ("2026-12-24T18:00:00Z"). */
export function utc(time: number | string): string {
  if (typeof time === "string") return time;
  return new Date(time * 1000).toISOString().replace(".000Z", "Z");
}

/** "10 servers", "20% of the group's servers". */
export function bufferText(buffer: Buffer): string {
  if (typeof buffer === "string") return `${buffer} of the group's servers`;
  return `${buffer} server${buffer === 1 ? "" : "s"}`;
}
