// Decodes an MCAP file's /tf messages as Foxglove, Lichtblick and Rerun do (FoxgloveFrameTransformsTest.official*):
// the protobuf types built with protobufjs from the channel's own schema (a FileDescriptorSet), looked up by the
// schema's name; prints one JSON line: the encodings, the schema name and every message decoded.
const { McapStreamReader } = require("@mcap/core");
const protobuf = require("protobufjs");
const descriptor = require("protobufjs/ext/descriptor");
const s = new McapStreamReader({ validateCrcs: true });
s.append(new Uint8Array(require("fs").readFileSync(process.argv[2])));
const schemas = new Map(), channels = new Map(), messages = [];
let type = null, info = null;
for (let r; (r = s.nextRecord()); ) {
  if (r.type === "Schema") schemas.set(r.id, r);
  else if (r.type === "Channel") channels.set(r.id, r);
  else if (r.type === "Message" && channels.get(r.channelId).topic === "/tf") {
    const c = channels.get(r.channelId);
    if (type === null) {
      const schema = schemas.get(c.schemaId);
      type = protobuf.Root.fromDescriptor(descriptor.FileDescriptorSet.decode(schema.data)).lookupType(schema.name);
      info = { schemaName: schema.name, schemaEncoding: schema.encoding, messageEncoding: c.messageEncoding };
    }
    messages.push(type.toObject(type.decode(r.data), { longs: Number, defaults: true }));
  }
}
console.log(JSON.stringify({ ...info, messages }));
