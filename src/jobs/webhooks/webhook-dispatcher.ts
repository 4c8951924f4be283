/**
 * Sends webhook deliveries from the durable store: a new one at once, a failed one again on the retry schedule, with
 * the same id, from whichever process of the service finds it due first (after a restart too).
 */
import type { AddressPolicy } from '../service/address-policy.ts';
import type { LogFn } from '../service/log.ts';
import type { DeliveryOutcome, DeliveryStore, JobRecord, KeyStore, WebhookDelivery } from '../store/types.ts';
import { DEFAULT_RETRY_DELAYS_MS, retryDelay } from './retry-schedule.ts';
import { sendWebhook, type AttemptResult } from './send-webhook.ts';
import { webhookDelivery } from './webhook-event.ts';

/** How deliveries are sent. */
export interface WebhookOptions {
  /** The delay before each retry after a failed attempt; as many retries as delays. */
  retryDelaysMs: readonly number[];
  /** The time limit of one attempt. */
  timeoutMs: number;
  /** The longest wait between two looks at the store, for retries other processes scheduled. */
  pollMs: number;
  /** Attempts under way at once in this process. */
  concurrency: number;
}

/** The defaults: the specification's schedule, its recommended time limit (15 to 30 s). */
export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = { retryDelaysMs: DEFAULT_RETRY_DELAYS_MS, timeoutMs: 15_000, pollMs: 5_000, concurrency: 8 };

/** The longest delay a Node timer keeps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The options with their defaults; throws naming the field that is wrong. */
export function webhookOptions(given: Partial<WebhookOptions> = {}): WebhookOptions {
  const options: WebhookOptions = { ...DEFAULT_WEBHOOK_OPTIONS, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  const delays = options.retryDelaysMs as readonly unknown[];
  if (!Array.isArray(delays) || delays.some((d) => typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0 || d > MAX_TIMER_MS)) {
    throw new Error(`webhooks.retryDelaysMs must be a list of whole numbers of milliseconds from 0 to ${MAX_TIMER_MS}, got ${JSON.stringify(delays)}`);
  }
  for (const name of ['timeoutMs', 'pollMs', 'concurrency'] as const) {
    const value: unknown = options[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_TIMER_MS) throw new Error(`webhooks.${name} must be a whole number from 1 to ${MAX_TIMER_MS}, got ${String(value)}`);
  }
  return options;
}

/** What the dispatcher works with. */
export interface DispatcherDeps {
  deliveries: DeliveryStore;
  keys: KeyStore;
  policy: AddressPolicy;
  log: LogFn;
  /** This process's name on the claims it takes. */
  worker: string;
  options: WebhookOptions;
}

/** A claim outlives its attempt's time limit by this much, so that no other process takes a delivery still being sent. */
const CLAIM_MARGIN_MS = 5_000;

/** The shortest wait before the next look, so that a store that keeps saying "due now" cannot spin the loop. */
const MIN_WAIT_MS = 5;

/** Sends the deliveries of the store, a bounded number at a time. */
export class WebhookDispatcher {
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly secrets = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private passing: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly deps: DispatcherDeps) {}

  /** Starts sending what is due, then whatever becomes due. */
  start(): void {
    this.kick();
  }

  /** Stores the delivery of `job`'s status change, if it has one, and sends it at once; a failure is logged, never thrown. */
  async push(job: JobRecord): Promise<void> {
    const delivery = webhookDelivery(job);
    if (!delivery) return;
    try {
      if (await this.deps.deliveries.add(delivery)) this.kick();
    } catch (err) {
      this.deps.log({ level: 'error', msg: 'webhook delivery not stored', job: job.id, type: delivery.type, err: (err as Error).message });
    }
  }

  /** Stops taking deliveries and waits for the attempts under way, each bounded by its time limit, so that their outcome is recorded. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.passing;
    await Promise.allSettled(this.inflight.values());
  }

  /** Looks at the store now (or once the look under way ends). */
  private kick(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    if (this.passing) {
      this.again = true;
      return;
    }
    this.passing = this.pass().finally(() => {
      this.passing = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async pass(): Promise<void> {
    const { deliveries, worker, options, log } = this.deps;
    let wait = options.pollMs;
    try {
      const free = options.concurrency - this.inflight.size;
      if (free <= 0) return; // the attempt that ends next looks again
      const taken = await deliveries.take(worker, free, options.timeoutMs + CLAIM_MARGIN_MS);
      if (this.closed) {
        await deliveries.release(worker, taken.map((d) => d.id));
        return;
      }
      for (const delivery of taken) this.attempt(delivery);
      if (taken.length === free) return;
      const next = await deliveries.nextDue();
      if (next !== undefined) wait = Math.min(options.pollMs, Math.max(MIN_WAIT_MS, next - Date.now()));
    } catch (err) {
      log({ level: 'warn', msg: 'webhook deliveries could not be read', worker, err: (err as Error).message });
    }
    if (this.closed || this.again) return;
    this.timer = setTimeout(() => this.kick(), wait);
    this.timer.unref();
  }

  private attempt(delivery: WebhookDelivery): void {
    const done = this.send(delivery)
      .catch((err: Error) => this.deps.log({ level: 'error', msg: 'webhook delivery failed to record', job: delivery.jobId, webhook: delivery.id, err: err.message }))
      .finally(() => {
        this.inflight.delete(delivery.id);
        this.kick();
      });
    this.inflight.set(delivery.id, done);
  }

  private async send(delivery: WebhookDelivery): Promise<void> {
    const { deliveries, worker, options, policy, log } = this.deps;
    let result: AttemptResult;
    try {
      result = await sendWebhook(delivery, await this.secret(delivery.owner), { policy, timeoutMs: options.timeoutMs });
    } catch (err) {
      result = { delivered: false, gone: false, result: `not signed: ${(err as Error).message}` };
    }
    const attempts = delivery.attempts + 1;
    const delay = result.delivered || result.gone ? undefined : retryDelay(attempts, options.retryDelaysMs, result.retryAfterMs);
    const outcome: DeliveryOutcome = result.delivered
      ? { status: 'delivered', attempts, nextAttemptAt: null, lastResult: result.result }
      : delay === undefined
        ? { status: 'failed', attempts, nextAttemptAt: null, lastResult: result.result }
        : { status: 'pending', attempts, nextAttemptAt: new Date(Date.now() + delay).toISOString(), lastResult: result.result };
    await deliveries.settle(delivery.id, worker, outcome);
    log({
      level: result.delivered ? 'info' : 'warn',
      msg: result.delivered ? 'webhook delivered' : outcome.status === 'failed' ? 'webhook delivery given up' : 'webhook delivery failed; retrying',
      job: delivery.jobId,
      webhook: delivery.id,
      type: delivery.type,
      attempt: attempts,
      result: result.result,
      ...(outcome.nextAttemptAt ? { retryAt: outcome.nextAttemptAt } : {}),
    });
  }

  /** The signing secret of an API key, asked for once per process (a key's secret never changes). */
  private async secret(owner: string): Promise<string> {
    let secret = this.secrets.get(owner);
    if (!secret) {
      secret = await this.deps.keys.webhookSecret(owner);
      this.secrets.set(owner, secret);
    }
    return secret;
  }
}
