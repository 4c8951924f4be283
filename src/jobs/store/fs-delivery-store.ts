/** Webhook deliveries on the file system: one JSON file per delivery, written atomically, all held in memory. One process owns the folder. */
import { join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic-file.ts';
import { loadJsonRecords } from './json-record-folder.ts';
import type { DeliveryOutcome, DeliveryStore, WebhookDelivery } from './types.ts';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** A `DeliveryStore` over `<dir>/<id>.json`; claims live in memory, since no other process shares the folder. */
export class FsDeliveryStore implements DeliveryStore {
  private readonly deliveries = new Map<string, WebhookDelivery>();
  private readonly claims = new Map<string, { worker: string; until: number }>();

  private constructor(private readonly dir: string) {}

  /** Opens (creating if needed) the store in `dir` and loads every delivery; unreadable files are set aside as `.corrupt`. */
  static async open(dir: string, warn: (line: string) => void = () => {}): Promise<FsDeliveryStore> {
    const store = new FsDeliveryStore(dir);
    const isDelivery = (d: unknown): boolean => {
      const v = d as Partial<WebhookDelivery> | null;
      return typeof v?.id === 'string' && typeof v.status === 'string' && typeof v.body === 'string';
    };
    for (const delivery of await loadJsonRecords<WebhookDelivery>(dir, 'webhook delivery', isDelivery, warn)) store.deliveries.set(delivery.id, delivery);
    return store;
  }

  async add(delivery: WebhookDelivery): Promise<boolean> {
    if (!ID_PATTERN.test(delivery.id)) throw new Error(`webhook delivery id "${delivery.id}" is not a safe file name`);
    if (this.deliveries.has(delivery.id)) return false;
    // Taken before the write, so that the same event seen twice at once is stored once.
    this.deliveries.set(delivery.id, { ...delivery });
    try {
      await this.write(delivery);
    } catch (err) {
      this.deliveries.delete(delivery.id);
      throw err;
    }
    return true;
  }

  async take(worker: string, limit: number, leaseMs: number): Promise<WebhookDelivery[]> {
    const now = Date.now();
    const due = [...this.deliveries.values()].filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && Date.parse(d.nextAttemptAt) <= now && !this.claimed(d.id, now));
    due.sort((a, b) => Date.parse(a.nextAttemptAt!) - Date.parse(b.nextAttemptAt!));
    const taken = due.slice(0, Math.max(0, limit));
    for (const d of taken) this.claims.set(d.id, { worker, until: now + leaseMs });
    return taken.map((d) => ({ ...d }));
  }

  async settle(id: string, worker: string, outcome: DeliveryOutcome): Promise<void> {
    const current = this.deliveries.get(id);
    if (!current || this.claims.get(id)?.worker !== worker) return;
    const next: WebhookDelivery = { ...current, ...outcome, deliveredAt: outcome.status === 'delivered' ? new Date().toISOString() : current.deliveredAt };
    await this.write(next);
    this.deliveries.set(id, next);
    this.claims.delete(id);
  }

  async release(worker: string, ids: readonly string[]): Promise<void> {
    for (const id of ids) if (this.claims.get(id)?.worker === worker) this.claims.delete(id);
  }

  async nextDue(): Promise<number | undefined> {
    const now = Date.now();
    let next: number | undefined;
    for (const d of this.deliveries.values()) {
      if (d.status !== 'pending' || d.nextAttemptAt === null) continue;
      const claim = this.claims.get(d.id);
      const at = Math.max(Date.parse(d.nextAttemptAt), claim && claim.until > now ? claim.until : 0);
      if (next === undefined || at < next) next = at;
    }
    return next;
  }

  async listByJob(jobId: string): Promise<WebhookDelivery[]> {
    const mine = [...this.deliveries.values()].filter((d) => d.jobId === jobId);
    mine.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
    return mine.map((d) => ({ ...d }));
  }

  private claimed(id: string, now: number): boolean {
    const claim = this.claims.get(id);
    return claim !== undefined && claim.until > now;
  }

  private write(delivery: WebhookDelivery): Promise<void> {
    return writeFileAtomic(join(this.dir, `${delivery.id}.json`), `${JSON.stringify(delivery, null, 2)}\n`);
  }
}
