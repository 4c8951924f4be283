/** The Prometheus text of the service's metrics: jobs per status (queue depth, running), jobs running in this process, run durations per model, uploads and refused connections. */
import type { JobStats } from '../store/types.ts';

/** What one scrape reports. */
export interface MetricsInput {
  stats: JobStats;
  /** Jobs this process runs now. */
  runningHere: number;
  backend: string;
  /** Uploads this process reads now. */
  uploadsInProgress: number;
  /** Connections this process refused because their address held the cap already. */
  connectionsRefused: number;
}

/** Prometheus text exposition format, version 0.0.4. */
export function prometheusText({ stats, runningHere, backend, uploadsInProgress, connectionsRefused }: MetricsInput): string {
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  };
  metric('aso_jobs', 'gauge', 'Jobs in the store, by status (status="queued" is the queue depth).');
  for (const [status, count] of Object.entries(stats.byStatus)) lines.push(`aso_jobs{status="${status}"} ${count}`);
  metric('aso_jobs_queue_depth', 'gauge', 'Jobs waiting for a worker.');
  lines.push(`aso_jobs_queue_depth ${stats.byStatus.queued}`);
  metric('aso_jobs_running', 'gauge', 'Jobs running on any worker.');
  lines.push(`aso_jobs_running ${stats.byStatus.running}`);
  metric('aso_process_jobs_running', 'gauge', 'Jobs running in this process.');
  lines.push(`aso_process_jobs_running{backend="${backend}"} ${runningHere}`);
  metric('aso_process_uploads_in_progress', 'gauge', 'Uploads this process is reading now.');
  lines.push(`aso_process_uploads_in_progress ${uploadsInProgress}`);
  metric('aso_process_connections_refused_total', 'counter', 'Connections closed at once because their client address held the most open connections it may.');
  lines.push(`aso_process_connections_refused_total ${connectionsRefused}`);
  metric('aso_job_duration_seconds', 'histogram', 'Run time of succeeded jobs, from start to finish, by model.');
  for (const d of stats.durations) {
    const model = d.model.replace(/["\\\n]/g, '_');
    for (const b of d.buckets) lines.push(`aso_job_duration_seconds_bucket{model="${model}",le="${b.le}"} ${b.count}`);
    lines.push(`aso_job_duration_seconds_bucket{model="${model}",le="+Inf"} ${d.count}`);
    lines.push(`aso_job_duration_seconds_sum{model="${model}"} ${d.sumSeconds}`);
    lines.push(`aso_job_duration_seconds_count{model="${model}"} ${d.count}`);
  }
  return `${lines.join('\n')}\n`;
}
