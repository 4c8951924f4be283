/** Postgres LISTEN/NOTIFY on one dedicated connection: wakes idle workers when a job is queued, tells every process of a cancellation and of a job's progress. */
import pg from 'pg';

/** The channels this service uses (`changed` is sent by a trigger on every change of a job's status or progress). */
export const CHANNELS = { queued: 'aso_jobs_queued', canceled: 'aso_jobs_canceled', changed: 'aso_jobs_changed' } as const;

type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

/** Listens on the service's channels, reconnecting after a lost connection. */
export class PgNotifier {
  private client: pg.Client | undefined;
  private readonly listeners = new Map<Channel, Set<(payload: string) => void>>();
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  private constructor(
    private readonly url: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Connects and listens. */
  static async open(url: string, log: (line: string) => void = () => {}): Promise<PgNotifier> {
    const notifier = new PgNotifier(url, log);
    await notifier.connect();
    return notifier;
  }

  /** Calls `listener` with the payload of every notification on `channel`. */
  on(channel: Channel, listener: (payload: string) => void): void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }

  private reconnectLater(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.connect().catch((err: Error) => {
        this.log(`postgres notifications: ${err.message}; trying again`);
        this.reconnectLater();
      });
    }, 1000);
    this.retry.unref();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'aso-jobs-listen' });
    client.on('notification', (n) => {
      for (const listener of this.listeners.get(n.channel as Channel) ?? []) listener(n.payload ?? '');
    });
    const lost = (err?: Error): void => {
      if (this.closed || this.client !== client) return;
      this.client = undefined;
      this.log(`postgres notifications interrupted${err ? ` (${err.message})` : ''}; reconnecting`);
      this.reconnectLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    for (const channel of Object.values(CHANNELS)) await client.query(`LISTEN ${channel}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
  }
}
