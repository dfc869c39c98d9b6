import { ApiError } from "../api";
import { el } from "../dom";

/** An error as the API sent it: its code, HTTP status and message. */
export function errorBox(e: unknown): HTMLElement {
  if (e instanceof ApiError) {
    return el("div", { class: "error", role: "alert" }, el("strong", {}, `${e.code} (${e.status})`), ": ", e.message);
  }
  return el("div", { class: "error", role: "alert" }, el("strong", {}, "No answer"), ": ", (e as Error).message);
}
