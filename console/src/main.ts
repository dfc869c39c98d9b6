// The console: finds out where and as whom to call (the local profile's /console/config.json, the
// stack's config.json and its sign-in, else what the user entered in this tab), then shows the view
// the address names, live.
import "./style.css";
import { type Connection } from "./api";
import { el } from "./dom";
import { Live } from "./live";
import { LocalProfile } from "./local";
import { Regions } from "./regions";
import { isStackConfig, signedIn, signOutLink, type StackConfig } from "./signin";
import { GroupView } from "./views/group";
import { GroupsView } from "./views/groups";
import { PeerGroupView } from "./views/peergroup";

const STORED = "gamefleet.connection";

interface LocalConfig {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  local: boolean;
  localToken?: string;
}

/** The local profile's config, or the stack's (signin.ts), or none (served from elsewhere). */
async function localConfig(): Promise<LocalConfig | StackConfig | null> {
  try {
    const response = await fetch("./config.json", { cache: "no-store" });
    return response.ok ? ((await response.json()) as LocalConfig | StackConfig) : null;
  } catch {
    return null;
  }
}

function storedConnection(): Connection | null {
  const text = sessionStorage.getItem(STORED);
  return text ? (JSON.parse(text) as Connection) : null;
}

/** Against a deployment: the API URL and keys, kept in this tab's session storage only. */
function connectForm(main: HTMLElement): void {
  const field = (label: string, input: HTMLInputElement) => el("label", {}, el("span", {}, label), input);
  const endpoint = el("input", { name: "endpoint", required: true, placeholder: "https://abc123.execute-api.eu-west-1.amazonaws.com" });
  const region = el("input", { name: "region", required: true, placeholder: "eu-west-1" });
  const key = el("input", { name: "key", required: true, autocomplete: "off" });
  const secret = el("input", { name: "secret", type: "password", required: true, autocomplete: "off" });
  const token = el("input", { name: "token", type: "password", autocomplete: "off" });
  const form = el("form", { class: "form view", id: "connect" },
    el("h1", {}, "Connect to a Gamefleet deployment"),
    el("p", { class: "muted" }, "The keys stay in this tab's session storage. The stack, and each region's it is peered with, must allow this page's origin (CDK context consoleOrigins)."),
    el("div", { class: "fields" }, field("API URL", endpoint), field("Region", region), field("Access key id", key),
      field("Secret access key", secret), field("Session token", token)),
    el("button", { type: "submit" }, "Connect"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const connection: Connection = {
      endpoint: endpoint.value.trim().replace(/\/$/, ""),
      region: region.value.trim(),
      accessKeyId: key.value.trim(),
      secretAccessKey: secret.value.trim(),
      sessionToken: token.value.trim() || undefined,
      signingName: "execute-api",
      local: false,
    };
    sessionStorage.setItem(STORED, JSON.stringify(connection));
    location.reload();
  });
  main.replaceChildren(form);
}

async function start(): Promise<void> {
  const main = document.getElementById("main")!;
  const crumbs = document.getElementById("crumbs")!;
  const found = await localConfig();
  if (isStackConfig(found)) {
    // Served by the stack: the signed-in user's credentials, or on to the hosted sign-in.
    let signed: Connection | null;
    try {
      signed = await signedIn(found);
    } catch (e) {
      main.replaceChildren(el("p", { class: "error view", role: "alert" }, (e as Error).message));
      return;
    }
    if (signed) {
      document.querySelector("header.top")!.append(signOutLink(found));
      show(main, crumbs, signed, null);
    }
    return;
  }
  const config = found as LocalConfig | null;
  const connection: Connection | null = config
    ? { endpoint: location.origin, region: config.region, accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, local: true }
    : storedConnection();
  if (!connection) {
    connectForm(main);
    return;
  }
  show(main, crumbs, connection, config);
}

/** The view the address names, live, for that connection. */
function show(main: HTMLElement, crumbs: HTMLElement, connection: Connection, config: LocalConfig | null): void {
  const regions = new Regions(connection);
  const local = connection.local ? new LocalProfile(location.origin, config?.localToken) : null;
  const live = new Live(document.getElementById("connection")!);

  const route = () => {
    // #/groups/<name>: the home's group; #/regions/<region>/groups/<name>: a peer's.
    const match = /^#\/(?:regions\/([^/]+)\/)?groups\/(.+)$/.exec(location.hash);
    const region = match?.[1] === undefined ? null : decodeURIComponent(match[1]);
    const name = match ? decodeURIComponent(match[2]) : null;
    const view = name === null ? new GroupsView(regions, live)
      : region === null ? new GroupView(regions.home, name, live, local)
      : new PeerGroupView(regions, region, name, live, local);
    crumbs.replaceChildren(
      el("a", { href: "#/" }, "Groups"),
      ...(region === null ? [] : [" / ", el("span", { class: "region-crumb" }, region)]),
      ...(name === null ? [] : [" / ", el("span", { "aria-current": "page" }, name)]),
      connection.local ? el("span", { class: "badge" }, "local profile") : el("span", { class: "badge" }, connection.endpoint),
    );
    main.replaceChildren(view.element);
    live.showView(view);
  };
  // A new view takes the focus, so the keyboard goes on from its top.
  window.addEventListener("hashchange", () => {
    route();
    main.focus();
  });
  route();
}

void start();
