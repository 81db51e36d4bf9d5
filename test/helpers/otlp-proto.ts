// OTLP trace decoding in Node, for the tests: what `cursorlog export` writes (OTLP/JSON TracesData, a
// document a line) and sends (ExportTraceServiceRequest, protobuf or JSON), decoded into plain spans.
//
// @opentelemetry/otlp-transformer (0.223) carries no protobuf definitions to decode with (only the
// writer cursorlog encodes with, and a reader for the collector's response), and protobufjs is not
// installed: the messages are described here, field by field, from opentelemetry-proto (1.x:
// common.proto, resource.proto, trace.proto, trace_service.proto), and decoded by a small reader of
// the protobuf wire format written apart from the encoder under test. `make stress`
// (test/stress/otlp-python.test.ts) checks this table against the official Python definitions, and
// that both decode what cursorlog writes and sends to the same spans.
//
// Both decoders are strict. The JSON one follows protobuf's JSON mapping as google.protobuf.json_format
// parses it (ignore_unknown_fields=False): a name that is no field (JSON or proto name) fails, and so
// do a value of the wrong type, an integer out of range or written as a fraction, two arms of a oneof,
// a null in a list; a null field is its default. OTLP/JSON writes trace and span ids as hex where
// the mapping wants base64: a span's ids are read as hex (as OTLP receivers do). Not checked: JSON
// keys written twice (JSON.parse keeps the last), and an integer above 2^53 written as a JSON number
// fails here (JSON.parse would round it) where Python reads it exactly. The binary one fails on a
// field number the message does not have, a wire type that is not the field's, invalid UTF-8 in a
// string, and a truncated buffer.

/** A span as the tests compare it: ids in hex ("" when empty), times as decimal strings. */
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
  /** The AnyValue arm of each attribute (string_value, int_value, bool_value, …; null when unset). */
  types: Record<string, string | null>;
}

// ---- The messages (field numbers and types as in opentelemetry-proto) --------------------------

export type FieldType = "string" | "bytes" | "bool" | "int32" | "int64" | "uint32" | "fixed32" | "fixed64" | "double" | "enum" | "message";

export interface FieldDef {
  no: number;
  /** The proto name (snake_case); the JSON name is its lowerCamelCase. */
  name: string;
  type: FieldType;
  /** The full name of the message or enum type. */
  ref?: string;
  repeated?: boolean;
  oneof?: string;
}

const C = "opentelemetry.proto.common.v1.";
const R = "opentelemetry.proto.resource.v1.";
const T = "opentelemetry.proto.trace.v1.";
const S = "opentelemetry.proto.collector.trace.v1.";

const f = (no: number, name: string, type: FieldType, more: Partial<FieldDef> = {}): FieldDef => ({ no, name, type, ...more });
const msg = (no: number, name: string, ref: string, repeated = false): FieldDef => f(no, name, "message", { ref, ...(repeated ? { repeated } : {}) });
const any = (no: number, name: string, type: FieldType, ref?: string): FieldDef => f(no, name, type, { oneof: "value", ...(ref ? { ref } : {}) });

/** Every message an ExportTraceServiceRequest, a TracesData or an ExportTraceServiceResponse holds, by full name. */
export const MESSAGES: Record<string, FieldDef[]> = {
  [`${S}ExportTraceServiceRequest`]: [msg(1, "resource_spans", `${T}ResourceSpans`, true)],
  [`${S}ExportTraceServiceResponse`]: [msg(1, "partial_success", `${S}ExportTracePartialSuccess`)],
  [`${S}ExportTracePartialSuccess`]: [f(1, "rejected_spans", "int64"), f(2, "error_message", "string")],
  [`${T}TracesData`]: [msg(1, "resource_spans", `${T}ResourceSpans`, true)],
  [`${T}ResourceSpans`]: [msg(1, "resource", `${R}Resource`), msg(2, "scope_spans", `${T}ScopeSpans`, true), f(3, "schema_url", "string")],
  [`${T}ScopeSpans`]: [msg(1, "scope", `${C}InstrumentationScope`), msg(2, "spans", `${T}Span`, true), f(3, "schema_url", "string")],
  [`${T}Span`]: [
    f(1, "trace_id", "bytes"),
    f(2, "span_id", "bytes"),
    f(3, "trace_state", "string"),
    f(4, "parent_span_id", "bytes"),
    f(16, "flags", "fixed32"),
    f(5, "name", "string"),
    f(6, "kind", "enum", { ref: `${T}Span.SpanKind` }),
    f(7, "start_time_unix_nano", "fixed64"),
    f(8, "end_time_unix_nano", "fixed64"),
    msg(9, "attributes", `${C}KeyValue`, true),
    f(10, "dropped_attributes_count", "uint32"),
    msg(11, "events", `${T}Span.Event`, true),
    f(12, "dropped_events_count", "uint32"),
    msg(13, "links", `${T}Span.Link`, true),
    f(14, "dropped_links_count", "uint32"),
    msg(15, "status", `${T}Status`),
  ],
  [`${T}Span.Event`]: [f(1, "time_unix_nano", "fixed64"), f(2, "name", "string"), msg(3, "attributes", `${C}KeyValue`, true), f(4, "dropped_attributes_count", "uint32")],
  [`${T}Span.Link`]: [
    f(1, "trace_id", "bytes"),
    f(2, "span_id", "bytes"),
    f(3, "trace_state", "string"),
    msg(4, "attributes", `${C}KeyValue`, true),
    f(5, "dropped_attributes_count", "uint32"),
    f(6, "flags", "fixed32"),
  ],
  [`${T}Status`]: [f(2, "message", "string"), f(3, "code", "enum", { ref: `${T}Status.StatusCode` })],
  [`${R}Resource`]: [msg(1, "attributes", `${C}KeyValue`, true), f(2, "dropped_attributes_count", "uint32"), msg(3, "entity_refs", `${C}EntityRef`, true)],
  [`${C}InstrumentationScope`]: [f(1, "name", "string"), f(2, "version", "string"), msg(3, "attributes", `${C}KeyValue`, true), f(4, "dropped_attributes_count", "uint32")],
  [`${C}EntityRef`]: [f(1, "schema_url", "string"), f(2, "type", "string"), f(3, "id_keys", "string", { repeated: true }), f(4, "description_keys", "string", { repeated: true })],
  [`${C}KeyValue`]: [f(1, "key", "string"), msg(2, "value", `${C}AnyValue`), f(3, "key_strindex", "int32")],
  [`${C}AnyValue`]: [
    any(1, "string_value", "string"),
    any(2, "bool_value", "bool"),
    any(3, "int_value", "int64"),
    any(4, "double_value", "double"),
    any(5, "array_value", "message", `${C}ArrayValue`),
    any(6, "kvlist_value", "message", `${C}KeyValueList`),
    any(7, "bytes_value", "bytes"),
    any(8, "string_value_strindex", "int32"),
  ],
  [`${C}ArrayValue`]: [msg(1, "values", `${C}AnyValue`, true)],
  [`${C}KeyValueList`]: [msg(1, "values", `${C}KeyValue`, true)],
};

export const ENUMS: Record<string, Record<string, number>> = {
  [`${T}Span.SpanKind`]: {
    SPAN_KIND_UNSPECIFIED: 0,
    SPAN_KIND_INTERNAL: 1,
    SPAN_KIND_SERVER: 2,
    SPAN_KIND_CLIENT: 3,
    SPAN_KIND_PRODUCER: 4,
    SPAN_KIND_CONSUMER: 5,
  },
  [`${T}Status.StatusCode`]: { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 },
};

export const TRACES_DATA = `${T}TracesData`;
export const EXPORT_TRACE_REQUEST = `${S}ExportTraceServiceRequest`;
export const EXPORT_TRACE_RESPONSE = `${S}ExportTraceServiceResponse`;

/** protoc's json_name: lowerCamelCase of the proto name. */
export const jsonName = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A decoded message: the fields present, by proto name; 64-bit integers are bigints, bytes Uint8Arrays. */
export type Message = { [field: string]: unknown };

const MAX_DEPTH = 100;

function fieldsOf(type: string): FieldDef[] {
  const fields = MESSAGES[type];
  if (fields === undefined) throw new Error(`no message type ${type}`);
  return fields;
}

/** Sets a field, one arm of a oneof at a time; a key such as `__proto__` is an ordinary property. */
function put(m: Message, fields: FieldDef[], def: FieldDef, value: unknown): void {
  if (def.oneof !== undefined) for (const o of fields) if (o.oneof === def.oneof && o !== def) delete m[o.name];
  Object.defineProperty(m, def.name, { value, enumerable: true, writable: true, configurable: true });
}

// ---- Binary (application/x-protobuf) -------------------------------------------------------------

const WIRE: Record<FieldType, number> = {
  string: 2,
  bytes: 2,
  message: 2,
  bool: 0,
  int32: 0,
  int64: 0,
  uint32: 0,
  enum: 0,
  fixed32: 5,
  fixed64: 1,
  double: 1,
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }
  private need(n: number): void {
    if (this.pos + n > this.end) throw new Error(`truncated: ${n} byte(s) wanted at offset ${this.pos}, ${this.end - this.pos} left`);
  }
  varint(): bigint {
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      this.need(1);
      const b = this.buf[this.pos++]!;
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, v);
    }
    throw new Error(`a varint longer than 10 bytes at offset ${this.pos}`);
  }
  fixed32(): number {
    this.need(4);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4).getUint32(0, true);
    this.pos += 4;
    return v;
  }
  fixed64(): bigint {
    this.need(8);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getBigUint64(0, true);
    this.pos += 8;
    return v;
  }
  double(): number {
    this.need(8);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }
  /** The [start, end) of a length-delimited field. */
  delimited(): [number, number] {
    const len = this.varint();
    if (len > BigInt(this.end - this.pos)) throw new Error(`truncated: a length of ${len} at offset ${this.pos}, ${this.end - this.pos} byte(s) left`);
    const start = this.pos;
    this.pos += Number(len);
    return [start, this.pos];
  }
}

function decodeBinary(type: string, r: Reader, into: Message, depth: number): Message {
  if (depth > MAX_DEPTH) throw new Error(`message too deep (more than ${MAX_DEPTH} levels)`);
  const fields = fieldsOf(type);
  while (r.pos < r.end) {
    const tag = r.varint();
    const no = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    const def = fields.find((d) => d.no === no);
    if (def === undefined) throw new Error(`${type} has no field ${no} (wire type ${wire}) at offset ${r.pos}`);
    if (wire !== WIRE[def.type]) throw new Error(`${type}.${def.name}: wire type ${wire}, expected ${WIRE[def.type]}`);
    let value: unknown;
    switch (def.type) {
      case "message": {
        const [s, e] = r.delimited();
        const prior = def.repeated ? undefined : (into[def.name] as Message | undefined);
        value = decodeBinary(def.ref!, new Reader(r.buf, s, e), prior ?? {}, depth + 1);
        break;
      }
      case "string": {
        const [s, e] = r.delimited();
        try {
          value = utf8.decode(r.buf.subarray(s, e));
        } catch {
          throw new Error(`${type}.${def.name}: invalid UTF-8`);
        }
        break;
      }
      case "bytes": {
        const [s, e] = r.delimited();
        value = new Uint8Array(r.buf.subarray(s, e));
        break;
      }
      case "bool":
        value = r.varint() !== 0n;
        break;
      case "int32":
      case "enum":
        value = Number(BigInt.asIntN(32, r.varint()));
        break;
      case "uint32":
        value = Number(BigInt.asUintN(32, r.varint()));
        break;
      case "int64":
        value = BigInt.asIntN(64, r.varint());
        break;
      case "fixed32":
        value = r.fixed32();
        break;
      case "fixed64":
        value = r.fixed64();
        break;
      case "double":
        value = r.double();
        break;
    }
    if (def.repeated) {
      const list = (into[def.name] as unknown[] | undefined) ?? [];
      list.push(value);
      put(into, fields, def, list);
    } else put(into, fields, def, value);
  }
  return into;
}

/** Decodes protobuf bytes as the message `type` (a full name); throws what is wrong with them. */
export function decodeProtobuf(type: string, bytes: Uint8Array): Message {
  return decodeBinary(type, new Reader(bytes), {}, 1);
}

// ---- JSON (protobuf's JSON mapping, strictly) -----------------------------------------------------

const LIMITS: Partial<Record<FieldType, [bigint, bigint]>> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  enum: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const FLOAT_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const HEX_IDS = new Set([`${T}Span.trace_id`, `${T}Span.span_id`, `${T}Span.parent_span_id`]);

/** An integer as json_format takes it: a JSON number without fraction, or a string of one (a float's too). */
function jsonInteger(v: unknown): bigint {
  if (typeof v === "boolean") throw new Error(`Bool value ${v} is not acceptable for integer field`);
  if (typeof v === "number") {
    if (!Number.isInteger(v)) throw new Error(`Couldn't parse integer: ${v}`);
    if (!Number.isSafeInteger(v)) throw new Error(`the integer ${v} is written as a JSON number above 2^53: write it as a string`);
    return BigInt(v);
  }
  if (typeof v === "string") {
    if (v.includes(" ")) throw new Error(`Couldn't parse integer: "${v}"`);
    if (/^[+-]?\d+$/.test(v)) return BigInt(v);
    if (FLOAT_TEXT.test(v)) {
      const x = Number(v);
      if (!Number.isInteger(x)) throw new Error(`Couldn't parse non-integer string: "${v}"`);
      return BigInt(x);
    }
    throw new Error(`Couldn't parse integer: "${v}"`);
  }
  throw new Error(`Couldn't parse integer: ${JSON.stringify(v)}`);
}

function inRange(def: FieldDef, n: bigint): bigint {
  const [lo, hi] = LIMITS[def.type]!;
  if (n < lo || n > hi) throw new Error(`Value out of range: ${n}`);
  return n;
}

function jsonScalar(owner: string, def: FieldDef, v: unknown, path: string): unknown {
  const where = ` at ${path}`;
  try {
    switch (def.type) {
      case "string":
        if (typeof v !== "string") throw new Error(`expected a string, not ${JSON.stringify(v)}`);
        if (LONE_SURROGATE.test(v)) throw new Error("Unpaired surrogate");
        return v;
      case "bytes": {
        if (typeof v !== "string") throw new Error(`expected a base64 string, not ${JSON.stringify(v)}`);
        if (HEX_IDS.has(`${owner}.${def.name}`) && v !== "") {
          // OTLP/JSON's hex ids (Python's bytes.fromhex: whitespace allowed between pairs).
          if (!/^\s*(?:[0-9a-fA-F]{2}\s*)*$/.test(v)) throw new Error(`not a hex id: ${JSON.stringify(v)}`);
          return new Uint8Array(Buffer.from(v.replace(/\s+/g, ""), "hex"));
        }
        const clean = v.replace(/[^A-Za-z0-9+/_-]/g, "");
        if (clean.length % 4 === 1) throw new Error(`Incorrect padding: ${JSON.stringify(v)}`);
        return new Uint8Array(Buffer.from(clean.replace(/-/g, "+").replace(/_/g, "/"), "base64"));
      }
      case "bool":
        if (typeof v !== "boolean") throw new Error("Expected true or false without quotes");
        return v;
      case "double":
        if (typeof v === "number") return v;
        if (typeof v === "boolean") return v ? 1 : 0;
        if (v === "NaN") return NaN;
        if (typeof v === "string" && /^\s*\+?(inf|infinity)\s*$/i.test(v)) return Infinity;
        if (typeof v === "string" && /^\s*-(inf|infinity)\s*$/i.test(v)) return -Infinity;
        if (typeof v === "string" && FLOAT_TEXT.test(v)) return Number(v);
        throw new Error(`Couldn't parse float: ${JSON.stringify(v)}`);
      case "enum": {
        const names = ENUMS[def.ref!]!;
        if (typeof v === "string" && Object.hasOwn(names, v)) return names[v];
        let n: bigint;
        if (typeof v === "number") n = BigInt(Math.trunc(v));
        else if (typeof v === "boolean") n = v ? 1n : 0n;
        else if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) n = BigInt(v.trim());
        else throw new Error(`Invalid enum value ${JSON.stringify(v)} for enum type ${def.ref}`);
        return Number(inRange(def, n));
      }
      case "int32":
      case "uint32":
      case "fixed32":
        return Number(inRange(def, jsonInteger(v)));
      case "int64":
      case "fixed64":
        return inRange(def, jsonInteger(v));
      default:
        throw new Error(`not a scalar: ${def.type}`);
    }
  } catch (e) {
    throw new Error(`Failed to parse ${jsonName(def.name)} field: ${(e as Error).message}${where}.`);
  }
}

function decodeJsonMessage(type: string, js: unknown, path: string, depth: number): Message {
  if (depth > MAX_DEPTH) throw new Error(`Message too deep. Max recursion depth is ${MAX_DEPTH}`);
  if (js === null || typeof js !== "object" || Array.isArray(js)) throw new Error(`${type} must be a JSON object, not ${JSON.stringify(js)} at ${path}`);
  const fields = fieldsOf(type);
  const out: Message = {};
  const oneofs = new Set<string>();
  for (const [name, value] of Object.entries(js)) {
    const def = fields.find((d) => jsonName(d.name) === name) ?? fields.find((d) => d.name === name);
    if (def === undefined) {
      throw new Error(`Message type "${type}" has no field named "${name}" at "${path}".\n Available Fields(except extensions): ${JSON.stringify(fields.map((d) => jsonName(d.name)))}`);
    }
    if (def.oneof !== undefined && value !== null) {
      if (oneofs.has(def.oneof)) throw new Error(`Message type "${type}" should not have multiple "${def.oneof}" oneof fields at "${path}".`);
      oneofs.add(def.oneof);
    }
    if (value === null) {
      delete out[def.name];
      continue;
    }
    const at = `${path}.${name}`;
    if (def.repeated) {
      if (!Array.isArray(value)) throw new Error(`Failed to parse ${name} field: repeated field ${name} must be in [] which is ${JSON.stringify(value)} at ${path}.`);
      const list = value.map((item, i) => {
        if (item === null) throw new Error(`null is not allowed to be used as an element in a repeated field at ${path}.${name}[${i}].`);
        return def.type === "message" ? decodeJsonMessage(def.ref!, item, `${at}[${i}]`, depth + 1) : jsonScalar(type, def, item, `${at}[${i}]`);
      });
      put(out, fields, def, list);
    } else if (def.type === "message") put(out, fields, def, decodeJsonMessage(def.ref!, value, at, depth + 1));
    else put(out, fields, def, jsonScalar(type, def, value, at));
  }
  return out;
}

/** Decodes one JSON document as the message `type` (a full name); throws what is wrong with it. */
export function decodeJson(type: string, text: string): Message {
  let js: unknown;
  try {
    js = JSON.parse(text);
  } catch (e) {
    throw new Error(`Failed to load JSON: ${(e as Error).message}.`);
  }
  return decodeJsonMessage(type, js, type.slice(type.lastIndexOf(".") + 1), 1);
}

// ---- Spans ----------------------------------------------------------------------------------------

const hex = (b: unknown): string => (b instanceof Uint8Array ? Buffer.from(b).toString("hex") : "");
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const list = (v: unknown): Message[] => (Array.isArray(v) ? (v as Message[]) : []);
const dec = (v: unknown): string => (typeof v === "bigint" ? v.toString() : "0");

function set(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const ARMS = fieldsOf(`${C}AnyValue`).map((d) => d.name);

/** The arm of an AnyValue that is set, or null. */
export function anyValueArm(v: Message | undefined): string | null {
  return ARMS.find((a) => v !== undefined && Object.hasOwn(v, a)) ?? null;
}

/** An AnyValue as plain JSON: lists, objects, hex for bytes, numbers for integers, null when unset. */
export function anyValue(v: Message | undefined): unknown {
  const arm = anyValueArm(v);
  if (arm === null) return null;
  const x = v![arm];
  switch (arm) {
    case "array_value":
      return list((x as Message).values).map((e) => anyValue(e));
    case "kvlist_value":
      return attributeMap((x as Message).values);
    case "bytes_value":
      return hex(x);
    case "int_value":
      return Number(x as bigint);
    default:
      return x;
  }
}

function attributeMap(kvs: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list(kvs)) set(out, str(kv.key), anyValue(kv.value as Message | undefined));
  return out;
}

/** Every span of a TracesData or an ExportTraceServiceRequest, in order. */
export function spansOf(m: Message): DecodedSpan[] {
  const out: DecodedSpan[] = [];
  for (const rs of list(m.resource_spans)) {
    const resource = attributeMap((rs.resource as Message | undefined)?.attributes);
    for (const ss of list(rs.scope_spans)) {
      const scope = (ss.scope as Message | undefined) ?? {};
      for (const sp of list(ss.spans)) {
        const status = (sp.status as Message | undefined) ?? {};
        const types: Record<string, string | null> = {};
        for (const kv of list(sp.attributes)) set(types, str(kv.key), anyValueArm(kv.value as Message | undefined));
        out.push({
          resource,
          scope: { name: str(scope.name), version: str(scope.version) },
          traceId: hex(sp.trace_id),
          spanId: hex(sp.span_id),
          parentSpanId: hex(sp.parent_span_id),
          name: str(sp.name),
          kind: num(sp.kind),
          start: dec(sp.start_time_unix_nano),
          end: dec(sp.end_time_unix_nano),
          status: { code: num(status.code), message: str(status.message) },
          attributes: attributeMap(sp.attributes),
          types,
        });
      }
    }
  }
  return out;
}

/** Each line of an OTLP/JSON file, parsed strictly as TracesData: its spans, or why it is not one. */
export function decodeOtlpJson(text: string): Array<{ line: number; spans?: DecodedSpan[]; error?: string }> {
  // Lines as Python's text files split them (\n, \r\n or \r); a last line may lack its newline.
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines.map((l, i) => {
    try {
      return { line: i + 1, spans: spansOf(decodeJson(TRACES_DATA, l)) };
    } catch (e) {
      return { line: i + 1, error: (e as Error).message };
    }
  });
}

/** An OTLP/HTTP trace request body, as its Content-Type says (protobuf, else JSON): its spans. Throws when it is not one. */
export function decodeTraceRequest(body: Uint8Array, contentType: string): DecodedSpan[] {
  const m = contentType.startsWith("application/x-protobuf")
    ? decodeProtobuf(EXPORT_TRACE_REQUEST, body)
    : decodeJson(EXPORT_TRACE_REQUEST, utf8Lenient.decode(body));
  return spansOf(m);
}
const utf8Lenient = new TextDecoder("utf-8");

// ---- Responses (for a collector to answer with) -------------------------------------------------

function varint(n: bigint): number[] {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v !== 0n ? b | 0x80 : b);
  } while (v !== 0n);
  return out;
}

/**
 * An ExportTraceServiceResponse body: empty, or with partial_success (rejected_spans, error_message),
 * as protobuf or as OTLP/JSON (rejectedSpans a string, as int64s are in the JSON mapping).
 */
export function traceResponseBody(protocol: "protobuf" | "json", partial?: { rejectedSpans?: number; errorMessage?: string }): Uint8Array {
  if (protocol === "json") {
    if (partial === undefined) return new TextEncoder().encode("{}");
    const p: Record<string, unknown> = {};
    if (partial.rejectedSpans !== undefined) p.rejectedSpans = String(partial.rejectedSpans);
    if (partial.errorMessage !== undefined) p.errorMessage = partial.errorMessage;
    return new TextEncoder().encode(JSON.stringify({ partialSuccess: p }));
  }
  if (partial === undefined) return new Uint8Array(0);
  const inner: number[] = [];
  if (partial.rejectedSpans !== undefined) inner.push(0x08, ...varint(BigInt(partial.rejectedSpans)));
  if (partial.errorMessage !== undefined) {
    const s = new TextEncoder().encode(partial.errorMessage);
    inner.push(0x12, ...varint(BigInt(s.length)), ...s);
  }
  return new Uint8Array([0x0a, ...varint(BigInt(inner.length)), ...inner]);
}
