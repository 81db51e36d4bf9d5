/**
 * The progress line on stderr for long runs over files: bytes done of the total, speed, time left.
 * Drawn at the first bytes, then redrawn in place at most every `everyMs`, erased at the end. Only on a terminal (or --progress).
 *
 * Output and the progress line never share a terminal line: when stdout is the same terminal, each
 * write of output first erases the line (clear()), and the line is drawn again only once the output
 * has ended a line (hold()), below it. A dumb terminal (TERM=dumb) gets no escape sequence: the line
 * is overwritten with `\r` and blanks instead of `\r` ESC [K.
 */
export class Progress {
  private done = 0;
  private lastDraw = -Infinity;
  private readonly start: number;
  /** Columns of the line now on the screen (0: none). */
  private drawnWidth = 0;
  /** The output's last line is not ended yet: drawing now would overwrite it. */
  private held = false;

  constructor(
    private readonly write: (s: string) => void,
    private readonly total: number,
    private readonly now: () => number = Date.now,
    private readonly everyMs = 200,
    /** TERM=dumb: blanks instead of ESC [K. */
    private readonly dumb = false,
  ) {
    this.start = now();
  }

  add(bytes: number): void {
    this.done += bytes;
    const t = this.now();
    if (this.held || t - this.lastDraw < this.everyMs) return;
    this.lastDraw = t;
    const line = this.line(t);
    if (this.dumb) {
      this.write(`\r${line}${" ".repeat(Math.max(0, this.drawnWidth - line.length))}`);
    } else {
      this.write(`\r\u001b[K${line}`);
    }
    this.drawnWidth = line.length;
  }

  /** Erases the line if it is drawn (nothing is left behind in the terminal); the next add() draws it again. */
  clear(): void {
    if (this.drawnWidth === 0) return;
    this.write(this.dumb ? `\r${" ".repeat(this.drawnWidth)}\r` : "\r\u001b[K");
    this.drawnWidth = 0;
    this.lastDraw = -Infinity; // drawn again at the next bytes, below what was written
  }

  /** While output has written part of a line, the progress line is not drawn (it would land on it). */
  hold(held: boolean): void {
    this.held = held;
  }

  /** Erases the line at the end. */
  end(): void {
    this.clear();
    this.held = true;
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
