import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../src/jobs/store/types.ts';
import { webhookDelivery } from '../../../src/jobs/webhooks/webhook-event.ts';

const job = (over: Partial<JobRecord> = {}): JobRecord => ({
  id: '5f0c6c0e-1111-4222-8333-444455556666',
  owner: 'key_0123456789abcdef',
  model: 'card',
  modelVersion: '1.0.0',
  status: 'running',
  progress: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  startedAt: '2026-01-01T00:00:01.000Z',
  finishedAt: null,
  attempts: 1,
  input: { kind: 'url', url: 'https://images.test/a.png' },
  idempotency: null,
  asset: null,
  error: null,
  webhook: { url: 'https://hooks.test/aso', baseUrl: 'https://jobs.test' },
  ...over,
});

describe('webhookDelivery', () => {
  it('is the event { type, timestamp, data: the job } of a pushed status, due now, with an id free of dots', () => {
    const now = new Date('2026-01-01T00:00:02.000Z');
    const delivery = webhookDelivery(job(), now)!;
    expect(delivery).toMatchObject({ owner: 'key_0123456789abcdef', type: 'job.running', url: 'https://hooks.test/aso', status: 'pending', attempts: 0, nextAttemptAt: now.toISOString(), lastResult: null });
    expect(delivery.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(JSON.parse(delivery.body)).toEqual({
      type: 'job.running',
      timestamp: '2026-01-01T00:00:01.000Z',
      data: expect.objectContaining({ id: job().id, object: 'job', status: 'running', progress: 1, download_url: null }),
    });
    const done = webhookDelivery(job({ status: 'succeeded', progress: 100, asset: { format: 'glb', mediaType: 'model/gltf-binary', byteLength: 10, sha256: 'a'.repeat(64) } }))!;
    expect(JSON.parse(done.body).data.download_url).toBe(`https://jobs.test/v1/jobs/${job().id}/asset`);
  });

  it('has the same id for the same change seen twice, another for another status or attempt', () => {
    const id = webhookDelivery(job())!.id;
    expect(webhookDelivery(job({ progress: 50, updatedAt: '2026-01-01T00:00:09.000Z' }))!.id).toBe(id);
    expect(webhookDelivery(job({ attempts: 2 }))!.id).not.toBe(id);
    expect(new Set(['running', 'succeeded', 'failed', 'canceled'].map((status) => webhookDelivery(job({ status: status as JobRecord['status'] }))!.id)).size).toBe(4);
  });

  it('is nothing for a queued job, or a job without a webhook', () => {
    expect(webhookDelivery(job({ status: 'queued' }))).toBeUndefined();
    expect(webhookDelivery(job({ webhook: null }))).toBeUndefined();
    expect(webhookDelivery(job({ webhook: undefined }))).toBeUndefined();
  });
});
