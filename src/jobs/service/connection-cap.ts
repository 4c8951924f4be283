/** Caps the sockets one client address holds open, so that one client cannot take every file descriptor of the process. */
import type { Server } from 'node:http';
import ipaddr from 'ipaddr.js';

/** Counts open sockets per address on a server and destroys each new one beyond the cap. */
export class ConnectionCap {
  private readonly open = new Map<string, number>();
  private refusedCount = 0;

  constructor(private readonly max: number) {}

  /** Connections destroyed at once because their address held the cap already. */
  get refused(): number {
    return this.refusedCount;
  }

  /** Watches `server`'s new sockets; a cap of 0 watches nothing. */
  attach(server: Server): void {
    if (this.max <= 0) return;
    server.on('connection', (socket) => {
      const key = addressKey(socket.remoteAddress);
      const count = this.open.get(key) ?? 0;
      if (count >= this.max) {
        this.refusedCount++;
        socket.destroy();
        return;
      }
      this.open.set(key, count + 1);
      socket.once('close', () => {
        const left = (this.open.get(key) ?? 1) - 1;
        if (left > 0) this.open.set(key, left);
        else this.open.delete(key);
      });
    });
  }
}

/** The IPv4 address, or the /64 of an IPv6 one: a single client is routinely given a whole /64 to pick addresses from. */
export function addressKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? '';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
