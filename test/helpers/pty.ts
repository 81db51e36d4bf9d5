import { execFile } from "node:child_process";

/** What a command wrote to a pseudo-terminal (stdout and stderr both on it), and its exit status. */
export interface PtyResult {
  /** The bytes as the terminal received them, escape sequences included. */
  raw: string;
  code: number;
}

// Runs argv with stdout and stderr on one pseudo-terminal (stdin: /dev/null), reads until the child
// ends or 60 s pass, and prints {"raw": base64, "code": n}. The columns are set so that nothing wraps.
// (The bound only stops a hang: a run takes well under a second, several on a machine shared with
// other test files.)
const RUNNER = String.raw`
import base64, json, os, pty, select, subprocess, sys, time, fcntl, termios, struct
argv = json.loads(sys.argv[1]); env = json.loads(sys.argv[2])
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, close_fds=True)
os.close(slave)
out = b""; deadline = time.time() + 60
while time.time() < deadline:
    r, _, _ = select.select([master], [], [], 0.2)
    if r:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    elif p.poll() is not None:
        break
try:
    code = p.wait(timeout=max(0.1, deadline - time.time()))
except subprocess.TimeoutExpired:
    p.kill(); code = -1
print(json.dumps({"raw": base64.b64encode(out).decode(), "code": code}))
`;

/** Runs `node bin/cursorlog.js ARGS` on a pseudo-terminal (python3's pty module), bounded at 60 s. */
export function runOnPty(args: string[], env: Record<string, string>): Promise<PtyResult> {
  const argv = [process.execPath, "bin/cursorlog.js", ...args];
  return new Promise((resolve, reject) => {
    execFile("python3", ["-c", RUNNER, JSON.stringify(argv), JSON.stringify({ PATH: process.env.PATH ?? "", ...env })], { timeout: 90_000 }, (err, stdout) => {
      if (err) return reject(err);
      const r = JSON.parse(stdout) as { raw: string; code: number };
      resolve({ raw: Buffer.from(r.raw, "base64").toString("utf8"), code: r.code });
    });
  });
}

/**
 * The lines a terminal shows after receiving `raw`: CR moves to column 0, ESC [K erases to the end
 * of the line, LF ends the line (the pty turns it into CR LF), other ESC [ sequences (colour) are
 * dropped, every other character overwrites the cell under the cursor.
 */
export function screenLines(raw: string): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  let col = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\r") col = 0;
    else if (c === "\n") {
      lines.push(line.join("").trimEnd());
      line = [];
      col = 0;
    } else if (c === "\u001b" && raw[i + 1] === "[") {
      const m = /^\u001b\[([0-9;?]*)([A-Za-z])/.exec(raw.slice(i));
      if (!m) throw new Error(`unknown escape at ${i}: ${JSON.stringify(raw.slice(i, i + 10))}`);
      if (m[2] === "K") line.length = Math.min(line.length, col);
      i += m[0].length - 1;
    } else {
      while (line.length < col) line.push(" ");
      line[col++] = c;
    }
  }
  if (line.length > 0) lines.push(line.join("").trimEnd());
  return lines;
}
