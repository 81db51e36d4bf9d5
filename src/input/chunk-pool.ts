/**
 * Read buffers given back once nothing refers to them any more. Reading a big file into a fresh
 * 1 MiB buffer per chunk costs the kernel a page fault per 4 KiB of new memory: on a 200 MB log
 * that was a fifth of `cursorlog json`'s time. Only buffers this pool made are taken back.
 */
export class ChunkPool {
  private readonly free: ArrayBuffer[] = [];
  private readonly mine = new WeakSet<ArrayBuffer>();

  constructor(
    readonly size = 1 << 20,
    private readonly keep = 4,
  ) {}

  /** A buffer of `size` bytes, old or new. */
  take(): Buffer {
    const old = this.free.pop();
    if (old !== undefined) return Buffer.from(old);
    const buf = Buffer.allocUnsafeSlow(this.size);
    this.mine.add(buf.buffer as ArrayBuffer);
    return buf;
  }

  /** `chunk` (a view of a buffer from `take`, or anything else, which is ignored) is no longer referred to. */
  give(chunk: Buffer): void {
    const ab = chunk.buffer as ArrayBuffer;
    if (this.mine.has(ab) && this.free.length < this.keep && !this.free.includes(ab)) this.free.push(ab);
  }
}
