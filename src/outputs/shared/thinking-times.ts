import type { RawSkip } from "../../input/raw-skip.js";
import { soundLine } from "../../input/sound-line.js";

const THINKING = Buffer.from('{"type":"thinking",');
const TIMESTAMP = Buffer.from(',"timestamp_ms":');

/**
 * For the trace exports, which need of a thinking event only its time: a thinking line (most of a
 * log's lines) that is sound (sound-line.ts) and ends `,"timestamp_ms":N}`, as cursor-agent writes
 * every one, stands in as `{type: "thinking", timestamp_ms: N}`, its text never decoded or parsed.
 * Any other line is parsed as usual.
 */
export function thinkingTimes(): RawSkip {
  return {
    test(buf, start, end) {
      if (end - start < THINKING.length + TIMESTAMP.length + 2 || buf.compare(THINKING, 0, THINKING.length, start, start + THINKING.length) !== 0) return undefined;
      if (buf[end - 1] !== 0x7d) return undefined;
      let i = end - 2;
      while (i > start && buf[i]! >= 0x30 && buf[i]! <= 0x39) i--;
      const digits = end - 2 - i;
      if (digits < 1 || digits > 16) return undefined;
      const from = i + 1 - TIMESTAMP.length;
      if (from <= start || buf.compare(TIMESTAMP, 0, TIMESTAMP.length, from, i + 1) !== 0) return undefined;
      if (!soundLine(buf, start, end)) return undefined;
      return { type: "thinking", timestamp_ms: Number(buf.toString("latin1", i + 1, end - 1)) };
    },
  };
}
