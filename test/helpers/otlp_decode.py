#!/usr/bin/env python3
"""OTLP decoding with the official protobuf definitions (the opentelemetry-proto package).

  otlp_decode.py check                 exit 0 when the definitions can be imported
  otlp_decode.py file PATH             each line of PATH is OTLP/JSON TracesData: parse it strictly
                                       into the official message and print its spans as JSON, a line each
  otlp_decode.py serve [CODES]         an OTLP/HTTP endpoint on 127.0.0.1 (port 0): prints
                                       {"port": N}, then for each POST a JSON line with what it
                                       decoded; CODES (e.g. 503,200) are the answers given in turn
                                       (200 once they run out; a 4xx/5xx answer has a small body)

OTLP/JSON writes trace and span ids as hex, where protobuf's canonical JSON mapping wants base64:
the ids are converted before parsing (as OTLP receivers do); anything else that is not a field of
the official messages makes the parse fail.
"""
import base64
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


def load():
    from google.protobuf import json_format
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
    from opentelemetry.proto.trace.v1 import trace_pb2

    return json_format, trace_service_pb2, trace_pb2


def hex_ids_to_base64(doc):
    for rs in doc.get("resourceSpans", []):
        for ss in rs.get("scopeSpans", []):
            for sp in ss.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
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
    if mode == "serve":
        codes = [int(c) for c in sys.argv[2].split(",")] if len(sys.argv) > 2 and sys.argv[2] else []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        body += self.rfile.read(size)
                        self.rfile.readline()
                else:
                    body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.headers.get("Content-Encoding") == "gzip":
                    import gzip

                    body = gzip.decompress(body)
                ctype = self.headers.get("Content-Type", "")
                code = codes.pop(0) if codes else 200
                record = {"path": self.path, "contentType": ctype, "answer": code, "headers": {k.lower(): v for k, v in self.headers.items()}}
                try:
                    req = trace_service_pb2.ExportTraceServiceRequest()
                    if ctype.startswith("application/x-protobuf"):
                        req.ParseFromString(body)
                    else:
                        json_format.Parse(json.dumps(hex_ids_to_base64(json.loads(body))), req, ignore_unknown_fields=False)
                    record["spans"] = summary(req)
                except Exception as e:  # noqa: BLE001
                    record["error"] = str(e)
                print(json.dumps(record), flush=True)
                if code == 200:
                    out = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
                    self.send_response(200)
                    self.send_header("Content-Type", ctype or "application/x-protobuf")
                    if not ctype.startswith("application/x-protobuf"):
                        out = b"{}"
                else:
                    out = b"collector says no"
                    self.send_response(code)
                    self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        server = HTTPServer(("127.0.0.1", 0), Handler)
        print(json.dumps({"port": server.server_address[1]}), flush=True)
        server.serve_forever()
    print(__doc__, file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
