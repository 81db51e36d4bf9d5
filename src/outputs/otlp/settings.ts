import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The OTLP/HTTP exporter variables (OTEL_EXPORTER_OTLP_*, the TRACES_ ones first), read strictly:
 * a value that cannot be used is refused with a message naming the variable, never sent on as
 * something else (the OpenTelemetry JavaScript exporter drops a header list with a bad
 * percent-escape and falls back to 10 s for a timeout of `abc`, silently). A message never
 * quotes a value that may hold a secret (headers, URLs but their redacted form).
 *
 * Also here: the redacted form of a URL for messages (user info and query values hidden, as curl
 * and the OpenTelemetry Collector hide them), and the secrets a message must not repeat.
 */
export type Env = Record<string, string | undefined>;

/** A variable or option that cannot be used; the message names it and is safe to print. */
export class SettingError extends Error {}

/** The longest timeout a Node.js timer can hold (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 2_147_483_647;
export const DEFAULT_TIMEOUT_MS = 10_000;

/** What `--send` / `--endpoint` take from the environment, besides the URL. */
export interface EnvSettings {
  /** OTEL_EXPORTER_OTLP_HEADERS, then OTEL_EXPORTER_OTLP_TRACES_HEADERS over it. */
  headers: Record<string, string>;
  timeoutMillis: number;
  compression: "gzip" | "none";
  /** PEM text of OTEL_EXPORTER_OTLP_(TRACES_)CERTIFICATE, CLIENT_CERTIFICATE, CLIENT_KEY. */
  tls: { ca?: string; cert?: string; key?: string };
}

/** An environment variable's value, trimmed; undefined when unset or blank (as the SDK reads them). */
function read(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === "" ? undefined : v;
}

/** The TRACES_ variable if set, else the general one: [name, value]. */
function pick(env: Env, suffix: string): [string, string] | undefined {
  for (const name of [`OTEL_EXPORTER_OTLP_TRACES_${suffix}`, `OTEL_EXPORTER_OTLP_${suffix}`]) {
    const v = read(env, name);
    if (v !== undefined) return [name, v];
  }
  return undefined;
}

export function envSettings(env: Env): EnvSettings {
  const headers = { ...parseHeaderList(env, "OTEL_EXPORTER_OTLP_HEADERS"), ...parseHeaderList(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS") };
  const t = pick(env, "TIMEOUT");
  const c = pick(env, "COMPRESSION");
  let compression: "gzip" | "none" = "none";
  if (c !== undefined) {
    const v = c[1].toLowerCase();
    if (v !== "gzip" && v !== "none") throw new SettingError(`${c[0]}: expected gzip or none, got ${JSON.stringify(c[1])}`);
    compression = v;
  }
  const tls: EnvSettings["tls"] = {};
  const ca = pemFile(env, "CERTIFICATE");
  const cert = pemFile(env, "CLIENT_CERTIFICATE");
  const key = pemFile(env, "CLIENT_KEY");
  if (ca !== undefined) tls.ca = ca;
  if (cert !== undefined) tls.cert = cert;
  if (key !== undefined) tls.key = key;
  return { headers, timeoutMillis: t === undefined ? DEFAULT_TIMEOUT_MS : parseTimeout(t[0], t[1]), compression, tls };
}

/**
 * OTEL_EXPORTER_OTLP_TIMEOUT's value: a whole number of milliseconds, 1 to 2^31 - 1 (a longer one
 * would not fit a timer: Node.js would make it 1 ms with a warning).
 */
export function parseTimeout(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new SettingError(`${name}: expected a whole number of milliseconds (e.g. 10000), got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (n < 1 || n > MAX_TIMEOUT_MS) throw new SettingError(`${name}: expected 1 to ${MAX_TIMEOUT_MS} milliseconds, got ${value}`);
  return n;
}

/**
 * `name=value,name=value`, values percent-encoded (W3C Baggage without its `;` metadata, as the
 * OTLP exporter specification says). Blank entries are skipped; anything else that is not a
 * header is refused, naming the variable and the entry (never its value).
 */
export function parseHeaderList(env: Env, name: string): Record<string, string> {
  const raw = read(env, name);
  const out: Record<string, string> = {};
  if (raw === undefined) return out;
  raw.split(",").forEach((entry, i) => {
    if (entry.trim() === "") return;
    const at = entry.indexOf("=");
    const key = at < 0 ? "" : entry.slice(0, at).trim();
    if (at <= 0 || key === "") throw new SettingError(`${name}: entry ${i + 1} is not name=value`);
    let k: string;
    let v: string;
    try {
      k = decodeURIComponent(key);
    } catch {
      throw new SettingError(`${name}: entry ${i + 1}: the header name has a bad percent-escape`);
    }
    try {
      v = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      throw new SettingError(`${name}: the value of ${safeName(k)} has a bad percent-escape (a % not followed by two hex digits of UTF-8; write % as %25)`);
    }
    checkHeader(name, k, v);
    out[k] = v;
  });
  return out;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What HTTP (and Node.js) refuse in a header value: controls but tab, and characters past U+00FF. */
const BAD_VALUE = /[^\t\u0020-\u007e\u0080-\u00ff]/;

/** A header Node.js would refuse when sending: refused now, naming `where` and the header. */
export function checkHeader(where: string, name: string, value: string): void {
  if (!TOKEN.test(name)) throw new SettingError(`${where}: ${safeName(name)} is not a valid HTTP header name`);
  if (BAD_VALUE.test(value)) throw new SettingError(`${where}: the value of ${name} holds a character HTTP headers cannot carry (a control character or one past U+00FF)`);
}

function safeName(name: string): string {
  return TOKEN.test(name) ? name : JSON.stringify(name).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function pemFile(env: Env, suffix: string): string | undefined {
  const p = pick(env, suffix);
  if (p === undefined) return undefined;
  try {
    return readFileSync(resolve(p[1]), "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SettingError(`${p[0]}: cannot read ${p[1]}${code !== undefined ? ` (${code})` : ""}`);
  }
}

/**
 * An OTLP/HTTP URL from `where` (an option or a variable), checked: http or https. The message
 * of a refusal shows the URL redacted, or nothing of it when it does not parse.
 */
export function checkUrl(where: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new SettingError(`${where}: expected an http:// or https:// URL, e.g. http://localhost:4318`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SettingError(`${where}: expected an http:// or https:// URL (OTLP/HTTP), got ${redactUrl(url.href)}`);
  }
  return url;
}

/** OTEL_EXPORTER_OTLP_ENDPOINT's rule: the signal's path is appended to a base URL, unless it ends so. */
export function tracesUrl(base: URL): string {
  const url = new URL(base.href);
  if (/\/v1\/traces\/?$/.test(url.pathname)) return url.href;
  url.pathname = url.pathname.replace(/\/?$/, "/v1/traces");
  return url.href;
}

/** Where --send sends: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, else localhost:4318. */
export function envUrl(env: Env): string {
  const traces = read(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (traces !== undefined) return checkUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", traces).href;
  const base = read(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  return tracesUrl(base !== undefined ? checkUrl("OTEL_EXPORTER_OTLP_ENDPOINT", base) : new URL("http://localhost:4318"));
}

/**
 * A URL as messages show it: user info replaced by `***@`, each query value by `***` (a query
 * item without `=` entirely), the fragment left out; scheme, host, port and path as they are.
 */
export function redactUrl(href: string): string {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return "(the URL)";
  }
  const auth = u.username !== "" || u.password !== "";
  const query =
    u.search.length > 1
      ? "?" +
        u.search
          .slice(1)
          .split("&")
          .map((item) => {
            const at = item.indexOf("=");
            return at < 0 ? (item === "" ? "" : "***") : `${item.slice(0, at)}=***`;
          })
          .join("&")
      : "";
  u.username = "";
  u.password = "";
  u.search = "";
  u.hash = "";
  return (auth ? u.href.replace("//", "//***@") : u.href) + query;
}

/**
 * What a message must not repeat, whatever quotes it (an error of Node.js, a collector's answer):
 * the URL's user name, password and query values, and the header values, as given and decoded.
 * Strings under 4 characters are left alone (too short to be a credential, too common to hide).
 */
export function secretsOf(href: string, headers: Record<string, string>): string[] {
  const found = new Set<string>();
  const add = (s: string) => {
    for (const v of [s, safeDecode(s)]) if (v.length >= 4) found.add(v);
  };
  try {
    const u = new URL(href);
    add(u.username);
    add(u.password);
    for (const item of u.search.slice(1).split("&")) {
      const at = item.indexOf("=");
      add(at < 0 ? item : item.slice(at + 1));
      if (at >= 0) add(new URLSearchParams(item).values().next().value ?? "");
    }
  } catch {
    // not a URL: nothing to hide in it
  }
  for (const v of Object.values(headers)) add(v);
  // Longest first: a secret that contains another is hidden whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced by `***`. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join("***");
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
