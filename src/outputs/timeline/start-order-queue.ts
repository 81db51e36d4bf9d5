interface Place<K> {
  key: K | undefined;
  seq: number;
  /** The finished row; undefined while the call is still running. */
  text: string | undefined;
}

/** Up to this many rows held at a session's end are returned as one string. */
const FEW = 256;

/** Characters of rows in one piece of StartOrderQueue.end. */
const PIECE_CHARS = 1 << 16;

function* heldRows<K>(places: Array<Place<K> | undefined>, head: number, render: (key: K, seq: number) => string): Generator<string> {
  let out = "";
  for (let i = head; i < places.length; i++) {
    const p = places[i] as Place<K>;
    places[i] = undefined;
    out += p.text ?? render(p.key as K, p.seq);
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
 */
export class StartOrderQueue<K> {
  private places: Array<Place<K> | undefined> = [];
  private head = 0;
  private seq = 0;
  private readonly byKey = new Map<K, Place<K>>();

  /** A call started: it takes the next place. Returns its seq. */
  start(key: K): number {
    const place: Place<K> = { key, seq: ++this.seq, text: undefined };
    this.places.push(place);
    this.byKey.set(key, place);
    return place.seq;
  }

  /** A started call completed: its place gets `render(seq)`. Returns the rows now released, in order. */
  complete(key: K, render: (seq: number) => string): string {
    const place = this.byKey.get(key);
    if (place === undefined) return this.completeUnstarted(render);
    this.byKey.delete(key);
    place.key = undefined;
    place.text = render(place.seq);
    return place === this.places[this.head] ? this.release() : "";
  }

  /** A completion that had no start: the next place, already filled. Returns the rows released. */
  completeUnstarted(render: (seq: number) => string): string {
    const seq = ++this.seq;
    const place: Place<K> = { key: undefined, seq, text: render(seq) };
    this.places.push(place);
    return place === this.places[this.head] ? this.release() : "";
  }

  /**
   * The session ended: every open place gets `render(key, seq)`. The queue starts again at once.
   * The held rows, in order: a string when they are few, else a generator of pieces of about
   * PIECE_CHARS (the rows of a million calls still open are never one string).
   */
  end(render: (key: K, seq: number) => string): string | Iterable<string> {
    const places = this.places;
    const head = this.head;
    this.places = [];
    this.head = 0;
    this.seq = 0;
    this.byKey.clear();
    const rows = heldRows(places, head, render);
    if (places.length - head > FEW) return rows;
    let out = "";
    for (const r of rows) out += r;
    return out;
  }

  private release(): string {
    const places = this.places;
    let h = this.head;
    let out = "";
    for (let p = places[h]; p !== undefined && p.text !== undefined; p = places[++h]) {
      out += p.text;
      places[h] = undefined;
    }
    if (h === places.length) {
      places.length = 0;
      h = 0;
    } else if (h >= COMPACT_AT && h * 2 >= places.length) {
      this.places = places.slice(h);
      h = 0;
    }
    this.head = h;
    return out;
  }
}
