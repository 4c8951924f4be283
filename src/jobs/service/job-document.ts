/** The job as the API shows it (DESIGN section 7): snake_case fields, `download_url` once succeeded, `error` once failed. */
import type { JobRecord, JobStatus } from '../store/types.ts';

/** The JSON of a job. */
export interface JobDocument {
  id: string;
  object: 'job';
  status: JobStatus;
  model: string;
  model_version: string;
  progress: number;
  created_at: string;
  updated_at: string;
  download_url: string | null;
  asset: { format: string; media_type: string; byte_length: number; sha256: string } | null;
  error: { code: string; message: string } | null;
}

/** The path of a job's asset under the API. */
export function assetPath(id: string): string {
  return `/v1/jobs/${encodeURIComponent(id)}/asset`;
}

/** `job` as JSON, with absolute URLs on `baseUrl`. */
export function toJobDocument(job: JobRecord, baseUrl: string): JobDocument {
  const succeeded = job.status === 'succeeded' && job.asset !== null;
  return {
    id: job.id,
    object: 'job',
    status: job.status,
    model: job.model,
    model_version: job.modelVersion,
    progress: job.progress,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    download_url: succeeded ? `${baseUrl}${assetPath(job.id)}` : null,
    asset: succeeded && job.asset ? { format: job.asset.format, media_type: job.asset.mediaType, byte_length: job.asset.byteLength, sha256: job.asset.sha256 } : null,
    error: job.status === 'failed' ? job.error : null,
  };
}
