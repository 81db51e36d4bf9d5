/**
 * The progress line on stderr for long runs over files: bytes done of the total, speed, time left.
 * Drawn at the first bytes, then redrawn in place at most every `everyMs`, erased at the end. Only on a terminal (or --progress).
 */
export class Progress {
  private done = 0;
  private lastDraw = -Infinity;
  private readonly start: number;
  private drawn = false;

  constructor(
    private readonly write: (s: string) => void,
    private readonly total: number,
    private readonly now: () => number = Date.now,
    private readonly everyMs = 200,
  ) {
    this.start = now();
  }

  add(bytes: number): void {
    this.done += bytes;
    const t = this.now();
    if (t - this.lastDraw < this.everyMs) return;
    this.lastDraw = t;
    this.write(`\r\u001b[K${this.line(t)}`);
    this.drawn = true;
  }

  /** Erases the line (nothing is left behind in the terminal). */
  end(): void {
    if (this.drawn) this.write("\r\u001b[K");
    this.drawn = false;
  }

  line(t = this.now()): string {
    const secs = Math.max((t - this.start) / 1000, 1e-3);
    const rate = this.done / secs;
    let s = `cursorlog: ${mb(this.done)}`;
    if (this.total > 0) {
      const pct = Math.min(100, Math.floor((100 * this.done) / this.total));
      s += ` of ${mb(this.total)} (${pct}%)`;
    }
    s += `, ${(rate / 1e6).toFixed(0)} MB/s`;
    if (this.total > 0 && rate > 0 && this.done < this.total) s += `, ${clock((this.total - this.done) / rate)} left`;
    return s;
  }
}

function mb(n: number): string {
  return n < 1e6 ? `${(n / 1e3).toFixed(1)} kB` : n < 1e9 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e9).toFixed(2)} GB`;
}

function clock(secs: number): string {
  const s = Math.ceil(secs);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
