// Peer benchmark: loads a Chrome trace with the Chrome DevTools trace engine
// (@paulirish/trace_engine, the Performance panel's model) the way its own analyze-trace.mjs does:
// read the file, JSON.parse it, then TraceModel.Model.createWithAllHandlers() and await parse(events).
// Prints one line of timings; run_benchmarks.sh wraps it in /usr/bin/time -v for the peak RSS.
//
// usage: node devtools_trace_engine.mjs TRACE.json ENGINE_DIR
//   ENGINE_DIR: a directory holding node_modules/@paulirish/trace_engine (installed by run_benchmarks.sh).
//
// V8 cannot hold a string above 2^29 - 24 characters (about 512 MB), so a larger file cannot be
// JSON.parse'd whole; it is not run then (exit code 3), which is also where DevTools itself gives up.
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const [file, engineDir] = process.argv.slice(2);
if (!file || !engineDir) {
  console.error('usage: node devtools_trace_engine.mjs TRACE.json ENGINE_DIR');
  process.exit(2);
}
const pkg = path.join(engineDir, 'node_modules', '@paulirish', 'trace_engine');
const {polyfillDOMRect} = await import(pathToFileURL(path.join(pkg, 'analyze-trace.mjs')).href);
const Trace = await import(pathToFileURL(path.join(pkg, 'models', 'trace', 'trace.js')).href);
polyfillDOMRect();

const size = fs.statSync(file).size;
const maxString = (1 << 29) - 24;
if (size > maxString) {
  console.log(`devtools trace engine: not run, ${(size / 1e6).toFixed(0)} MB is above V8's ` +
              `${(maxString / 1e6).toFixed(0)} MB string limit (JSON.parse of the whole file is impossible)`);
  process.exit(3);
}

const t0 = process.hrtime.bigint();
const text = fs.readFileSync(file, 'utf8');
const json = JSON.parse(text);
const events = json.traceEvents ?? json;
const t1 = process.hrtime.bigint();
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const parsed = model.parsedTrace();
if (!parsed)
  throw new Error('the trace engine produced no data');
const t2 = process.hrtime.bigint();
const s = (a, b) => Number(b - a) / 1e9;
console.log(`devtools trace engine: read+JSON.parse ${s(t0, t1).toFixed(3)} s, model.parse ` +
            `${s(t1, t2).toFixed(3)} s, total ${s(t0, t2).toFixed(3)} s, ${events.length} events, ` +
            `${(size / 1e6 / s(t0, t2)).toFixed(1)} MB/s`);
