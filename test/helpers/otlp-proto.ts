import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";

/** A span as test/helpers/otlp_decode.py prints it after decoding with the official OTLP definitions. */
export interface DecodedSpan {
  resource: Record<string, unknown>;
  scope: { name: string; version: string };
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: string;
  end: string;
  status: { code: number; message: string };
  attributes: Record<string, unknown>;
  /** The AnyValue arm of each attribute: string_value, int_value, bool_value, … */
  types: Record<string, string>;
}

export const DECODER = "test/helpers/otlp_decode.py";

/**
 * Whether python3 with `opentelemetry-proto` and `protobuf` is here (.ci/run installs them). In CI
 * a missing decoder fails the test; elsewhere the test is skipped, saying so loudly on stderr.
 */
export function needDecoder(t: TestContext): boolean {
  const r = spawnSync("python3", [DECODER, "check"], { encoding: "utf8" });
  if (r.status === 0) return true;
  const why = `python3 with opentelemetry-proto and protobuf is not available (${(r.stderr || r.error?.message || "").trim()}): pip install opentelemetry-proto protobuf`;
  if (process.env.CI) throw new Error(`${why} (CI must install them: see .ci/run)`);
  process.stderr.write(`\n*** SKIPPED: ${why} ***\n\n`);
  t.skip(why);
  return false;
}

/** Each line of an OTLP/JSON file, parsed strictly into the official TracesData: its spans, or the parse error. */
export function decodeOtlpJson(text: string): Array<{ line: number; spans?: DecodedSpan[]; error?: string }> {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-otlp-"));
  const file = join(dir, "traces.jsonl");
  writeFileSync(file, text);
  const r = spawnSync("python3", [DECODER, "file", file], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`decoder failed: ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { line: number; spans?: DecodedSpan[]; error?: string });
}
