/** The Standard Webhooks event of a job's status change: its type, its id (the same on every attempt) and its body. */
import { createHash } from 'node:crypto';
import { toJobDocument } from '../service/job-document.ts';
import type { JobRecord, JobStatus, WebhookDelivery } from '../store/types.ts';

/** The statuses that are pushed, each as `job.<status>`. */
const PUSHED: ReadonlySet<JobStatus> = new Set(['running', 'succeeded', 'failed', 'canceled']);

/**
 * The delivery of `job`'s current status to its webhook, or undefined when it has none or the status is not pushed.
 * The id is derived from the job, the status and the attempt (no `.`, which the signed content uses as separator), so
 * that the same change seen twice is one delivery.
 */
export function webhookDelivery(job: JobRecord, now: Date = new Date()): WebhookDelivery | undefined {
  if (!job.webhook || !PUSHED.has(job.status)) return undefined;
  const type = `job.${job.status}`;
  const body = JSON.stringify({ type, timestamp: job.updatedAt, data: toJobDocument(job, job.webhook.baseUrl) });
  const id = `msg_${createHash('sha256').update(`${job.id}\n${job.status}\n${job.attempts}`).digest('hex').slice(0, 32)}`;
  const stamp = now.toISOString();
  return { id, owner: job.owner, jobId: job.id, type, url: job.webhook.url, body, createdAt: stamp, status: 'pending', attempts: 0, nextAttemptAt: stamp, lastResult: null, deliveredAt: null };
}
