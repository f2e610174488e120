/**
 * The fan-out bench's subscribing clients: raw graphql-ws sockets on a worker thread of their own
 * (own event loop and V8 heap), so the server's figures are not the clients' work.
 */
import { Worker } from 'node:worker_threads';

const SUBSCRIPTION = 'subscription Fanout($agentId: String!, $after: Int) { agentEvents(agentId: $agentId, after: $after) { sequence type occurredAt payload } }';

/** The clients: raw graphql-ws (graphql-transport-ws) sockets, arrivals timed on receipt. */
const CLIENT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require('node:module').createRequire(workerData.base)('ws');
const { performance } = require('node:perf_hooks');
let sockets = [];
let subs = [];
let mark = performance.eventLoopUtilization();
parentPort.on('message', async (msg) => {
  if (msg.cmd === 'open') {
    // Ten sockets at a time: a burst of a hundred handshakes on a busy machine can outlast
    // graphql-ws's 3 s wait for connection_init, and the server closes those sockets (4408).
    const openOne = (spec) => new Promise((resolve, reject) => {
      const ws = new WebSocket(msg.url, 'graphql-transport-ws');
      sockets.push(ws);
      let acked = false;
      ws.on('close', (code, reason) => { if (!acked) reject(new Error('fanout client: socket closed before connection_ack: ' + code + ' ' + reason)); });
      const local = spec.subscriptions.map((variables) => { const rec = { agentId: variables.agentId, seqs: [], lat: [], errors: 0, ended: false }; subs.push(rec); return rec; });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer ' + spec.token } })));
      ws.on('error', reject);
      ws.on('message', (data) => {
        const now = Date.now();
        const m = JSON.parse(String(data));
        if (m.type === 'connection_ack') {
          acked = true;
          spec.subscriptions.forEach((variables, i) => ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: msg.query, variables } })));
          resolve();
        } else if (m.type === 'next') {
          const rec = local[Number(m.id)];
          const event = m.payload && m.payload.data && m.payload.data.agentEvents;
          if (!event) { rec.errors++; return; }
          rec.seqs.push(event.sequence);
          rec.lat.push(now - Date.parse(event.occurredAt));
        } else if (m.type === 'error' || m.type === 'complete') {
          local[Number(m.id)].errors++;
          local[Number(m.id)].ended = true;
        }
      });
      ws.on('close', () => local.forEach((rec) => (rec.ended = true)));
    });
    try {
      for (let i = 0; i < msg.sockets.length; i += 10) await Promise.all(msg.sockets.slice(i, i + 10).map(openOne));
      parentPort.postMessage({ ok: true });
    } catch (error) {
      parentPort.postMessage({ error: String(error && error.message || error) });
    }
  } else if (msg.cmd === 'least') {
    // The fewest events any subscriber has at or after msg.from.
    let least = Infinity;
    for (const rec of subs) least = Math.min(least, rec.seqs.filter((s) => s >= msg.from).length);
    parentPort.postMessage({ least: subs.length ? least : 0 });
  } else if (msg.cmd === 'mark') {
    mark = performance.eventLoopUtilization();
    parentPort.postMessage({ ok: true });
  } else if (msg.cmd === 'behind') {
    // Deliveries still missing over every subscriber, each against its agent's range (msg.ranges).
    let behind = 0;
    for (const rec of subs) {
      const [from, to] = msg.ranges[rec.agentId];
      behind += Math.max(0, to - from + 1 - new Set(rec.seqs.filter((s) => s >= from && s <= to)).size);
    }
    parentPort.postMessage({ behind, open: subs.filter((rec) => !rec.ended).length });
  } else if (msg.cmd === 'report') {
    let missed = 0, duplicated = 0, outOfOrder = 0, errors = 0;
    const lat = [];
    for (const rec of subs) {
      errors += rec.errors;
      // One range for all (one agent), or each subscriber's agent's own (msg.ranges).
      const [from, to] = msg.ranges ? msg.ranges[rec.agentId] : [msg.from, msg.to];
      const inRange = [];
      rec.seqs.forEach((s, i) => { if (s >= from && s <= to) { inRange.push(s); lat.push(rec.lat[i]); } });
      const unique = new Set(inRange);
      missed += (to - from + 1) - unique.size;
      duplicated += inRange.length - unique.size;
      for (let i = 1; i < inRange.length; i++) if (inRange[i] < inRange[i - 1]) outOfOrder++;
    }
    lat.sort((a, b) => a - b);
    const at = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
    // This thread's busy share since 'mark': near 1, arrivals would be timed late by the clients themselves.
    const busy = performance.eventLoopUtilization(mark).utilization;
    parentPort.postMessage({ missed, duplicated, outOfOrder, errors, deliveries: lat.length, p50: at(50), p99: at(99), max: lat[lat.length - 1], busy });
  } else if (msg.cmd === 'close') {
    await Promise.all(sockets.map((ws) => new Promise((resolve) => { if (ws.readyState === WebSocket.CLOSED) return resolve(); ws.once('close', resolve); ws.close(); })));
    sockets = [];
    subs = [];
    parentPort.postMessage({ ok: true });
  }
});
`;

/** The subscribing clients on their own worker thread (also driven by bench/cpu-profile.ts's fanout mode). */
export class Clients {
  private readonly worker = new Worker(CLIENT_WORKER, { eval: true, workerData: { base: import.meta.url } });
  private ask<T>(message: Record<string, unknown>): Promise<T> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      this.worker.once('error', fail);
      this.worker.once('message', (answer: T & { error?: string }) => {
        this.worker.off('error', fail);
        if (answer.error) reject(new Error(answer.error));
        else resolve(answer);
      });
      this.worker.postMessage(message);
    });
  }
  open(url: string, sockets: { token: string; subscriptions: { agentId: string; after?: number | null }[] }[]) {
    return this.ask({ cmd: 'open', url, query: SUBSCRIPTION, sockets });
  }
  async least(from: number) {
    return (await this.ask<{ least: number }>({ cmd: 'least', from })).least;
  }
  /** Starts the clients' event-loop utilization window that report() closes. */
  mark() {
    return this.ask({ cmd: 'mark' });
  }
  /** Deliveries still missing against each agent's [from, to] of events, and the subscriptions still open. */
  behind(ranges: Record<string, [number, number]>) {
    return this.ask<{ behind: number; open: number }>({ cmd: 'behind', ranges });
  }
  /** Over [from, to] of the one agent subscribed, or each subscriber's agent's range in `ranges`. */
  report(from: number, to: number, ranges?: Record<string, [number, number]>) {
    return this.ask<{ missed: number; duplicated: number; outOfOrder: number; errors: number; deliveries: number; p50: number; p99: number; max: number; busy: number }>({
      cmd: 'report',
      from,
      to,
      ranges,
    });
  }
  close() {
    return this.ask({ cmd: 'close' });
  }
  terminate() {
    return this.worker.terminate();
  }
}
