/** Reads a job's Server-Sent Events (`GET /v1/jobs/{id}/events`) with eventsource-parser: each `job` event is the job as it then is. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { JobApiError } from './job-api-error.ts';
import { parseJob, type ApiJob } from './parse-job.ts';

/** One state of the job, and the event id that resumes after it. */
export interface JobEvent {
  id: string | undefined;
  job: ApiJob;
}

/** The states of job `id` in the stream `body`, checked like any answer of the API, until the stream ends. */
export async function* readJobEvents(body: ReadableStream<Uint8Array>, id: string): AsyncGenerator<JobEvent> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      for (const event of pending.splice(0)) {
        // Other event types may come later; this client reads the job's own.
        if (event.event !== undefined && event.event !== 'job') continue;
        let value: unknown;
        try {
          value = JSON.parse(event.data);
        } catch {
          throw new JobApiError('garbage', `the event stream of job ${id} sent data that is not JSON: ${event.data.slice(0, 80)}`);
        }
        const job = parseJob(value);
        if (typeof job === 'string') throw new JobApiError('garbage', `the event stream of job ${id} sent a job that is not as documented: ${job}`);
        if (job.id !== id) throw new JobApiError('garbage', `the event stream of job ${id} sent job ${job.id}`);
        yield { id: event.id, job };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
