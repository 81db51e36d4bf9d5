import { name, typeIs, type RawSkip } from "../../input/raw-skip.js";

const THINKING = name("thinking");
const TIMESTAMP = Buffer.from(',"timestamp_ms":');

/**
 * For the trace exports, which need of a thinking event only its time: a sound thinking line
 * (raw-skip.ts; most of a log's lines) that ends `,"timestamp_ms":N}`, as cursor-agent writes
 * every one, stands in as `{type: "thinking", timestamp_ms: N}`, its text never decoded or parsed.
 * Any other line is parsed as usual.
 */
export function thinkingTimes(): RawSkip {
  return {
    test(line) {
      const { buf, start, end } = line;
      if (end - start < TIMESTAMP.length + 2 || buf[end - 1] !== 0x7d || !typeIs(line, THINKING)) return undefined;
      let i = end - 2;
      while (i > start && buf[i]! >= 0x30 && buf[i]! <= 0x39) i--;
      const digits = end - 2 - i;
      if (digits < 1 || digits > 16) return undefined;
      const from = i + 1 - TIMESTAMP.length;
      if (from <= start || !timestampAt(buf, from)) return undefined;
      return { type: "thinking", timestamp_ms: Number(buf.toString("latin1", i + 1, end - 1)) };
    },
  };
}

/** `,"timestamp_ms":` is at `from` (a loop: cheaper than a native call for 16 bytes). */
function timestampAt(buf: Buffer, from: number): boolean {
  for (let k = 0; k < TIMESTAMP.length; k++) if (buf[from + k] !== TIMESTAMP[k]) return false;
  return true;
}
