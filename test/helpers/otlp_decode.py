#!/usr/bin/env python3
"""OTLP decoding with the official protobuf definitions (the opentelemetry-proto package).

  otlp_decode.py check                 exit 0 when the definitions can be imported
  otlp_decode.py file PATH             each line of PATH is OTLP/JSON TracesData: parse it strictly
                                       into the official message and print its spans as JSON, a line each
  otlp_decode.py body CTYPE PATH...    each PATH holds an OTLP/HTTP ExportTraceServiceRequest body
                                       of Content-Type CTYPE (application/x-protobuf, else JSON):
                                       a JSON line each, {"path", "spans"} or {"path", "error"}
  otlp_decode.py schema                the official messages the above use, as JSON:
                                       {full name: {"fields": [...]} or {"enum": {name: number}}}

test/stress/otlp-python.test.ts (make stress) runs it: the default suite decodes in Node
(test/helpers/otlp-proto.ts), and this checks that decoding against the official definitions.

OTLP/JSON writes trace and span ids as hex, where protobuf's canonical JSON mapping wants base64:
the ids are converted before parsing (as OTLP receivers do); anything else that is not a field of
the official messages makes the parse fail.
"""
import base64
import json
import sys


def load():
    from google.protobuf import json_format
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
    from opentelemetry.proto.trace.v1 import trace_pb2

    return json_format, trace_service_pb2, trace_pb2


def hex_ids_to_base64(doc):
    """A span's hex ids as base64, under the JSON or the proto field names (json_format takes both)."""

    def each(obj, key):
        if not isinstance(obj, dict):
            return []
        out = []
        camel = "".join(w if i == 0 else w.capitalize() for i, w in enumerate(key.split("_")))
        for name in dict.fromkeys((key, camel)):
            v = obj.get(name)
            out += v if isinstance(v, list) else []
        return out

    for rs in each(doc, "resource_spans"):
        for ss in each(rs, "scope_spans"):
            for sp in each(ss, "spans"):
                if not isinstance(sp, dict):
                    continue
                for key in ("trace_id", "traceId", "span_id", "spanId", "parent_span_id", "parentSpanId"):
                    v = sp.get(key)
                    if isinstance(v, str) and v != "":
                        sp[key] = base64.b64encode(bytes.fromhex(v)).decode()
    return doc


def any_value(v):
    kind = v.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [any_value(x) for x in v.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: any_value(kv.value) for kv in v.kvlist_value.values}
    if kind == "bytes_value":
        return v.bytes_value.hex()
    return getattr(v, kind)


def kind_of(v):
    return v.WhichOneof("value")


def summary(msg):
    """Every span of a TracesData / ExportTraceServiceRequest, as plain JSON."""
    out = []
    for rs in msg.resource_spans:
        resource = {a.key: any_value(a.value) for a in rs.resource.attributes}
        for ss in rs.scope_spans:
            for sp in ss.spans:
                out.append(
                    {
                        "resource": resource,
                        "scope": {"name": ss.scope.name, "version": ss.scope.version},
                        "traceId": sp.trace_id.hex(),
                        "spanId": sp.span_id.hex(),
                        "parentSpanId": sp.parent_span_id.hex(),
                        "name": sp.name,
                        "kind": sp.kind,
                        "start": str(sp.start_time_unix_nano),
                        "end": str(sp.end_time_unix_nano),
                        "status": {"code": sp.status.code, "message": sp.status.message},
                        "attributes": {a.key: any_value(a.value) for a in sp.attributes},
                        "types": {a.key: kind_of(a.value) for a in sp.attributes},
                    }
                )
    return out


def schema(roots):
    """Each message reachable from roots, and each enum: fields by number, name, type, label, oneof."""
    from google.protobuf.descriptor import FieldDescriptor

    names = {v: k[len("TYPE_"):].lower() for k, v in vars(FieldDescriptor).items() if k.startswith("TYPE_")}
    out = {}
    todo = [r.DESCRIPTOR for r in roots]
    while todo:
        d = todo.pop()
        if d.full_name in out:
            continue
        fields = []
        for fd in d.fields:
            ref = fd.message_type or fd.enum_type
            fields.append(
                {
                    "no": fd.number,
                    "name": fd.name,
                    "jsonName": fd.json_name,
                    "type": names[fd.type],
                    "ref": ref.full_name if ref is not None else None,
                    "repeated": fd.label == FieldDescriptor.LABEL_REPEATED if hasattr(fd, "label") else fd.is_repeated,
                    "oneof": fd.containing_oneof.name if fd.containing_oneof is not None else None,
                }
            )
            if fd.message_type is not None:
                todo.append(fd.message_type)
            if fd.enum_type is not None:
                out[fd.enum_type.full_name] = {"enum": {v.name: v.number for v in fd.enum_type.values}}
        out[d.full_name] = {"fields": fields}
    return out


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        json_format, trace_service_pb2, trace_pb2 = load()
    except ImportError as e:
        print(f"opentelemetry-proto / protobuf not importable: {e}", file=sys.stderr)
        sys.exit(3)
    if mode == "check":
        return
    if mode == "file":
        with open(sys.argv[2], encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                msg = trace_pb2.TracesData()
                try:
                    json_format.Parse(json.dumps(hex_ids_to_base64(json.loads(line))), msg, ignore_unknown_fields=False)
                except Exception as e:  # noqa: BLE001 - the message is the test's output
                    print(json.dumps({"line": n, "error": str(e)}))
                    continue
                print(json.dumps({"line": n, "spans": summary(msg)}))
        return
    if mode == "body":
        ctype = sys.argv[2]
        for path in sys.argv[3:]:
            with open(path, "rb") as f:
                body = f.read()
            req = trace_service_pb2.ExportTraceServiceRequest()
            try:
                if ctype.startswith("application/x-protobuf"):
                    req.ParseFromString(body)
                else:
                    json_format.Parse(json.dumps(hex_ids_to_base64(json.loads(body))), req, ignore_unknown_fields=False)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"path": path, "error": str(e)}))
                continue
            print(json.dumps({"path": path, "spans": summary(req)}))
        return
    if mode == "schema":
        print(json.dumps(schema([trace_service_pb2.ExportTraceServiceRequest, trace_service_pb2.ExportTraceServiceResponse, trace_pb2.TracesData])))
        return
    print(__doc__, file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
