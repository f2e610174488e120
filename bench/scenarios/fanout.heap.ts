/**
 * The built server's own heap, read from outside through the Node inspector: the server runs with
 * NODE_OPTIONS=--inspect=127.0.0.1:0 and prints "Debugger listening on ws://…" on stderr (npm,
 * which starts it, prints one too: the server's is the process running scripts/burrow.mjs). The
 * bench forces a full GC there (HeapProfiler.collectGarbage) and reads process.memoryUsage(), or
 * writes a heap snapshot (HeapProfiler.takeHeapSnapshot) for a look at what is retained, or a
 * CPU profile of a phase (Profiler.start/stop) for a look at where its time goes.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import WebSocket from 'ws';

/** The environment that opens the inspector of the server (and of npm) on a free loopback port. */
export const INSPECTOR_ENV = { NODE_OPTIONS: '--inspect=127.0.0.1:0' };

type Session = { send: (method: string, params?: Record<string, unknown>) => Promise<any>; ws: WebSocket; chunks: ((chunk: string) => void) | null };

async function connect(url: string): Promise<Session> {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 0 });
  await once(ws, 'open');
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  const session: Session = {
    ws,
    chunks: null,
    send(method, params = {}) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      });
    },
  };
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.method === 'HeapProfiler.addHeapSnapshotChunk') session.chunks?.(message.params.chunk);
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(`inspector: ${JSON.stringify(message.error)}`));
    else waiting.resolve(message.result);
  });
  return session;
}

/** The inspector of the process among `stderr`'s "Debugger listening" URLs that runs scripts/burrow.mjs. */
export async function serverInspector(stderr: string) {
  const urls = [...stderr.matchAll(/Debugger listening on (ws:\/\/\S+)/g)].map((m) => m[1]);
  for (const url of urls) {
    const session = await connect(url);
    const evaluate = async (expression: string) => {
      const { result, exceptionDetails } = await session.send('Runtime.evaluate', { expression, returnByValue: true });
      if (exceptionDetails) throw new Error(`inspector: ${expression}: ${JSON.stringify(exceptionDetails)}`);
      return result.value;
    };
    if (!String(await evaluate('process.argv.join(" ")')).includes('burrow.mjs')) {
      session.ws.close();
      continue;
    }
    return {
      /** Two full collections, then the server's heapUsed and rss in bytes. */
      async memory(): Promise<{ heapUsed: number; rss: number }> {
        await session.send('HeapProfiler.collectGarbage');
        await new Promise((resolve) => setTimeout(resolve, 100));
        await session.send('HeapProfiler.collectGarbage');
        return JSON.parse(await evaluate('JSON.stringify(process.memoryUsage())'));
      },
      /** A heap snapshot of the server written to `path` (open it in Chrome DevTools' Memory tab). */
      async snapshot(path: string) {
        const out = createWriteStream(path);
        session.chunks = (chunk) => out.write(chunk);
        await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
        session.chunks = null;
        await new Promise((resolve) => out.end(resolve));
      },
      /** Starts V8's CPU profiler in the server (for BENCH_FANOUT_CPUPROFILE). */
      async startProfile() {
        await session.send('Profiler.enable');
        await session.send('Profiler.setSamplingInterval', { interval: 500 });
        await session.send('Profiler.start');
      },
      /** Stops it and writes the profile to `path` (open it in Chrome DevTools' Performance tab). */
      async stopProfile(path: string) {
        const { profile } = await session.send('Profiler.stop');
        await writeFile(path, JSON.stringify(profile));
      },
      close() {
        session.ws.close();
      },
    };
  }
  throw new Error(`fanout: no inspector of the server in its stderr (${urls.length} found)`);
}
