// Reads an MCAP file with the official @mcap/core reader (McapTest.officialReader_*): sequentially with CRC checks,
// then indexed (chunk indexes, statistics, channels) with a time-range query; prints one JSON line.
const { McapIndexedReader, McapStreamReader } = require("@mcap/core");
const buf = require("fs").readFileSync(process.argv[2]);
const s = new McapStreamReader({ validateCrcs: true });
s.append(new Uint8Array(buf));
let n = 0;
for (let r; (r = s.nextRecord()); ) { if (r.type === "Message") n++; }
const readable = { size: async () => BigInt(buf.length), read: async (o, l) => new Uint8Array(buf.subarray(Number(o), Number(o + l))) };
(async () => {
  const r = await McapIndexedReader.Initialize({ readable });
  let q = 0;
  for await (const m of r.readMessages({ startTime: BigInt(process.argv[3]), endTime: BigInt(process.argv[4]) })) q++;
  console.log(JSON.stringify({ done: s.done(), streamMessages: n, chunks: r.chunkIndexes.length,
    statistics: Number(r.statistics.messageCount), topics: [...r.channelsById.values()].map(c => c.topic), queried: q }));
})().catch(e => { console.error(String(e)); process.exit(1); });
