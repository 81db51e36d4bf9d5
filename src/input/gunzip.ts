import * as zlib from "node:zlib";

/**
 * Decompresses a gzip stream (RFC 1952) member by member, as `gzip -d` does: a raw inflate per
 * member, with the header and the trailer (CRC-32, length) read here. Node's own Gunzip cannot be
 * used for this: on bytes after a complete member that are not another member (trailing garbage,
 * say a log appended to a .gz file), it fails and drops the output of its last step, the end of
 * the member (RELIABILITY.md). Here all of it is yielded, then `onTrailingGarbage` is told and
 * reading stops; zero bytes after a member are padding and pass silently (gzip and zlib agree).
 *
 * Memory: the input is fed 16 KiB at a time and each piece's output is yielded before the next,
 * so a gzip bomb (about 1000:1) holds at most about 16 MiB.
 */
export async function* gunzip(chunks: AsyncIterator<Buffer>, first: Buffer, onTrailingGarbage: () => void): AsyncGenerator<Buffer> {
  const input = new Input(chunks, first);
  let members = 0;
  for (;;) {
    if (members > 0) {
      // After a member: the next one, zero padding, the end, or garbage.
      const b = await input.peek();
      if (b === undefined) return;
      if (b === 0) {
        if (await input.onlyZeros()) return;
        onTrailingGarbage();
        return;
      }
      const head = await input.peekTwo();
      if (head === undefined || head[0] !== 0x1f || head[1] !== 0x8b) {
        onTrailingGarbage();
        return;
      }
    }
    await readHeader(input);
    yield* inflateMember(input);
    members++;
  }
}

const PIECE = 16 * 1024;

/** The bytes still to be read, from `first` on. */
class Input {
  private buf: Buffer;
  private done = false;
  constructor(
    private readonly it: AsyncIterator<Buffer>,
    first: Buffer,
  ) {
    this.buf = first;
  }

  /** At least `n` bytes buffered, or false at the end of the input. */
  async fill(n: number): Promise<boolean> {
    while (this.buf.length < n && !this.done) {
      const next = await this.it.next();
      if (next.done) this.done = true;
      else this.buf = this.buf.length === 0 ? next.value : Buffer.concat([this.buf, next.value]);
    }
    return this.buf.length >= n;
  }

  async peek(): Promise<number | undefined> {
    return (await this.fill(1)) ? this.buf[0] : undefined;
  }

  async peekTwo(): Promise<Buffer | undefined> {
    return (await this.fill(2)) ? this.buf.subarray(0, 2) : undefined;
  }

  /** `n` bytes, or a truncation error. */
  async take(n: number): Promise<Buffer> {
    if (!(await this.fill(n))) throw truncated();
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Bytes up to and including the next zero byte (a header's file name or comment). */
  async skipZeroTerminated(): Promise<void> {
    for (;;) {
      const z = this.buf.indexOf(0);
      if (z >= 0) {
        this.buf = this.buf.subarray(z + 1);
        return;
      }
      this.buf = Buffer.alloc(0);
      if (!(await this.fill(1))) throw truncated();
    }
  }

  /** The next piece of at most PIECE bytes, or undefined at the end of the input. */
  async piece(): Promise<Buffer | undefined> {
    if (!(await this.fill(1))) return undefined;
    const out = this.buf.subarray(0, PIECE);
    this.buf = this.buf.subarray(out.length);
    return out;
  }

  /** Gives back the end of the last piece, which the inflater did not use. */
  unread(rest: Buffer): void {
    this.buf = this.buf.length === 0 ? rest : Buffer.concat([rest, this.buf]);
  }

  /** Whether the rest of the input is zero bytes only (read to the end). */
  async onlyZeros(): Promise<boolean> {
    for (;;) {
      for (const b of this.buf) if (b !== 0) return false;
      this.buf = Buffer.alloc(0);
      if (!(await this.fill(1))) return true;
    }
  }
}

async function readHeader(input: Input): Promise<void> {
  const h = await input.take(10);
  if (h[0] !== 0x1f || h[1] !== 0x8b) throw corrupt("incorrect header check");
  if (h[2] !== 8) throw corrupt("unknown compression method");
  const flags = h[3]!;
  if ((flags & 0xe0) !== 0) throw corrupt("unknown header flags set");
  if (flags & 4) {
    const x = await input.take(2);
    await input.take(x.readUInt16LE(0));
  }
  if (flags & 8) await input.skipZeroTerminated();
  if (flags & 16) await input.skipZeroTerminated();
  if (flags & 2) await input.take(2);
}

/** One member's deflate data, then its trailer, checked. */
async function* inflateMember(input: Input): AsyncGenerator<Buffer> {
  const inflater = zlib.createInflateRaw();
  const out: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  inflater.on("data", (d: Buffer) => out.push(d));
  inflater.on("end", () => (ended = true));
  let wake: (() => void) | undefined;
  inflater.on("error", (err) => {
    failure ??= err;
    wake?.();
  });
  let crc = 0;
  let size = 0;
  try {
    for (;;) {
      const piece = await input.piece();
      if (piece === undefined) throw truncated();
      const before = inflater.bytesWritten;
      await new Promise<void>((resolve) => {
        wake = resolve;
        inflater.write(piece, () => resolve());
      });
      // 'end' comes on a later tick than the write's callback.
      if (!ended && failure === undefined && inflater.bytesWritten - before < piece.length) await new Promise((r) => setImmediate(r));
      for (const d of out) {
        crc = crc32(d, crc);
        size = (size + d.length) >>> 0;
      }
      const batch = out.splice(0);
      for (const d of batch) yield d;
      if (failure !== undefined) throw failure;
      if (ended) {
        const used = inflater.bytesWritten - before;
        if (used < piece.length) input.unread(piece.subarray(used));
        break;
      }
    }
  } finally {
    inflater.removeAllListeners("data");
    inflater.on("error", () => {}); // an error after this member is of no interest
    inflater.destroy();
  }
  const trailer = await input.take(8);
  if (trailer.readUInt32LE(0) !== crc >>> 0) throw corrupt("incorrect data check");
  if (trailer.readUInt32LE(4) !== size) throw corrupt("incorrect length check");
}

function truncated(): Error {
  return Object.assign(new Error("unexpected end of file"), { code: "Z_BUF_ERROR" });
}

function corrupt(message: string): Error {
  return Object.assign(new Error(message), { code: "Z_DATA_ERROR" });
}

/** zlib.crc32 from Node 20.15 on; a table before that. */
const crc32: (data: Buffer, value: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === "function"
    ? (zlib as unknown as { crc32: (d: Buffer, v: number) => number }).crc32
    : tableCrc32;

let table: Uint32Array | undefined;
function tableCrc32(data: Buffer, value: number): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = ~value >>> 0;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
