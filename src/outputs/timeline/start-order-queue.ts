/**
 * A place in the queue: the call's key while it runs (an object: the tracker's OpenCall), its
 * finished row once written (a string), undefined once released. No object of its own: a place
 * is one slot of an array, found by its seq.
 */
type Place<K> = K | string | undefined;

/** Up to this many rows held at a session's end are returned as one string. */
const FEW = 256;

/** Characters of rows in one piece of StartOrderQueue.end. */
const PIECE_CHARS = 1 << 16;

function* heldRows<K extends object>(places: Array<Place<K>>, head: number, base: number, render: (key: K, seq: number) => string): Generator<string> {
  let out = "";
  for (let i = head; i < places.length; i++) {
    const p = places[i];
    places[i] = undefined;
    out += typeof p === "string" ? p : render(p as K, base + i);
    if (out.length >= PIECE_CHARS) {
      yield out;
      out = "";
    }
  }
  if (out !== "") yield out;
}

/** Compact the array once this many released places sit before the head (and they are half of it). */
const COMPACT_AT = 1024;

/**
 * The rows of one session, released in the order their calls started. Each started call takes a
 * place (its seq, from 1); a row is released as soon as it and every place before it are filled,
 * so only the rows behind a still-running call are held. A completion without a start takes the
 * next place when it arrives. `end` fills what is left (the session is over) and starts again.
 *
 * Memory per running call: one array slot holding its key, nothing else (the caller finds a
 * place by its seq, which it keeps with the key: the tracker's OpenCall.seq); a finished row
 * waiting behind a running call is its text.
 */
export class StartOrderQueue<K extends object> {
  private places: Array<Place<K>> = [];
  /** Index of the first place not released. */
  private head = 0;
  /** The seq of places[0]. */
  private base = 1;
  private seq = 0;

  /** A call started: it takes the next place. Returns its seq. */
  start(key: K): number {
    this.places.push(key);
    return ++this.seq;
  }

  /**
   * The started call of place `seq` completed: the place gets `render(seq)`. Returns the rows now
   * released, in order. A seq that is not a running call's place (released, or never given) is
   * taken as a completion without a start.
   */
  complete(seq: number, render: (seq: number) => string): string {
    const i = seq - this.base;
    const place = i >= this.head && i < this.places.length ? this.places[i] : undefined;
    if (place === undefined || typeof place === "string") return this.completeUnstarted(render);
    this.places[i] = render(seq);
    return i === this.head ? this.release() : "";
  }

  /** A completion that had no start: the next place, already filled. Returns the rows released. */
  completeUnstarted(render: (seq: number) => string): string {
    const seq = ++this.seq;
    this.places.push(render(seq));
    return this.places.length - 1 === this.head ? this.release() : "";
  }

  /**
   * The session ended: every open place gets `render(key, seq)`. The queue starts again at once.
   * The held rows, in order: a string when they are few, else a generator of pieces of about
   * PIECE_CHARS (the rows of a million calls still open are never one string).
   */
  end(render: (key: K, seq: number) => string): string | Iterable<string> {
    const { places, head, base } = this;
    this.places = [];
    this.head = 0;
    this.base = 1;
    this.seq = 0;
    const rows = heldRows(places, head, base, render);
    if (places.length - head > FEW) return rows;
    let out = "";
    for (const r of rows) out += r;
    return out;
  }

  private release(): string {
    const places = this.places;
    let h = this.head;
    let out = "";
    for (let p = places[h]; typeof p === "string"; p = places[++h]) {
      out += p;
      places[h] = undefined;
    }
    if (h === places.length) {
      this.base += h;
      places.length = 0;
      h = 0;
    } else if (h >= COMPACT_AT && h * 2 >= places.length) {
      this.places = places.slice(h);
      this.base += h;
      h = 0;
    }
    this.head = h;
    return out;
  }
}
