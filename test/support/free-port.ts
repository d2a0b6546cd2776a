import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// A port asked of the OS with listen(0) comes from the ephemeral range, the same range the kernel hands to outgoing
// connections. Between asking and the service's own listen (seconds, when an embedded PostgreSQL starts first), one of
// the suite's many database clients can be given that port as its local end, and the service fails with EADDRINUSE.
// Ports below the ephemeral range are never handed out that way, so they are picked there and checked free. The benches
// pick their embedded PostgreSQL's port here too: a random port in that range failed about one bench start in twelve.
const [ephemeralLow] = ephemeralRange();
const LOW = 10_000;
const HIGH = Math.max(LOW + 1_000, ephemeralLow - 1);
const handedOut = new Set<number>();

/** A TCP port free on every interface right now, below the OS's ephemeral range (so no outgoing connection takes it). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux: the IANA dynamic range is the usual default (macOS, Windows).
  }
  return [49_152, 65_535];
}
